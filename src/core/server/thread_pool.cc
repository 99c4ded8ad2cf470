#include "core/server/thread_pool.h"

#include <pthread.h>

#include <string>

namespace baton::server {
namespace {
thread_local stream_waiter* this_thread_waiter = nullptr;
}  // namespace

stream_waiter* thread_pool::current_waiter() { return this_thread_waiter; }

thread_pool::thread_pool(request_handler& handler, thread_pool_hooks& hooks, int threads, dispatcher* fallback)
    : handler_(handler), hooks_(hooks), fallback_(fallback) {
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<worker>(*this, i));
  // LIFO: the thread that went idle last is the likeliest to be still
  // spinning, and to take the next job without a futex wake.
  for (int i = threads - 1; i >= 0; --i) idle_.push_back(i);
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
  idle_.pop_back();
  s->worker = index;
  worker& w = *workers_[static_cast<size_t>(index)];
  // An idle worker has an empty ring, so this push cannot fail.
  w.jobs.try_push(s);
  w.parker.notify();
  return true;
}

void thread_pool::finished(http1::stream* s) {
  if (s->worker >= 0) idle_.push_back(s->worker);
}

void thread_pool::worker::wait(http1::stream&, uint64_t token) {
  owner.hooks_.detach();
  parker.wait(token);
  owner.hooks_.attach();
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
    if (s == nullptr || hooks.hand_over_due()) {
      hooks.detach();
      if (s == nullptr) {
        handoff::park_until(parker, [&] {
          return (s = jobs.try_pop()) != nullptr || owner.stopping_.load(std::memory_order_acquire);
        });
      }
      hooks.attach();
      if (s == nullptr) break;  // stopping, and nothing left to run
    }
    s->set_waker(this);
    if (!s->cancelled()) owner.handler_.handle(*s);
    s->app_done();  // the stream is the loop's again: not touched after this
  }
  hooks.thread_stopping(index);
  this_thread_waiter = nullptr;
}

}  // namespace baton::server
