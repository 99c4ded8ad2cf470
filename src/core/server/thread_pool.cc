#include "core/server/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <ctime>

#include <string>

namespace baton::server {
namespace {
thread_local stream_waiter* this_thread_waiter = nullptr;
}  // namespace

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

stream_waiter* thread_pool::current_waiter() { return this_thread_waiter; }

thread_pool::thread_pool(request_handler& handler, thread_pool_hooks& hooks, int threads, dispatcher* fallback)
    : handler_(handler), hooks_(hooks), fallback_(fallback) {
  depth_ = threads == 1 ? 64 : 1;
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<worker>(*this, i, depth_));
  in_flight_.assign(static_cast<size_t>(threads), 0);
  oldest_first_ = threads > 1 && hooks.oldest_first();
  in_hand_.resize(static_cast<size_t>(threads));
  // LIFO: the thread that went idle last is the likeliest to be still
  // spinning, and to take the next job without a futex wake.
  for (int i = threads - 1; i >= 0; --i) idle_.push_back(i);
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

bool thread_pool::try_start(http1::stream* s) {
  if (idle_.empty()) return fallback_ != nullptr && fallback_->try_start(s);
  int index = idle_.back();
  size_t slot = static_cast<size_t>(index);
  s->worker = index;
  s->pool_order = next_order_++;
  worker& w = *workers_[slot];
  // A worker on the idle list has room in its ring, so this cannot fail.
  w.jobs.try_push(s);
  if (++in_flight_[slot] == depth_) idle_.pop_back();
  ++jobs_in_flight_;
  w.parker.notify();
  return true;
}

void thread_pool::finished(http1::stream* s) {
  if (s->worker < 0) return;
  size_t slot = static_cast<size_t>(s->worker);
  --jobs_in_flight_;
  if (in_flight_[slot]-- == depth_) idle_.push_back(s->worker);
}

void thread_pool::put_in_hand(int index, http1::stream* s) {
  std::lock_guard<std::mutex> guard(in_hand_lock_);
  in_hand_[static_cast<size_t>(index)] = {s, s->pool_order};
}

// Called by a thread ready to start the job it put in hand (it holds the GIL
// now). If another thread still waits with an older one, the two swap: this
// thread starts the older job, and the other finds the newer one in its hand
// when its turn comes. Whichever thread the GIL goes to, the jobs in hand
// start oldest first; without it each job is bound to its thread
// and waits as long as that thread loses the race for the GIL, and the
// pool-fairness probe's p99 grows with the number of threads waiting.
http1::stream* thread_pool::take_oldest(int index) {
  std::lock_guard<std::mutex> guard(in_hand_lock_);
  job_in_hand& mine = in_hand_[static_cast<size_t>(index)];
  job_in_hand* oldest = &mine;
  for (job_in_hand& other : in_hand_) {
    if (other.s != nullptr && other.order < oldest->order) oldest = &other;
  }
  http1::stream* s = oldest->s;
  if (oldest != &mine) {
    *oldest = mine;
    order_swaps_.fetch_add(1, std::memory_order_relaxed);
  }
  mine = {};
  s->worker = index;  // the loop reads it once the job is done
  return s;
}

void thread_pool::worker::wait(http1::stream&, uint64_t token) {
  owner.hooks_.detach();
  parker.wait(token);
  owner.hooks_.attach();
}

// Polls the ring for a few microseconds, still attached, as long as no
// other thread waits for what this one holds.
http1::stream* thread_pool::worker::spin_for_job() {
  int64_t limit_ns = owner.hooks_.attached_spin_ns();
  timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (true) {
    for (int i = 0; i < 32; ++i) {
      if (http1::stream* s = jobs.try_pop()) return s;
      handoff::cpu_relax();
    }
    if (owner.stopping_.load(std::memory_order_relaxed) || !owner.hooks_.may_spin_attached()) return nullptr;
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - start.tv_sec) * 1000000000 + (now.tv_nsec - start.tv_nsec) >= limit_ns) return nullptr;
  }
}

void thread_pool::worker::run() {
  // Named so per-thread CPU figures (and top -H) tell the pool from the loop.
  std::string name = "baton-pool-" + std::to_string(index);
  pthread_setname_np(pthread_self(), name.c_str());
  thread_pool_hooks& hooks = owner.hooks_;
  this_thread_waiter = this;
  hooks.thread_started(index);
  while (true) {
    http1::stream* s = jobs.try_pop();
    if (s == nullptr && owner.spin_attached_ && hooks.may_spin_attached()) s = spin_for_job();
    if (s == nullptr || hooks.hand_over_due()) {
      hooks.detach();
      if (s == nullptr) {
        handoff::park_until(
            parker,
            [&] { return (s = jobs.try_pop()) != nullptr || owner.stopping_.load(std::memory_order_acquire); },
            owner.backoff_);
      }
      if (s != nullptr && owner.oldest_first_) owner.put_in_hand(index, s);
      hooks.attach();
      if (s == nullptr) break;  // stopping, and nothing left to run
    } else if (owner.oldest_first_) {
      owner.put_in_hand(index, s);
    }
    if (owner.oldest_first_) s = owner.take_oldest(index);
    s->set_waker(this);
    if (!s->cancelled()) owner.handler_.handle(*s);
    s->app_done();  // the stream is the loop's again: not touched after this
  }
  hooks.thread_stopping(index);
  this_thread_waiter = nullptr;
}

}  // namespace baton::server
