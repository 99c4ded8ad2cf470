#include "bridge/stream_wait.h"

#include "core/server/server.h"

namespace baton::bridge {

// The loop thread waits by running the loop: the pass delivers this
// stream's body bytes and drains its output, and serves everyone else. The
// GIL is released for the pass (the loop never needs it) so the app's other
// threads run meanwhile.
void nested_pass_waiter::wait(http1::stream& s, uint64_t) {
  Py_BEGIN_ALLOW_THREADS
  server_.run_nested_pass(&s);
  Py_END_ALLOW_THREADS
}

}  // namespace baton::bridge
