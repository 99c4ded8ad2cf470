// How the loop thread waits for a stream whose app it runs itself (the
// inline shape, and the pool's inline fallback): by running the loop.
#pragma once

#include "core/server/exchange_wait.h"

namespace baton::server {
class server;
}

namespace baton::bridge {

// One nested pass of the loop per wait: the pass delivers this stream's
// body bytes, drains its output, and serves every other connection. The GIL
// is released for the pass (the loop never needs it) so the app's other
// threads run meanwhile. GIL held on entry and exit.
class nested_pass_waiter final : public server::exchange_waiter {
 public:
  explicit nested_pass_waiter(server::server& srv) : server_(srv) {}
  uint64_t prepare() override { return 0; }
  void cancel() override {}
  void wait(exchange::exchange& s, uint64_t) override;
  void wait_released(exchange::exchange& s, uint64_t) override;

 private:
  server::server& server_;
};

}  // namespace baton::bridge
