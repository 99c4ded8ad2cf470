#include "bridge/asgi/awaitables.h"

#include "bridge/module_state.h"
#include "bridge/py_compat.h"

namespace baton::bridge {

namespace {

// --- the coroutine protocol ----------------------------------------------------
//
// asyncio takes for a coroutine (asyncio.iscoroutine, by
// collections.abc.Coroutine's methods) whatever has __await__, send, throw
// and close. Every awaitable receive() and send() return has them, so
// asyncio.create_task(send(m)) and anyio's start_soon(send, m) take them as
// they take the coroutine other servers' send returns.

PyObject* self_await(PyObject* self) {
  Py_INCREF(self);
  return self;
}

PyObject* send_method(PyObject* self, PyObject* value) {
  PyObject* result = nullptr;
  PySendResult status = Py_TYPE(self)->tp_as_async->am_send(self, value, &result);
  return coroutine_step_result(status, result);
}

PyObject* iternext_by_send(PyObject* self) { return send_method(self, Py_None); }

// throw() into an awaitable that is not suspended anywhere: the exception
// comes straight back out, as from a coroutine not started.
PyObject* throw_back(PyObject*, PyObject* args) {
  raise_thrown(args);
  return nullptr;
}

PyObject* close_nothing(PyObject*, PyObject*) { Py_RETURN_NONE; }

PyMethodDef plain_methods[] = {
    {"send", send_method, METH_O, "send(value): completes (StopIteration) or raises"},
    {"throw", throw_back, METH_VARARGS, "throw(exception): raises it"},
    {"close", close_nothing, METH_NOARGS, "close(): nothing to close"},
    {nullptr, nullptr, 0, nullptr}};

// --- the awaitable that is already complete ---------------------------------
//
// `await receive()` on an event that is there already, or `await send(...)`
// that the window took: the await returns the value at once, through am_send,
// without creating a Future or suspending the task.

struct completed_object {
  PyObject_HEAD
  PyObject* value;
};

PySendResult completed_send(PyObject* self, PyObject*, PyObject** result) {
  auto* o = reinterpret_cast<completed_object*>(self);
  *result = o->value != nullptr ? o->value : Py_None;
  Py_INCREF(*result);
  return PYGEN_RETURN;
}

void completed_dealloc(PyObject* self) {
  Py_CLEAR(reinterpret_cast<completed_object*>(self)->value);
  free_instance(self);
}

PyType_Slot completed_slots[] = {
    {Py_am_await, reinterpret_cast<void*>(self_await)},
    {Py_am_send, reinterpret_cast<void*>(completed_send)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(iternext_by_send)},
    {Py_tp_methods, plain_methods},
    {Py_tp_dealloc, reinterpret_cast<void*>(completed_dealloc)},
    {Py_tp_doc, const_cast<char*>("an awaitable whose result is already there")},
    {0, nullptr}};
PyType_Spec completed_spec = {"baton._baton.Completed", sizeof(completed_object), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, completed_slots};

// `await send(...)` completes with None nearly always: one shared object
// serves them all (it holds no state but its value).
completed_object* completed_none = nullptr;

// --- the awaitable that raises --------------------------------------------------
//
// ASGI's receive and send are awaitable callables: what goes wrong (a send
// after the close, a message the protocol forbids, a client gone) is raised
// by the await, as it is by every server whose send is a coroutine, so that
// asyncio.ensure_future(send(m)), gather() and task groups see it where they
// look for it. The call returns this, holding the exception, instead.

struct failed_object {
  PyObject_HEAD
  PyObject* exception;
};

PySendResult failed_send(PyObject* self, PyObject*, PyObject** result) {
  raise_exception(reinterpret_cast<failed_object*>(self)->exception);
  *result = nullptr;
  return PYGEN_ERROR;
}

void failed_dealloc(PyObject* self) {
  Py_CLEAR(reinterpret_cast<failed_object*>(self)->exception);
  free_instance(self);
}

PyType_Slot failed_slots[] = {
    {Py_am_await, reinterpret_cast<void*>(self_await)},
    {Py_am_send, reinterpret_cast<void*>(failed_send)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(iternext_by_send)},
    {Py_tp_methods, plain_methods},
    {Py_tp_dealloc, reinterpret_cast<void*>(failed_dealloc)},
    {Py_tp_doc, const_cast<char*>("an awaitable that raises the error its call met")},
    {0, nullptr}};
PyType_Spec failed_spec = {"baton._baton.Failed", sizeof(failed_object), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, failed_slots};

// With an error set: an awaitable that raises it when awaited (the error is
// cleared). A MemoryError stays raised at the call.
PyObject* raise_when_awaited() {
  if (PyErr_ExceptionMatches(PyExc_MemoryError)) return nullptr;
  auto* o = PyObject_New(failed_object, types.failed);
  if (o == nullptr) return nullptr;
  o->exception = take_raised_exception();
  return reinterpret_cast<PyObject*>(o);
}

// --- the awaitable that waits ------------------------------------------------------
//
// A receive() with no event yet, or a send() past the window: the asyncio
// Future the loop side settles, awaited through its own iterator. The
// wrapper only gives it a coroutine's methods; the Future is what the task
// waits on (and cancels).

struct waiting_object {
  PyObject_HEAD
  PyObject* future;
  PyObject* iterator;  // future.__await__(), from the first step on
};

PySendResult waiting_send(PyObject* self, PyObject* arg, PyObject** result) {
  auto* o = reinterpret_cast<waiting_object*>(self);
  if (o->iterator == nullptr) {
    unaryfunc await = Py_TYPE(o->future)->tp_as_async->am_await;
    o->iterator = await(o->future);
    if (o->iterator == nullptr) {
      *result = nullptr;
      return PYGEN_ERROR;
    }
  }
  return PyIter_Send(o->iterator, arg, result);
}

// Into the Future's iterator, which raises it where the task waits.
PyObject* waiting_throw(PyObject* self, PyObject* args) {
  auto* o = reinterpret_cast<waiting_object*>(self);
  if (o->iterator == nullptr) {
    raise_thrown(args);
    return nullptr;
  }
  py_ref method = py_ref::steal(PyObject_GetAttrString(o->iterator, "throw"));
  return method ? PyObject_Call(method.get(), args, nullptr) : nullptr;
}

PyObject* waiting_close(PyObject* self, PyObject*) {
  auto* o = reinterpret_cast<waiting_object*>(self);
  if (o->iterator == nullptr) Py_RETURN_NONE;
  PyObject* closed = PyObject_CallMethod(o->iterator, "close", nullptr);
  if (closed == nullptr && PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  return closed;
}

int waiting_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* o = reinterpret_cast<waiting_object*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(o->future);
  Py_VISIT(o->iterator);
  return 0;
}

int waiting_clear(PyObject* self) {
  auto* o = reinterpret_cast<waiting_object*>(self);
  Py_CLEAR(o->future);
  Py_CLEAR(o->iterator);
  return 0;
}

void waiting_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  waiting_clear(self);
  free_instance(self);
}

PyMethodDef waiting_methods[] = {
    {"send", send_method, METH_O, "send(value): the Future's next step"},
    {"throw", waiting_throw, METH_VARARGS, "throw(exception): raises it where the task waits"},
    {"close", waiting_close, METH_NOARGS, "close(): closes the Future's iterator"},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot waiting_slots[] = {
    {Py_am_await, reinterpret_cast<void*>(self_await)},
    {Py_am_send, reinterpret_cast<void*>(waiting_send)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(iternext_by_send)},
    {Py_tp_methods, waiting_methods},
    {Py_tp_traverse, reinterpret_cast<void*>(waiting_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(waiting_clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(waiting_dealloc)},
    {Py_tp_doc, const_cast<char*>("an awaitable that waits for the server")},
    {0, nullptr}};
PyType_Spec waiting_spec = {"baton._baton.Waiting", sizeof(waiting_object), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                            waiting_slots};

}  // namespace

PyObject* coroutine_step_result(PySendResult status, PyObject* result) {
  if (status == PYGEN_NEXT) return result;
  if (status == PYGEN_RETURN) {
    set_stop_iteration_value(result);
    Py_DECREF(result);
  }
  return nullptr;
}

bool raise_thrown(PyObject* args) {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  if (!PyArg_UnpackTuple(args, "throw", 1, 3, &type, &value, &traceback)) return false;
  if (PyExceptionInstance_Check(type)) {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(type)), type);
  } else if (PyExceptionClass_Check(type)) {
    PyErr_SetObject(type, value);
  } else {
    PyErr_SetString(PyExc_TypeError, "throw() takes an exception");
    return false;
  }
  return true;
}

PyObject* make_completed(PyObject* value_new_ref) {
  if (value_new_ref == Py_None && completed_none != nullptr) {
    Py_DECREF(value_new_ref);
    Py_INCREF(completed_none);
    return reinterpret_cast<PyObject*>(completed_none);
  }
  auto* o = PyObject_New(completed_object, types.completed);
  if (o == nullptr) {
    Py_XDECREF(value_new_ref);
    return nullptr;
  }
  o->value = value_new_ref;
  return reinterpret_cast<PyObject*>(o);
}

PyObject* make_waiting(PyObject* future) {
  auto* o = PyObject_GC_New(waiting_object, types.waiting);
  if (o == nullptr) return nullptr;
  Py_INCREF(future);
  o->future = future;
  o->iterator = nullptr;
  PyObject_GC_Track(o);
  return reinterpret_cast<PyObject*>(o);
}

namespace {

// --- receive and send ---------------------------------------------------------

struct channel_object {
  PyObject_HEAD
  request_handle h;
};

void channel_dealloc(PyObject* self) {
  reinterpret_cast<channel_object*>(self)->h.release();
  free_instance(self);
}

PyObject* receive_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 0 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "receive() takes no arguments");
    return nullptr;
  }
  auto* o = reinterpret_cast<channel_object*>(self);
  PyObject* awaitable = o->h.runner->receive(o->h.request, o->h.generation);
  return awaitable != nullptr ? awaitable : raise_when_awaited();
}

