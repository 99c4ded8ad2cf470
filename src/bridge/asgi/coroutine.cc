#include "bridge/asgi/coroutine.h"

#include <cstring>

#include "bridge/asgi/awaitables.h"
#include "bridge/module_state.h"
#include "bridge/py_compat.h"

namespace baton::bridge {
namespace {

// --- the request's coroutine ---------------------------------------------------
//
// What a request's task runs. Its first step calls the app (inside the task,
// as `await app(scope, receive, send)` would); every step drives the app's
// awaitable; when that ends, the runner settles what the app left owed
// (finish). Written here rather than as an `async def` around the app, it
// spares each request a coroutine and its frame. A task drives it as it
// drives any coroutine: send() (am_send), throw() to cancel it, and close()
// when it is destroyed unfinished. What the task sees is what such a
// wrapper would show it: a return (None) when the app returns or raises an
// Exception (logged), the exception itself for a cancellation and for the
// exceptions that are not Exceptions.

struct request_coroutine {
  PyObject_HEAD
  request_handle h;
  PyObject* call[4];  // app, scope, receive, send: until the first step calls the app
  PyObject* inner;    // then the app's awaitable, as an iterator; null once it has ended
};

// What `await` takes from an object: a coroutine, a generator-based
// coroutine, or what __await__ returns (an iterator).
PyObject* awaitable_iterator(PyObject* o) {
  if (PyCoro_CheckExact(o)) {
    Py_INCREF(o);
    return o;
  }
  if (PyGen_CheckExact(o)) {
    py_ref code = py_ref::steal(PyObject_GetAttrString(o, "gi_code"));
    if (code && PyCode_Check(code.get()) &&
        (reinterpret_cast<PyCodeObject*>(code.get())->co_flags & CO_ITERABLE_COROUTINE) != 0) {
      Py_INCREF(o);
      return o;
    }
    PyErr_Clear();
  }
  unaryfunc await = Py_TYPE(o)->tp_as_async != nullptr ? Py_TYPE(o)->tp_as_async->am_await : nullptr;
  if (await == nullptr) {
    PyErr_Format(PyExc_TypeError, "the ASGI application returned %.100s, which cannot be awaited",
                 Py_TYPE(o)->tp_name);
    return nullptr;
  }
  PyObject* it = await(o);
  if (it != nullptr && (PyCoro_CheckExact(it) || !PyIter_Check(it))) {
    PyErr_Format(PyExc_TypeError, "__await__() returned %.100s, not an iterator", Py_TYPE(it)->tp_name);
    Py_CLEAR(it);
  }
  return it;
}

void release_call(request_coroutine* self) {
  if (self->call[0] != nullptr) self->h.runner->first_step_taken();
  for (PyObject*& o : self->call) Py_CLEAR(o);
}

// The app's awaitable has ended (or the app could not be called): it
// returned (RETURN, *result its value) or raised (ERROR, the exception set).
PySendResult request_ended(request_coroutine* self, PySendResult status, PyObject** result) {
  Py_CLEAR(self->inner);
  release_call(self);
  if (status == PYGEN_RETURN) {
    Py_CLEAR(*result);
    self->h.runner->finish(self->h.request, self->h.generation, nullptr);
    Py_INCREF(Py_None);
    *result = Py_None;
    return PYGEN_RETURN;
  }
  *result = nullptr;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (value != nullptr && traceback != nullptr) PyException_SetTraceback(value, traceback);
  bool cancelled = PyErr_GivenExceptionMatches(type, types.cancelled_error) != 0;
  self->h.runner->finish(self->h.request, self->h.generation, cancelled ? nullptr : value);
  if (!cancelled && PyErr_GivenExceptionMatches(type, PyExc_Exception) != 0) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    Py_INCREF(Py_None);
    *result = Py_None;
    return PYGEN_RETURN;
  }
  PyErr_Restore(type, value, traceback);
  return PYGEN_ERROR;
}

PySendResult request_coroutine_send(PyObject* o, PyObject* arg, PyObject** result) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  if (self->inner == nullptr) {
    if (self->call[0] == nullptr) {
      PyErr_SetString(PyExc_RuntimeError, "cannot reuse already awaited coroutine");
      *result = nullptr;
      return PYGEN_ERROR;
    }
    py_ref awaitable = py_ref::steal(PyObject_Vectorcall(self->call[0], self->call + 1, 3, nullptr));
    release_call(self);
    self->inner = awaitable ? awaitable_iterator(awaitable.get()) : nullptr;
    if (self->inner == nullptr) return request_ended(self, PYGEN_ERROR, result);
  }
  PySendResult status = PyIter_Send(self->inner, arg, result);
  if (status == PYGEN_NEXT) return status;
  return request_ended(self, status, result);
}

