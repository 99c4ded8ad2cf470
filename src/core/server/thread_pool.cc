#include "core/server/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cassert>
#include <ctime>

#include <string>

namespace baton::server {
namespace {
thread_local exchange_waiter* this_thread_waiter = nullptr;

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

exchange_waiter* thread_pool::current_waiter() { return this_thread_waiter; }

thread_pool::thread_pool(request_handler& handler, thread_pool_hooks& hooks, int threads, dispatcher* fallback,
                         size_t queue_capacity)
    : handler_(handler), hooks_(hooks), fallback_(fallback) {
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<worker>(*this, i));
  // With the inline fallback, a job no thread is free for runs on the loop.
  if (fallback == nullptr) queue_ = std::make_unique<handoff::spmc_ring<exchange::exchange>>(std::max<size_t>(queue_capacity, 1));
  oldest_first_ = threads > 1 && hooks.oldest_first();
  // Without a queue (the inline fallback) there is nowhere to leave a job.
  if (threads > 1 && queue_ != nullptr) budget_ns_ = hooks.runner_budget_ns();
  in_hand_.resize(static_cast<size_t>(threads));
  // On one CPU a spinning worker only delays the thread it waits for.
  if (available_cpus() < 2) {
    backoff_ = handoff::backoff{0, 0};
    spin_loop_ = false;
    spin_attached_ = false;
  }
}

thread_pool::~thread_pool() {
  for (auto& w : workers_) {
    // Only after a stop that could not join (a thread stuck in the app):
    // the process is ending, and the thread must not be destroyed joinable.
    if (w->thread.joinable()) w->thread.detach();
  }
}

void thread_pool::start() {
  for (auto& w : workers_) {
    worker* self = w.get();
    self->thread = std::thread([self] { self->run(); });
  }
}

void thread_pool::stop_and_join() {
  stopping_.store(true, std::memory_order_release);
  for (auto& w : workers_) w->parker.notify();
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

uint64_t thread_pool::job_wakes() const {
  uint64_t total = 0;
  for (const auto& w : workers_) total += w->parker.wake_calls();
  return total;
}

size_t thread_pool::idle_threads() const {
  size_t n = 0;
  for (const auto& w : workers_) n += w->idle.load(std::memory_order_relaxed) ? 1 : 0;
  return n;
}

// Lowest index first: under light load the same few threads keep serving,
// their caches warm.
thread_pool::worker* thread_pool::claim_idle() {
  for (auto& w : workers_) {
    bool expected = true;
    if (w->idle.load(std::memory_order_relaxed) &&
        w->idle.compare_exchange_strong(expected, false, std::memory_order_acq_rel)) {
      return w.get();
    }
  }
  return nullptr;
}

bool thread_pool::runner_active(int64_t now_ns) const {
  return running_.load(std::memory_order_relaxed) > 0 &&
         now_ns - started_ns_.load(std::memory_order_relaxed) < budget_ns_;
}

bool thread_pool::try_start(exchange::exchange* s) {
  s->links.pool_order = next_order_++;
  // The clock is read only while some thread is running.
  bool leave = budget_ns_ > 0 && running_.load(std::memory_order_relaxed) > 0 && runner_active(monotonic_ns());
  // While older jobs wait in the queue, a new one joins them there rather
  // than going to an idle thread ahead of them.
  if (!leave && (queue_ == nullptr || queue_->empty())) {
    if (worker* w = claim_idle()) {
      // A claimed worker's ring is empty: it parked after finding nothing in
      // it, and only a claim, which needs the flag it raised since, pushes.
      bool pushed = w->jobs.try_push(s);
      assert(pushed);
      (void)pushed;
      ++jobs_in_flight_;
      w->parker.notify();
      return true;
    }
  }
  if (queue_ == nullptr || !queue_->try_push(s)) return fallback_ != nullptr && fallback_->try_start(s);
  ++jobs_in_flight_;
  if (leave) {
    // No wake: the running thread takes it when it is done, and
    // look_after_waiting() wakes idle threads if it stops starting jobs.
    left_waiting_ = true;
    ++left_to_runner_;
    return true;
  }
  notify_idle();
  return true;
}

// A worker may have raised its flag after the loop last looked and before
// its push: it checks the queue after raising it, and this checks the flags
// after pushing (a store, a full fence, a load on each side), so at least
// one of the two sees the other. Every idle worker is told: they race for
// the job and the losers park again, where telling one could tell one
// already told and leave another asleep beside a waiting job.
void thread_pool::notify_idle() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (auto& w : workers_) {
    if (w->idle.load(std::memory_order_relaxed)) w->parker.notify();
  }
}

int64_t thread_pool::look_after_waiting() {
  if (!left_waiting_) return -1;
  if (queue_->empty()) {
    left_waiting_ = false;
    return -1;
  }
  int64_t now = monotonic_ns();
  if (runner_active(now)) return started_ns_.load(std::memory_order_relaxed) + budget_ns_ - now;
  // Nobody has started a job for a whole budget: the running thread is
  // blocked (a sleep, I/O, a wait for its stream) or gone idle; the idle
  // threads take the queue. Not idle ones take it as they finish.
  left_waiting_ = false;
  ++runner_stalls_;
  notify_idle();
  return -1;
}

void thread_pool::finished(exchange::exchange*) { --jobs_in_flight_; }

void thread_pool::put_in_hand(int index, exchange::exchange* s) {
  std::lock_guard<std::mutex> guard(in_hand_lock_);
  in_hand_[static_cast<size_t>(index)] = {s, s->links.pool_order};
}

// Called by a thread ready to start the job it put in hand (it holds the GIL
// now). If another thread still waits with an older one, the two swap: this
// thread starts the older job, and the other finds the newer one in its hand
// when its turn comes. Whichever thread the GIL goes to, the jobs in hand
// start oldest first; without it each job is bound to its thread
// and waits as long as that thread loses the race for the GIL, and the
// pool-fairness probe's p99 grows with the number of threads waiting.
exchange::exchange* thread_pool::take_oldest(int index) {
  std::lock_guard<std::mutex> guard(in_hand_lock_);
  job_in_hand& mine = in_hand_[static_cast<size_t>(index)];
  job_in_hand* oldest = &mine;
  for (job_in_hand& other : in_hand_) {
    if (other.s != nullptr && other.order < oldest->order) oldest = &other;
  }
  exchange::exchange* s = oldest->s;
  if (oldest != &mine) {
    *oldest = mine;
    order_swaps_.fetch_add(1, std::memory_order_relaxed);
  }
  mine = {};
  return s;
}

void thread_pool::worker::wait(exchange::exchange&, uint64_t token) {
  owner.count_running(-1);
  owner.hooks_.detach();
  parker.wait(token);
  owner.hooks_.attach();
  owner.count_running(+1);
}

exchange::exchange* thread_pool::worker::next_job() {
  if (exchange::exchange* s = jobs.try_pop()) return s;
  return owner.queue_ != nullptr ? owner.queue_->try_pop() : nullptr;
}

// Polls for a job for a few microseconds, still attached, as long as no
// other thread waits for what this one holds.
exchange::exchange* thread_pool::worker::spin_for_job() {
  int64_t limit_ns = owner.hooks_.attached_spin_ns();
  timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (true) {
    for (int i = 0; i < 32; ++i) {
      if (exchange::exchange* s = next_job()) return s;
      handoff::cpu_relax();
    }
    if (owner.stopping_.load(std::memory_order_relaxed) || !owner.hooks_.may_spin_attached()) return nullptr;
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - start.tv_sec) * 1000000000 + (now.tv_nsec - start.tv_nsec) >= limit_ns) return nullptr;
  }
}

