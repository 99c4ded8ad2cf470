#include "bridge/wsgi/loop_wait.h"

#include "bridge/py_ref.h"
#include "core/server/server.h"

namespace baton::bridge {

void nested_pass_waiter::wait(exchange::exchange& s, uint64_t) {
  Py_BEGIN_ALLOW_THREADS
  server_.run_nested_pass(&s);
  Py_END_ALLOW_THREADS
}

}  // namespace baton::bridge
