// The pool: N threads run the app's side of streams while the loop thread
// does everything else.
//
// Jobs cross from the loop in a single-producer/single-consumer ring per
// thread, carrying stream pointers; the loop gives a job only to a thread
// that is idle, so no request waits behind a slow one while another thread
// is free (the surplus waits in the server's queue). A thread with no job
// spins briefly, then yields, then parks on its futex parker, so the gaps
// between jobs at full load never reach the kernel. Completions come back as
// the streams' done notices through the loop's inbox, which wakes the loop
// only if it is parked.
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
#include <thread>
#include <vector>

#include "core/handoff/parker.h"
#include "core/handoff/spsc_ring.h"
#include "core/server/dispatcher.h"
#include "core/server/stream_wait.h"

namespace baton::server {

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

 protected:
  ~thread_pool_hooks() = default;
};

class thread_pool final : public dispatcher {
 public:
  // When every thread is busy: queue in the server (the default), or run
  // the request on the loop thread with `fallback` (an A/B arm).
  thread_pool(request_handler& handler, thread_pool_hooks& hooks, int threads,
              dispatcher* fallback = nullptr);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  void start();
  // Asks the threads to end once their rings are empty, and joins them.
  // Whatever the hooks hold must be free for them meanwhile.
  void stop_and_join();

  bool try_start(http1::stream* s) override;
  void finished(http1::stream* s) override;

  size_t idle_threads() const { return idle_.size(); }
  // Futex wakes made to hand out jobs (tests and probes: ~0 at saturation).
  uint64_t job_wakes() const;

 private:
  struct worker final : stream_waiter, http1::app_waker {
    worker(thread_pool& pool, int index) : owner(pool), index(index), jobs(4) {}
    uint64_t prepare() override { return parker.prepare_wait(); }
    void cancel() override { parker.cancel_wait(); }
    void wait(http1::stream& s, uint64_t token) override;
    void wake() override { parker.notify(); }
    void run();

    thread_pool& owner;
    int index;
    handoff::spsc_ring<http1::stream> jobs;
    handoff::parker parker;
    std::thread thread;
  };

  request_handler& handler_;
  thread_pool_hooks& hooks_;
  dispatcher* fallback_;
  std::vector<std::unique_ptr<worker>> workers_;
  std::vector<int> idle_;  // loop thread: workers with no job, most recently idle last
  std::atomic<bool> stopping_{false};

 public:
  // The waiter of the calling worker thread (null on any other thread).
  static stream_waiter* current_waiter();
};

}  // namespace baton::server