PyObject* send_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 1 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "send() takes one message");
    return nullptr;
  }
  auto* o = reinterpret_cast<channel_object*>(self);
  PyObject* awaitable = o->h.runner->send(o->h.request, o->h.generation, PyTuple_GET_ITEM(args, 0));
  return awaitable != nullptr ? awaitable : raise_when_awaited();
}

PyType_Slot receive_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(receive_call)},
    {Py_tp_dealloc, reinterpret_cast<void*>(channel_dealloc)},
    {Py_tp_doc, const_cast<char*>("ASGI receive(): the request's next event")},
    {0, nullptr}};
PyType_Spec receive_spec = {"baton._baton.Receive", sizeof(channel_object), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, receive_slots};

PyType_Slot send_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(send_call)},
    {Py_tp_dealloc, reinterpret_cast<void*>(channel_dealloc)},
    {Py_tp_doc, const_cast<char*>("ASGI send(message)")},
    {0, nullptr}};
PyType_Spec send_spec = {"baton._baton.Send", sizeof(channel_object), 0,
                         Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, send_slots};

PyObject* make_channel(PyTypeObject* type, asgi_runner* runner, asgi_request* r) {
  auto* o = PyObject_New(channel_object, type);
  if (o == nullptr) return nullptr;
  o->h.bind(runner, r);
  return reinterpret_cast<PyObject*>(o);
}

}  // namespace

PyObject* make_receive(asgi_runner* runner, asgi_request* r) { return make_channel(types.receive, runner, r); }

PyObject* make_send(asgi_runner* runner, asgi_request* r) { return make_channel(types.send, runner, r); }

bool awaitable_types_add(PyObject* module, bridge_types& t) {
  t.completed = make_type(module, &completed_spec);
  t.failed = make_type(module, &failed_spec);
  t.waiting = make_type(module, &waiting_spec);
  t.receive = make_type(module, &receive_spec);
  t.send = make_type(module, &send_spec);
  if (t.completed == nullptr || t.failed == nullptr || t.waiting == nullptr || t.receive == nullptr ||
      t.send == nullptr) {
    return false;
  }
  // The one `await send(...)` result everyone shares: made once, for the
  // process's life (it holds None and nothing else).
  if (completed_none == nullptr) {
    completed_none = PyObject_New(completed_object, t.completed);
    if (completed_none == nullptr) return false;
    completed_none->value = Py_NewRef(Py_None);
  }
  return true;
}

}  // namespace baton::bridge
