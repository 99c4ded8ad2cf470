// The objects an ASGI app awaits and calls, as native types: the awaitable
// that is already complete (a receive() whose event is there, a send() the
// window took), the one that raises what its call met, the one that waits
// for the server, and the receive and send callables of each request. All
// of it runs on the asyncio thread with the GIL held.
#pragma once

#include "bridge/asgi/runner.h"
#include "bridge/module_state.h"
#include "bridge/py_ref.h"

namespace baton::bridge {

// An awaitable that completes with `value_new_ref` (stolen) at once,
// through am_send, without a Future or a suspension of the task.
PyObject* make_completed(PyObject* value_new_ref);
// An awaitable that waits for `future` (borrowed), an asyncio Future the
// loop side settles.
PyObject* make_waiting(PyObject* future);

// The coroutine protocol's pieces, for the native coroutines: a step's
// outcome as send() gives it (the value yielded, or StopIteration carrying
// the value returned, or the error; null when it raises), and throw()'s
// arguments raised (throw(exception) or throw(type[, value[, traceback]]);
// false when they name no exception, and a TypeError is raised instead).
PyObject* coroutine_step_result(PySendResult status, PyObject* result);
bool raise_thrown(PyObject* args);

// What receive, send and the request's coroutine know of their request.
// Each holds a reference to the runner's owner, so the runner outlives every
// one of them (a task can call them, or end, after the server has closed);
// the generation tells them apart from a later request on the same object.
struct request_handle {
  PyObject* owner;
  asgi_runner* runner;
  asgi_request* request;
  uint64_t generation;

  void bind(asgi_runner* to, asgi_request* r) {
    owner = to->owner();
    Py_XINCREF(owner);
    runner = to;
    request = r;
    generation = r->generation;
  }
  void release() { Py_CLEAR(owner); }
};

// The request's receive() and send(message).
PyObject* make_receive(asgi_runner* runner, asgi_request* r);
PyObject* make_send(asgi_runner* runner, asgi_request* r);

// Makes the types above for `module` (its execution), into `t`.
bool awaitable_types_add(PyObject* module, bridge_types& t);

}  // namespace baton::bridge
