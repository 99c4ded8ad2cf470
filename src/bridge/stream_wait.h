// How an app-side thread that runs Python waits for its stream.
//
// WSGI is synchronous: wsgi.input.read() must return bytes and write() must
// have sent them. A stream never blocks, so the bridge turns its `pending`
// into a wait here, with the GIL released for as long as it lasts (other
// Python threads run meanwhile). Two ways to wait:
//   - a pool thread parks on its futex parker, which is the stream's waker;
//   - the loop thread itself (the inline shape) runs a nested pass of the
//     loop, which serves every other connection while this request waits.
//
// The protocol is the parker's: prepare, re-check, then wait, so news that
// arrives between the check and the wait is never missed.
#pragma once

#include <cstdint>

#include "bridge/py_ref.h"
#include "core/http1/stream.h"

namespace baton::server {
class server;
}

namespace baton::bridge {

class stream_waiter {
 public:
  // GIL held. Registers for news; the caller re-checks, then wait()s or cancel()s.
  virtual uint64_t prepare() = 0;
  virtual void cancel() = 0;
  // GIL held on entry and exit, released inside. Returns when the stream
  // may have changed (possibly spuriously).
  virtual void wait(http1::stream& s, uint64_t token) = 0;

 protected:
  ~stream_waiter() = default;
};

// Calls `attempt` until it returns true, waiting between tries. `attempt`
// must be idempotent while it fails (it is called again after prepare()).
template <typename Attempt>
void wait_until(stream_waiter& waiter, http1::stream& s, Attempt&& attempt) {
  while (!attempt()) {
    uint64_t token = waiter.prepare();
    if (attempt()) {
      waiter.cancel();
      return;
    }
    waiter.wait(s, token);
  }
}

// The loop thread's way to wait: one nested pass at a time.
class nested_pass_waiter final : public stream_waiter {
 public:
  explicit nested_pass_waiter(server::server& srv) : server_(srv) {}
  uint64_t prepare() override { return 0; }
  void cancel() override {}
  void wait(http1::stream& s, uint64_t) override;

 private:
  server::server& server_;
};

}  // namespace baton::bridge
