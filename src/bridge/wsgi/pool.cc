#include "bridge/wsgi/pool.h"

namespace baton::bridge {
namespace {

// Each pool thread's own: its thread state while detached, when it last
// attached, and how long it then held the GIL.
struct pool_thread {
  PyGILState_STATE gil;
  PyThreadState* detached = nullptr;
  int64_t held_since = 0;
  int64_t last_hold = 0;
  wsgi_thread_state wsgi;
};
thread_local pool_thread* this_thread = nullptr;

}  // namespace

void python_pool_hooks::thread_started(int) {
  this_thread = new pool_thread();
  this_thread->gil = PyGILState_Ensure();
  this_thread->held_since = turn_barrier::now_ns();
  this_thread->wsgi.waiter = server::thread_pool::current_waiter();
  wsgi_handler::set_thread_state(&this_thread->wsgi);
}

void python_pool_hooks::thread_stopping(int) {
  this_thread->wsgi.clear();
  wsgi_handler::set_thread_state(nullptr);
  PyGILState_Release(this_thread->gil);
  delete this_thread;
  this_thread = nullptr;
}

void python_pool_hooks::detach() {
  int64_t now = turn_barrier::now_ns();
  this_thread->last_hold = now - this_thread->held_since;
  this_thread->detached = PyEval_SaveThread();
}

void python_pool_hooks::attach() {
  barrier_.yield_turn_if_due(this_thread->last_hold);
  int64_t asked = turn_barrier::now_ns();
  barrier_.attach(this_thread->detached);
  this_thread->detached = nullptr;
  this_thread->held_since = turn_barrier::now_ns();
  if (metrics_ != nullptr) {
    metrics_->pool_gil_wait_ns.fetch_add(static_cast<uint64_t>(this_thread->held_since - asked),
                                         std::memory_order_relaxed);
  }
}

bool python_pool_hooks::hand_over_due() {
  if (!barrier_.due(turn_barrier::now_ns() - this_thread->held_since)) return false;
  handovers_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool attaching_inline_dispatcher::try_start(exchange::exchange* s) {
  if (busy_) return false;
  busy_ = true;
  s->set_direct(true);
  PyGILState_STATE gil = PyGILState_Ensure();
  handler_.handle(*s);
  s->app_done();
  PyGILState_Release(gil);
  busy_ = false;
  return true;
}

}  // namespace baton::bridge
