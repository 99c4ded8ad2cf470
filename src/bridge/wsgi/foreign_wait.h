// How a thread the app started itself waits for its request's exchange: a
// write() that finds the output window full, a wsgi.input read before the
// body's bytes came.
//
// The exchange tells the thread running the app (its waiter) when it
// changes; that waiter lets the GIL go and takes it back in its own
// thread's way (a pool thread through the pool's hooks, which keep state
// for pool threads only: an app's thread waiting through them crashed the
// server). Another thread waits on the same news and lets the GIL go
// plainly.
#pragma once

#include <Python.h>

#include "bridge/wsgi/wsgi.h"
#include "core/server/exchange_wait.h"

namespace baton::bridge {

class foreign_waiter final : public server::exchange_waiter {
 public:
  explicit foreign_waiter(server::exchange_waiter& runner) : runner_(runner) {}
  uint64_t prepare() override { return runner_.prepare(); }
  void cancel() override { runner_.cancel(); }
  void wait(exchange::exchange& s, uint64_t token) override {
    Py_BEGIN_ALLOW_THREADS
    runner_.wait_released(s, token);
    Py_END_ALLOW_THREADS
  }
  void wait_released(exchange::exchange& s, uint64_t token) override { runner_.wait_released(s, token); }

 private:
  server::exchange_waiter& runner_;
};

// wait_until() for a call, on whichever thread of the app calls.
template <typename Attempt>
void wsgi_wait_until(wsgi_call& call, exchange::exchange& s, Attempt&& attempt) {
  if (PyThreadState_Get() == call.runner) {
    server::wait_until(*call.waiter, s, attempt);
    return;
  }
  foreign_waiter here(*call.waiter);
  server::wait_until(here, s, attempt);
}

}  // namespace baton::bridge
