// What a request's task runs: a native coroutine that calls the ASGI app
// inside the task, drives its awaitable, and, when that ends, settles what
// the app left owed (the runner's finish). Asyncio thread, GIL held.
#pragma once

#include "bridge/asgi/runner.h"
#include "bridge/module_state.h"
#include "bridge/py_ref.h"

namespace baton::bridge {

// A new coroutine for request `r`: its first step calls app(scope, receive, send).
PyObject* make_request_coroutine(asgi_runner* runner, asgi_request* r, PyObject* app, PyObject* scope,
                                 PyObject* receive, PyObject* send);

// Makes the request coroutine's type, ClientDisconnected, and finds
// asyncio.CancelledError, for `module` (its execution), into `t`.
bool coroutine_types_add(PyObject* module, bridge_types& t);

}  // namespace baton::bridge