exchange::exchange* thread_pool::worker::wait_for_job() {
  exchange::exchange* s = nullptr;
  idle.store(true, std::memory_order_relaxed);
  // Pairs with the fence in try_start() after a push to the queue.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  handoff::park_until(
      parker,
      [&] {
        // Claimed by the loop (the flag is down): the job is in the ring,
        // or on its way there.
        if ((s = jobs.try_pop()) != nullptr) return true;
        // Not false while the queue has a job: park_until() sleeps on false.
        while (owner.queue_ != nullptr && !owner.queue_->empty()) {
          bool expected = true;
          if (!idle.compare_exchange_strong(expected, false, std::memory_order_acq_rel)) return false;
          if ((s = owner.queue_->try_pop()) != nullptr) return true;
          // Another thread took it first: idle again, and look once more.
          idle.store(true, std::memory_order_relaxed);
          std::atomic_thread_fence(std::memory_order_seq_cst);
        }
        if (!owner.stopping_.load(std::memory_order_acquire)) return false;
        // Stopping, and nothing left: unless the loop claimed this thread
        // just now, it is done (a claimed thread waits for its job).
        bool expected = true;
        return idle.compare_exchange_strong(expected, false, std::memory_order_acq_rel);
      },
      owner.backoff_);
  return s;
}

void thread_pool::worker::run() {
  // Named so per-thread CPU figures (and top -H) tell the pool from the loop.
  std::string name = "baton-pool-" + std::to_string(index);
  pthread_setname_np(pthread_self(), name.c_str());
  thread_pool_hooks& hooks = owner.hooks_;
  this_thread_waiter = this;
  hooks.thread_started(index);
  owner.count_running(+1);
  while (true) {
    exchange::exchange* s = next_job();
    if (s == nullptr && owner.spin_attached_ && hooks.may_spin_attached()) s = spin_for_job();
    if (s == nullptr || hooks.hand_over_due()) {
      owner.count_running(-1);
      hooks.detach();
      if (s == nullptr) s = wait_for_job();
      if (s != nullptr && owner.oldest_first_) owner.put_in_hand(index, s);
      hooks.attach();
      owner.count_running(+1);
      if (s == nullptr) break;  // stopping, and nothing left to run
    } else if (owner.oldest_first_) {
      owner.put_in_hand(index, s);
    }
    if (owner.oldest_first_) s = owner.take_oldest(index);
    s->set_waker(this);
    metrics::worker_slot* busy = owner.metrics_;
    if (busy != nullptr) busy->pool_busy.fetch_add(1, std::memory_order_relaxed);
    if (owner.budget_ns_ > 0) owner.started_ns_.store(monotonic_ns(), std::memory_order_relaxed);
    if (!s->cancelled()) owner.handler_.handle(*s);
    if (busy != nullptr) busy->pool_busy.fetch_sub(1, std::memory_order_relaxed);
    s->app_done();  // the exchange is the loop's again: not touched after this
  }
  owner.count_running(-1);
  hooks.thread_stopping(index);
  this_thread_waiter = nullptr;
}

}  // namespace baton::server
