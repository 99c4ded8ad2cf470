// The pool: N threads run the app's side of exchanges while the loop thread
// does everything else.
//
// Jobs cross from the loop two ways, both carrying exchange pointers. A thread
// that is idle (parked, its flag up) is claimed by the loop and gets its job
// in its own single-producer/single-consumer ring, with a wake. When no
// thread is idle (or older jobs wait there), the job goes to the pool's
// queue, one single-producer/multi-consumer ring that every thread takes
// from as it finishes a job, so at full load a thread goes from one job to
// the next without a round trip through the loop and without letting go of
// what it holds (the GIL); a thread takes from the queue before it ever
// parks, so no request waits
// there while a thread is free, and none waits behind a slow one. What the
// queue cannot hold waits in the server's. When the hooks ask for it
// (oldest_first), a thread about to start a job first swaps it for the
// oldest one another thread holds and has not started, so the jobs in the
// threads' hands start oldest first, whichever thread runs first. A thread
// with no job spins briefly (still attached, if nobody waits for what it
// holds), then parks on its futex parker. Completions come back as the
// exchanges' done notices through the loop's inbox, which wakes the loop only
// if it is parked.
//
// What a thread must hold to run the app (the GIL) is the hooks' business:
// a thread holds it from thread_started() on and lets go of it only while it
// waits (for a job, or inside a job for its stream), between detach() and
// attach(). Core knows nothing of Python.
//
// Threads: try_start() and finished() are called on the loop thread; the
// workers call the handler.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/handoff/parker.h"
#include "core/handoff/spmc_ring.h"
#include "core/handoff/spsc_ring.h"
#include "core/metrics/layout.h"
#include "core/server/dispatcher.h"
#include "core/server/exchange_wait.h"

namespace baton::server {

// CPUs this process may run on (its affinity mask).
int available_cpus();

class thread_pool_hooks {
 public:
  // On the new thread, first and last.
  virtual void thread_started(int) {}
  virtual void thread_stopping(int) {}
  // Around every wait of a worker (for a job, or for its stream).
  virtual void detach() {}
  virtual void attach() {}
  // After a job, with a next one in hand: true to detach and attach again
  // before it (the turn barrier's hand-over).
  virtual bool hand_over_due() { return false; }
  // After a job, with none in its ring or the pool's queue: true while the
  // thread may keep what it holds and spin a few microseconds for the next
  // one to be queued (nobody else is waiting for it).
  virtual bool may_spin_attached() { return true; }
  // For how long, at most.
  virtual int64_t attached_spin_ns() { return 20000; }
  // True when the jobs in the threads' hands start oldest first, whichever
  // thread wins what they must hold (take_oldest).
  virtual bool oldest_first() { return false; }
  // How long a new job may be left in the pool's queue, no thread woken for
  // it, while another thread runs jobs and started its current one less
  // than this long ago (0: never; an idle thread is woken at once). When
  // what the threads must hold is one at a time (the GIL), a woken thread
  // only waits for it and takes it from the one that runs: two context
  // switches and a hand-over for a job the running thread would have
  // started as soon as it was done. The loop watches what it left (a
  // running thread that blocks, in a sleep or on I/O, stops starting jobs):
  // once nobody has started one for this long, idle threads are woken.
  virtual int64_t runner_budget_ns() { return 0; }

 protected:
  ~thread_pool_hooks() = default;
};

class thread_pool final : public dispatcher {
 public:
  // When every thread is busy: queue in the pool's queue, then in the
  // server (the default), or run the request on the loop thread with
  // `fallback` (an A/B arm; no pool queue then). The pool's queue holds at
  // least one job: while a job waits in the server's queue, the pool's is
  // full, so a done notice (which pumps the server's queue) is still to come
  // for each job in it; with no pool queue, a thread could go idle just after
  // the loop looked, and the job would wait for some other event.
  thread_pool(request_handler& handler, thread_pool_hooks& hooks, int threads,
              dispatcher* fallback = nullptr, size_t queue_capacity = default_queue_capacity);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  // Enough that a thread finishing a job at full load finds the next one
  // waiting; the rest wait in the server's queue, which stops accepting
  // when it is long.
  static constexpr size_t default_queue_capacity = 64;

  void start();
  // Before start(): the worker's metrics slot, whose busy-threads gauge the
  // threads move around each job (null: metrics off).
  void set_metrics(metrics::worker_slot* slot) { metrics_ = slot; }
  // Asks the threads to end once their rings and the queue are empty, and
  // joins them. Whatever the hooks hold must be free for them meanwhile.
  void stop_and_join();

  bool try_start(exchange::exchange* s) override;
  void finished(exchange::exchange* s) override;
  bool expects_completions() const override { return jobs_in_flight_ > 0 && spin_loop_; }
  int64_t look_after_waiting() override;

