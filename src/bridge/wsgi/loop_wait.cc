#include "bridge/wsgi/loop_wait.h"

#include "bridge/py_ref.h"
#include "core/server/server.h"

namespace baton::bridge {

void nested_pass_waiter::wait(exchange::exchange& s, uint64_t token) {
  Py_BEGIN_ALLOW_THREADS
  wait_released(s, token);
  Py_END_ALLOW_THREADS
}

// A thread of the app's own runs the pass while the loop thread waits in
// the app for it (joins it), as WSGI's contract has it.
void nested_pass_waiter::wait_released(exchange::exchange& s, uint64_t) { server_.run_nested_pass(&s); }

}  // namespace baton::bridge
