// How a synchronous app side waits for its exchange.
//
// WSGI is synchronous: wsgi.input.read() must return bytes and write() must
// have sent them. An exchange never blocks, so the app side turns its
// `pending` into a wait here. Two ways to wait:
//   - a pool thread parks on its futex parker, which is the exchange's waker;
//   - the loop thread itself (the inline shape) runs a nested pass of the
//     loop, which serves every other connection while this request waits.
// Whatever the app side holds while it runs (the GIL) is let go for the
// length of the wait by the waiter's implementation.
//
// The protocol is the parker's: prepare, re-check, then wait, so news that
// arrives between the check and the wait is never missed.
#pragma once

#include <cstdint>

#include "core/exchange/exchange.h"

namespace baton::server {

class exchange_waiter {
 public:
  // Registers for news; the caller re-checks, then wait()s or cancel()s.
  virtual uint64_t prepare() = 0;
  virtual void cancel() = 0;
  // Returns when the exchange may have changed (possibly spuriously).
  virtual void wait(exchange::exchange& x, uint64_t token) = 0;
  // The same wait, for another thread of the app side (one the app started
  // itself) whose caller has let go of what it holds: the news is the
  // waiter's, but what wait() lets go and takes back belongs to the thread
  // the waiter serves.
  virtual void wait_released(exchange::exchange& x, uint64_t token) = 0;

 protected:
  ~exchange_waiter() = default;
};

// Calls `attempt` until it returns true, waiting between tries. `attempt`
// must be idempotent while it fails (it is called again after prepare()).
template <typename Attempt>
void wait_until(exchange_waiter& waiter, exchange::exchange& x, Attempt&& attempt) {
  while (!attempt()) {
    uint64_t token = waiter.prepare();
    if (attempt()) {
      waiter.cancel();
      return;
    }
    waiter.wait(x, token);
  }
}

}  // namespace baton::server