  // Threads parked idle (any thread; a snapshot).
  size_t idle_threads() const;
  // Loop thread: jobs handed out and not yet finished (the loop expects
  // their done notices soon, so it spins briefly before it parks).
  size_t jobs_in_flight() const { return jobs_in_flight_; }
  // Jobs waiting in the pool's queue (any thread; a snapshot).
  size_t queued_jobs() const { return queue_ != nullptr ? queue_->size() : 0; }
  // Jobs its queue can hold (its capacity rounded up to a power of two).
  size_t queue_slots() const { return queue_ != nullptr ? queue_->capacity() : 0; }
  // Futex wakes made to hand out jobs (tests and probes: ~0 at saturation).
  uint64_t job_wakes() const;
  // Jobs a thread started in place of another thread's newer one (take_oldest).
  uint64_t order_swaps() const { return order_swaps_.load(std::memory_order_relaxed); }
  // Jobs left in the queue for a running thread, no thread woken (tests and
  // probes), and how often the loop then had to wake idle threads for them.
  uint64_t left_to_runner() const { return left_to_runner_; }
  uint64_t runner_stalls() const { return runner_stalls_; }

 private:
  struct worker final : exchange_waiter, exchange::app_waker {
    worker(thread_pool& pool, int index) : owner(pool), index(index), jobs(1) {}
    uint64_t prepare() override { return parker.prepare_wait(); }
    void cancel() override { parker.cancel_wait(); }
    void wait(exchange::exchange& s, uint64_t token) override;
    void wait_released(exchange::exchange&, uint64_t token) override { parker.wait(token); }
    void wake() override { parker.notify(); }
    void run();
    // The next job without waiting: this thread's ring, then the pool's queue.
    exchange::exchange* next_job();
    exchange::exchange* spin_for_job();
    // Idle: raises the flag and parks until the loop hands this thread a job,
    // the queue has one, or the pool stops (null then).
    exchange::exchange* wait_for_job();

    thread_pool& owner;
    int index;
    // Up while the thread is parked for want of a job. Only the thread
    // raises it, on its way to park with its ring empty; the loop claims an
    // idle thread by lowering it (compare-and-swap) before it pushes to the
    // ring, and the thread lowers it itself to take from the queue instead.
    // Down at first: jobs that come before the threads are ready wait in
    // the queue, which each thread looks at before it parks.
    std::atomic<bool> idle{false};
    handoff::spsc_ring<exchange::exchange> jobs;
    handoff::parker parker;
    std::thread thread;
  };

  // Loop thread: claims an idle worker (lowers its flag), or null.
  worker* claim_idle();
  // Loop thread: wakes every idle worker (they race for the queue's jobs).
  void notify_idle();
  // Loop thread: a thread is running jobs and started one within the budget.
  bool runner_active(int64_t now_ns) const;

  request_handler& handler_;
  thread_pool_hooks& hooks_;
  dispatcher* fallback_;
  std::vector<std::unique_ptr<worker>> workers_;
  std::unique_ptr<handoff::spmc_ring<exchange::exchange>> queue_;  // null: no pool queue
  size_t jobs_in_flight_ = 0;
  // Once its attached spin (spin_for_job) is over, a worker parks at once:
  // spinning detached only takes CPU from the threads that hold the GIL
  // (measured: a pool of four served 34k hello/s parking at once, 27k
  // after 2000 detached spins).
  handoff::backoff backoff_{0, 0};
  // Both false on one CPU, where spinning only delays the awaited thread.
  bool spin_loop_ = true;
  bool spin_attached_ = true;
  std::atomic<bool> stopping_{false};
  metrics::worker_slot* metrics_ = nullptr;

  // Leaving jobs to a running thread (runner_budget_ns; 0: off). Threads
  // that hold what the hooks give (between attach() and detach(): in a job,
  // or between two), and when any thread last started a job: both written
  // by the threads, read by the loop as hints (a stale one costs a look
  // later, never a lost job: the loop keeps looking until the queue is
  // empty). A thread that blocks inside a job without the hooks knowing (a
  // sleep, I/O) still counts: the start time tells it.
  int64_t budget_ns_ = 0;
  alignas(64) std::atomic<int> running_{0};
  std::atomic<int64_t> started_ns_{0};
  void count_running(int change) {
    if (budget_ns_ > 0) running_.fetch_add(change, std::memory_order_relaxed);
  }
  // Loop thread: jobs were left in the queue and have not all been taken.
  bool left_waiting_ = false;
  uint64_t left_to_runner_ = 0;
  uint64_t runner_stalls_ = 0;

  // Jobs in hand and not yet started, by thread, when oldest_first(): a
  // thread takes a job from its ring or the queue whenever it is free, but
  // starts the oldest job in hand among all threads (see take_oldest; a job
  // still in a ring or the queue is not in hand yet). A plain lock:
  // held for a few loads and stores, by pool threads only, twice per job.
  struct job_in_hand {
    exchange::exchange* s = nullptr;
    uint64_t order = 0;
  };
  bool oldest_first_ = false;
  std::mutex in_hand_lock_;
  std::vector<job_in_hand> in_hand_;
  uint64_t next_order_ = 0;  // loop thread; only the order matters, not gaps (a job the pool refused)
  std::atomic<uint64_t> order_swaps_{0};
  void put_in_hand(int index, exchange::exchange* s);
  exchange::exchange* take_oldest(int index);

 public:
  // The waiter of the calling worker thread (null on any other thread).
  static exchange_waiter* current_waiter();
};

}  // namespace baton::server
