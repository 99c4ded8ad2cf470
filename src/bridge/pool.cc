#include "bridge/pool.h"

#include "core/util/log.h"

namespace baton::bridge {

worker_pool::worker_pool(wsgi_handler& handler, const pool_options& options)
    : handler_(handler), options_(options), barrier_(options.turn_barrier && options.threads > 1) {
  for (int i = 0; i < options.threads; ++i) workers_.push_back(std::make_unique<worker>(*this));
  // LIFO: the thread that went idle last is the likeliest to be still
  // spinning, and to take the next job without a futex wake.
  for (int i = options.threads - 1; i >= 0; --i) idle_.push_back(i);
}

worker_pool::~worker_pool() {
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.detach();  // only after a failed stop: the process is ending
  }
}

void worker_pool::start() {
  for (auto& w : workers_) {
    worker* self = w.get();
    // The thread needs the GIL to attach; it gets it once this one lets go.
    self->thread = std::thread([self] { self->run(); });
  }
}

void worker_pool::stop_and_join() {
  stopping_.store(true, std::memory_order_release);
  for (auto& w : workers_) w->parker.notify();
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

bool worker_pool::try_start(http1::stream* s) {
  if (idle_.empty()) {
    if (!options_.fallback_inline || inline_busy_) return false;
    run_inline(s);
    return true;
  }
  int index = idle_.back();
  idle_.pop_back();
  s->worker = index;
  worker& w = *workers_[static_cast<size_t>(index)];
  // The worker had no job, so its ring has room.
  bool pushed = w.jobs.try_push(s);
  (void)pushed;
  w.parker.notify();
  return true;
}

void worker_pool::finished(http1::stream* s) {
  if (s->worker >= 0) idle_.push_back(s->worker);
}

// The predecessor's fallback, kept as an A/B arm: with every thread busy,
// the loop thread runs the request itself, attaching for the call.
void worker_pool::run_inline(http1::stream* s) {
  inline_busy_ = true;
  s->set_direct(true);
  PyGILState_STATE gil = PyGILState_Ensure();
  handler_.handle(*s);
  s->app_done();
  PyGILState_Release(gil);
  inline_busy_ = false;
}

// Waits for the stream's news with the GIL released; the re-attach goes
// through the turn barrier like any other.
void worker_pool::worker::wait(http1::stream&, uint64_t token) {
  PyThreadState* state = PyEval_SaveThread();
  parker.wait(token);
  owner.barrier_.attach(state);
}

void worker_pool::worker::run() {
  PyGILState_STATE gil = PyGILState_Ensure();
  state.waiter = this;
  wsgi_handler::set_thread_state(&state);
  int64_t held_since = turn_barrier::now_ns();
  turn_barrier& barrier = owner.barrier_;
  while (true) {
    http1::stream* s = jobs.try_pop();
    if (s == nullptr || barrier.due(turn_barrier::now_ns() - held_since)) {
      int64_t held = turn_barrier::now_ns() - held_since;
      PyThreadState* thread_state = PyEval_SaveThread();
      if (s == nullptr) {
        handoff::park_until(parker, [&] {
          return (s = jobs.try_pop()) != nullptr || owner.stopping_.load(std::memory_order_acquire);
        });
      }
      barrier.yield_turn_if_due(held);
      barrier.attach(thread_state);
      held_since = turn_barrier::now_ns();
      if (s == nullptr) break;  // stopping, and nothing left to run
    }
    s->set_waker(this);
    if (!s->cancelled()) owner.handler_.handle(*s);
    s->app_done();  // the stream is the loop's again: do not touch it after this
  }
  state.clear();
  wsgi_handler::set_thread_state(nullptr);
  PyGILState_Release(gil);
}

}  // namespace baton::bridge