PyObject* request_coroutine_send_method(PyObject* o, PyObject* value) {
  PyObject* result = nullptr;
  PySendResult status = request_coroutine_send(o, value, &result);
  return coroutine_step_result(status, result);
}

PyObject* request_coroutine_iternext(PyObject* o) {
  PyObject* result = nullptr;
  PySendResult status = request_coroutine_send(o, Py_None, &result);
  if (status == PYGEN_RETURN && result == Py_None) {
    Py_DECREF(result);
    return nullptr;  // a plain end: StopIteration without a value
  }
  return coroutine_step_result(status, result);
}

// throw(exception) or throw(type[, value[, traceback]]): into the app's
// awaitable; before the app was called, or after it ended, the exception
// ends the request where it stands.
PyObject* request_coroutine_throw(PyObject* o, PyObject* args) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  PyObject* result = nullptr;
  PySendResult status = PYGEN_ERROR;
  py_ref method;
  if (self->inner != nullptr) {
    method = py_ref::steal(PyObject_GetAttrString(self->inner, "throw"));
    if (!method) PyErr_Clear();
  }
  if (method) {
    result = PyObject_Call(method.get(), args, nullptr);
    if (result != nullptr) return result;  // the app went on and yielded
    result = take_stop_iteration_value();
    if (result != nullptr) status = PYGEN_RETURN;
  } else {
    if (!raise_thrown(args)) return nullptr;  // not an exception: a TypeError, the request goes on
    if (self->inner == nullptr && self->call[0] == nullptr) return nullptr;  // already ended
  }
  // Two statements: as one call's arguments, `result` could be read before
  // request_ended() sets it.
  PySendResult ended = request_ended(self, status, &result);
  return coroutine_step_result(ended, result);
}

// The app's awaitable gets GeneratorExit (its finally blocks run), and the
// request ends with it, as it would in an `async def` wrapper.
PyObject* request_coroutine_close(PyObject* o, PyObject*) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  if (self->inner == nullptr && self->call[0] == nullptr) Py_RETURN_NONE;
  if (self->inner != nullptr) {
    py_ref closed = py_ref::steal(PyObject_CallMethod(self->inner, "close", nullptr));
    if (!closed && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  }
  if (!PyErr_Occurred()) PyErr_SetNone(PyExc_GeneratorExit);
  PyObject* result = nullptr;
  if (request_ended(self, PYGEN_ERROR, &result) == PYGEN_RETURN) {
    Py_DECREF(result);  // the app's close() raised an Exception: logged, done
    Py_RETURN_NONE;
  }
  if (!PyErr_ExceptionMatches(PyExc_GeneratorExit)) return nullptr;
  PyErr_Clear();
  Py_RETURN_NONE;
}

// Destroyed unfinished (its task was dropped): closed first.
void request_coroutine_finalize(PyObject* o) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  if (self->inner == nullptr && self->call[0] == nullptr) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  py_ref closed = py_ref::steal(request_coroutine_close(o, nullptr));
  if (!closed) PyErr_WriteUnraisable(o);
  PyErr_Restore(type, value, traceback);
}

int request_coroutine_traverse(PyObject* o, visitproc visit, void* arg) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  Py_VISIT(Py_TYPE(o));
  Py_VISIT(self->inner);
  for (PyObject* c : self->call) Py_VISIT(c);
  return 0;
}

int request_coroutine_clear(PyObject* o) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  Py_CLEAR(self->inner);
  release_call(self);
  return 0;
}

void request_coroutine_dealloc(PyObject* o) {
  if (PyObject_CallFinalizerFromDealloc(o) < 0) return;  // brought back to life
  PyObject_GC_UnTrack(o);
  auto* self = reinterpret_cast<request_coroutine*>(o);
  request_coroutine_clear(o);
  self->h.release();
  free_instance(o);
}

PyObject* request_coroutine_await(PyObject* o) {
  Py_INCREF(o);
  return o;
}

// For asyncio's reprs and Task.get_stack(): the app's coroutine's, while it runs.
PyObject* inner_attribute(PyObject* o, void* name) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  if (self->inner != nullptr) {
    PyObject* value = PyObject_GetAttrString(self->inner, static_cast<const char*>(name));
    if (value != nullptr) return value;
    PyErr_Clear();
  }
  if (std::strcmp(static_cast<const char*>(name), "cr_running") == 0) Py_RETURN_FALSE;
  Py_RETURN_NONE;
}

