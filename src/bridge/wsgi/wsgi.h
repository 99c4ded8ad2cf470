// The WSGI bridge (PEP 3333): types and the request handler.
//
// Every function here needs the GIL unless its comment says otherwise.
#pragma once

#include "bridge/module_state.h"
#include "bridge/py_ref.h"
#include "bridge/wsgi/field_memo.h"
#include "core/exchange/exchange.h"
#include "core/server/exchange_wait.h"

namespace baton::bridge {

// One WSGI call in flight. It lives on the stack of the thread running the
// app during handle(); the Python objects that point at it (wsgi.input,
// start_response, write, wsgi.early_hints) are disarmed before it goes away
// (and the app's other threads kept off once it returned: call_slot.h), so
// a reference the app kept past the request raises instead of touching
// freed memory.
struct wsgi_call {
  exchange::exchange* s = nullptr;
  server::exchange_waiter* waiter = nullptr;  // the running thread's (foreign_wait.h: another's)
  const PyThreadState* runner = nullptr;      // the thread running the app
  bool app_returned = false;  // set (atomically) by the runner: other threads keep off (call_slot.h)
  uint64_t body_consumed = 0;  // bytes the app has read
  py_ref status;   // str, from start_response
  py_ref headers;  // list of (str, str), from start_response
  int status_code = 0;
  bool started = false;       // start_response has been called
  bool head_prepared = false; // status and fields were handed to the exchange
  field_memo* memo = nullptr;  // the running thread's (field_memo.h)
};

// The objects below hold the call they serve while it runs, in a slot
// (call_slot.h) the thread running the app arms, settles and disarms; any
// thread the app gives them to may use them while the app runs.
struct call_slot;

// wsgi.input: a native, read-only binary stream over the request body.
extern PyType_Spec wsgi_input_spec;
PyObject* wsgi_input_new(wsgi_call* call);
call_slot& wsgi_input_slot(PyObject* input);

// start_response, and the write() callable it returns.
extern PyType_Spec start_response_spec;
PyObject* start_response_new(wsgi_call* call);
call_slot& start_response_slot(PyObject* start_response);
// True when nothing but the handler's cache refers to it (or to its write()).
bool start_response_reusable(PyObject* start_response);
// Hands status and headers to the exchange if not done yet. Returns false
// with a Python error set when they are invalid.
bool wsgi_prepare_head(wsgi_call& call);
// Sends body bytes, waiting (GIL released) while the output window is full.
// Returns false when the client is gone. `external`: the bytes are not
// copied; the caller keeps them alive until wsgi_wait_sent() returns.
bool wsgi_send(wsgi_call& call, const char* data, size_t length, bool external = false);
// Waits (GIL released) until no external bytes of the call remain queued.
void wsgi_wait_sent(wsgi_call& call);
// Hands what is queued to the loop now and waits until the window has room.
bool wsgi_flush(wsgi_call& call);

// environ["wsgi.early_hints"]: sends a 103 Early Hints response
// (early_hints.cc).
extern PyType_Spec early_hints_spec;
PyObject* early_hints_new(wsgi_call* call);
call_slot& early_hints_slot(PyObject* early_hints);

// wsgi.file_wrapper.
struct file_wrapper_object {
  PyObject_HEAD
  PyObject* filelike;
  Py_ssize_t block_size;
};

// Makes the types above for `module` (its execution), into `t`.
bool wsgi_types_add(PyObject* module, bridge_types& t);

}  // namespace baton::bridge
