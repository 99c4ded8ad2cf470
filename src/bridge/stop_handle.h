// _baton.StopHandle: how another thread of the process stops one server,
// gracefully or at once, without a signal (a signal reaches every server of
// the process). baton.serving() runs a server on a thread of a test process
// and stops it with one when the test is done.
//
// Threads: stop() and wait_serving() may be called from any Python thread;
// the server attaches itself while it runs (serve() for the whole call,
// AsgiServer from its making to its close), and a stop asked for before it
// attaches is applied as it does. The handle's state is freed with the
// Python object, which the attached server holds a reference to.
#pragma once

#include "bridge/module_state.h"
#include "bridge/py_ref.h"
#include "core/server/server.h"

namespace baton::bridge {

// Makes the StopHandle type for `module` (its execution), into `t`.
bool stop_handle_type_add(PyObject* module, bridge_types& t);

// The server attached to the handle given as the `stop_handle` keyword (if
// any) for this object's life. `ok()` is false, with a TypeError set, when
// that keyword is not a StopHandle.
class stop_handle_attachment {
 public:
  stop_handle_attachment(PyObject* kwargs, server::server& srv);
  ~stop_handle_attachment();
  stop_handle_attachment(const stop_handle_attachment&) = delete;
  stop_handle_attachment& operator=(const stop_handle_attachment&) = delete;
  bool ok() const { return ok_; }

 private:
  py_ref handle_;
  bool ok_ = true;
};

}  // namespace baton::bridge