PyObject* request_coroutine_qualname(PyObject* o, void*) {
  auto* self = reinterpret_cast<request_coroutine*>(o);
  PyObject* target = self->inner != nullptr ? self->inner : self->call[0];
  if (target != nullptr) {
    PyObject* name = PyObject_GetAttrString(target, "__qualname__");
    if (name != nullptr) return name;
    PyErr_Clear();
  }
  return PyUnicode_FromString("baton.request");
}

PyMethodDef request_coroutine_methods[] = {
    {"send", request_coroutine_send_method, METH_O, "send(value): the next step"},
    {"throw", request_coroutine_throw, METH_VARARGS, "throw(exception): raises it where the app waits"},
    {"close", request_coroutine_close, METH_NOARGS, "close(): the app's awaitable is closed, the request ends"},
    {nullptr, nullptr, 0, nullptr}};

char cr_frame_name[] = "cr_frame", cr_code_name[] = "cr_code", cr_await_name[] = "cr_await",
     cr_running_name[] = "cr_running";

PyGetSetDef request_coroutine_getset[] = {
    {"cr_frame", inner_attribute, nullptr, "the app's coroutine's frame", cr_frame_name},
    {"cr_code", inner_attribute, nullptr, "the app's coroutine's code", cr_code_name},
    {"cr_await", inner_attribute, nullptr, "what the app's coroutine awaits", cr_await_name},
    {"cr_running", inner_attribute, nullptr, "whether the app's coroutine runs now", cr_running_name},
    {"__qualname__", request_coroutine_qualname, nullptr, "the app's coroutine's name", nullptr},
    {"__name__", request_coroutine_qualname, nullptr, "the app's coroutine's name", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot request_coroutine_slots[] = {
    {Py_am_await, reinterpret_cast<void*>(request_coroutine_await)},
    {Py_am_send, reinterpret_cast<void*>(request_coroutine_send)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(request_coroutine_iternext)},
    {Py_tp_methods, request_coroutine_methods},
    {Py_tp_getset, request_coroutine_getset},
    {Py_tp_traverse, reinterpret_cast<void*>(request_coroutine_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(request_coroutine_clear)},
    {Py_tp_finalize, reinterpret_cast<void*>(request_coroutine_finalize)},
    {Py_tp_dealloc, reinterpret_cast<void*>(request_coroutine_dealloc)},
    {Py_tp_doc, const_cast<char*>("a request's coroutine: the ASGI app's call, driven to its end")},
    {0, nullptr}};
PyType_Spec request_coroutine_spec = {"baton._baton.RequestCoroutine", sizeof(request_coroutine), 0,
                                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                      request_coroutine_slots};

}  // namespace

PyObject* make_request_coroutine(asgi_runner* runner, asgi_request* r, PyObject* app, PyObject* scope,
                                 PyObject* receive, PyObject* send) {
  auto* o = PyObject_GC_New(request_coroutine, types.request_coroutine);
  if (o == nullptr) return nullptr;
  o->h.bind(runner, r);
  PyObject* call[4] = {app, scope, receive, send};
  for (int i = 0; i < 4; ++i) {
    Py_INCREF(call[i]);
    o->call[i] = call[i];
  }
  o->inner = nullptr;
  runner->coroutine_made();
  PyObject_GC_Track(o);
  return reinterpret_cast<PyObject*>(o);
}

bool coroutine_types_add(PyObject* module, bridge_types& t) {
  t.request_coroutine = make_type(module, &request_coroutine_spec);
  if (t.request_coroutine == nullptr) return false;
  t.client_disconnected = PyErr_NewExceptionWithDoc(
      "baton._baton.ClientDisconnected", "send() to a client that has gone away (an OSError)", PyExc_OSError,
      nullptr);
  if (t.client_disconnected == nullptr) return false;
  // asyncio takes as a coroutine what collections.abc.Coroutine does.
  py_ref abc = py_ref::steal(PyImport_ImportModule("collections.abc"));
  py_ref coroutine_abc = abc ? py_ref::steal(PyObject_GetAttrString(abc.get(), "Coroutine")) : py_ref();
  py_ref registered = coroutine_abc ? py_ref::steal(PyObject_CallMethod(coroutine_abc.get(), "register", "O",
                                                                        t.request_coroutine))
                                    : py_ref();
  py_ref asyncio = py_ref::steal(PyImport_ImportModule("asyncio"));
  t.cancelled_error = asyncio ? PyObject_GetAttrString(asyncio.get(), "CancelledError") : nullptr;
  return registered && t.cancelled_error != nullptr;
}

}  // namespace baton::bridge
