#include "bridge/asgi/awaitables.h"

#include "bridge/py_compat.h"

namespace baton::bridge {

PyObject* client_disconnected_type = nullptr;

namespace {

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

PyObject* completed_iternext(PyObject* self) {
  auto* o = reinterpret_cast<completed_object*>(self);
  set_stop_iteration_value(o->value != nullptr ? o->value : Py_None);
  return nullptr;
}

PyObject* completed_await(PyObject* self) {
  Py_INCREF(self);
  return self;
}

void completed_dealloc(PyObject* self) {
  Py_CLEAR(reinterpret_cast<completed_object*>(self)->value);
  Py_TYPE(self)->tp_free(self);
}

PyAsyncMethods completed_async = {completed_await, nullptr, nullptr, completed_send};

PyTypeObject completed_type = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "baton._baton.Completed";
  t.tp_basicsize = sizeof(completed_object);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "an awaitable whose result is already there";
  t.tp_as_async = &completed_async;
  t.tp_iter = PyObject_SelfIter;
  t.tp_iternext = completed_iternext;
  t.tp_dealloc = completed_dealloc;
  return t;
}();

// `await send(...)` completes with None nearly always: one shared object
// serves them all (it holds no state but its value).
completed_object* completed_none = nullptr;

}  // namespace

PyObject* make_completed(PyObject* value_new_ref) {
  if (value_new_ref == Py_None && completed_none != nullptr) {
    Py_DECREF(value_new_ref);
    Py_INCREF(completed_none);
    return reinterpret_cast<PyObject*>(completed_none);
  }
  auto* o = PyObject_New(completed_object, &completed_type);
  if (o == nullptr) {
    Py_XDECREF(value_new_ref);
    return nullptr;
  }
  o->value = value_new_ref;
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
  Py_TYPE(self)->tp_free(self);
}

PyObject* receive_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 0 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "receive() takes no arguments");
    return nullptr;
  }
  auto* o = reinterpret_cast<channel_object*>(self);
  return o->h.runner->receive(o->h.request, o->h.generation);
}

PyObject* send_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 1 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "send() takes one message");
    return nullptr;
  }
  auto* o = reinterpret_cast<channel_object*>(self);
  return o->h.runner->send(o->h.request, o->h.generation, PyTuple_GET_ITEM(args, 0));
}

PyTypeObject channel_type(const char* name, const char* doc, ternaryfunc call) {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = name;
  t.tp_basicsize = sizeof(channel_object);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = doc;
  t.tp_call = call;
  t.tp_dealloc = channel_dealloc;
  return t;
}

PyTypeObject receive_type = channel_type("baton._baton.Receive", "ASGI receive(): the request's next event",
                                         receive_call);
PyTypeObject send_type = channel_type("baton._baton.Send", "ASGI send(message)", send_call);

PyObject* make_channel(PyTypeObject* type, asgi_runner* runner, asgi_request* r) {
  auto* o = PyObject_New(channel_object, type);
  if (o == nullptr) return nullptr;
  o->h.bind(runner, r);
  return reinterpret_cast<PyObject*>(o);
}

}  // namespace

PyObject* make_receive(asgi_runner* runner, asgi_request* r) { return make_channel(&receive_type, runner, r); }

PyObject* make_send(asgi_runner* runner, asgi_request* r) { return make_channel(&send_type, runner, r); }

bool awaitable_types_ready() {
  if (PyType_Ready(&completed_type) < 0 || PyType_Ready(&receive_type) < 0 || PyType_Ready(&send_type) < 0) {
    return false;
  }
  completed_none = PyObject_New(completed_object, &completed_type);
  if (completed_none == nullptr) return false;
  Py_INCREF(Py_None);
  completed_none->value = Py_None;
  return true;
}

}  // namespace baton::bridge
