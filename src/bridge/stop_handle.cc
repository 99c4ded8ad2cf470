// _baton.StopHandle (stop_handle.h): a mutex-guarded pointer to the server
// that runs, set while it runs, and the stop asked for.
#include "bridge/stop_handle.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "bridge/server_setup.h"

namespace baton::bridge {
namespace {

enum class phase { waiting, serving, ended };

struct handle_state {
  std::mutex mutex;
  std::condition_variable changed;
  server::server* srv = nullptr;  // the attached server, while it runs
  phase now = phase::waiting;
  int asked = 0;  // 0: no stop; 1: graceful; 2: at once
};

struct stop_handle_object {
  PyObject_HEAD
  handle_state* state;
};

int handle_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (!PyArg_ParseTuple(args, ":StopHandle") || (kwargs != nullptr && PyDict_Size(kwargs) != 0)) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "StopHandle() takes no arguments");
    return -1;
  }
  auto* o = reinterpret_cast<stop_handle_object*>(self);
  delete o->state;
  o->state = new handle_state();
  return 0;
}

void handle_dealloc(PyObject* self) {
  delete reinterpret_cast<stop_handle_object*>(self)->state;
  free_instance(self);
}

handle_state* state_of(PyObject* self) {
  handle_state* s = reinterpret_cast<stop_handle_object*>(self)->state;
  if (s == nullptr) PyErr_SetString(PyExc_RuntimeError, "StopHandle was not initialised");
  return s;
}

// stop(immediate=False): a graceful stop (the drain, within the graceful
// timeout), or one that closes every connection at once.
PyObject* handle_stop(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"immediate", nullptr};
  int immediate = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:stop", const_cast<char**>(keywords), &immediate)) {
    return nullptr;
  }
  handle_state* s = state_of(self);
  if (s == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(s->mutex);
  int want = immediate != 0 ? 2 : 1;
  if (want > s->asked) s->asked = want;
  if (s->srv != nullptr) s->srv->request_shutdown(immediate != 0);
  Py_RETURN_NONE;
}

// wait_serving(timeout): true once a server has attached; false if none
// did within `timeout` seconds, or one attached and has already ended.
PyObject* handle_wait_serving(PyObject* self, PyObject* arg) {
  double timeout = PyFloat_AsDouble(arg);
  if (timeout == -1.0 && PyErr_Occurred()) return nullptr;
  handle_state* s = state_of(self);
  if (s == nullptr) return nullptr;
  bool serving = false;
  Py_BEGIN_ALLOW_THREADS
  {
    // Let go of the mutex before taking the GIL back: stop() holds the GIL
    // while it takes the mutex.
    std::unique_lock<std::mutex> lock(s->mutex);
    s->changed.wait_for(lock, std::chrono::duration<double>(timeout > 0 ? timeout : 0),
                        [s] { return s->now != phase::waiting; });
    serving = s->now == phase::serving;
  }
  Py_END_ALLOW_THREADS
  return PyBool_FromLong(serving ? 1 : 0);
}

PyMethodDef handle_methods[] = {
    {"stop", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(handle_stop)), METH_VARARGS | METH_KEYWORDS,
     "stop(immediate=False): stop the attached server (or the one that attaches next) gracefully, or at once"},
    {"wait_serving", handle_wait_serving, METH_O,
     "wait_serving(timeout): true once a server is attached; false after the timeout, or once it has ended"},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot handle_slots[] = {
    {Py_tp_init, reinterpret_cast<void*>(handle_init)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(handle_dealloc)},
    {Py_tp_methods, handle_methods},
    {Py_tp_doc, const_cast<char*>("StopHandle(): stops one server from another thread (the stop_handle option)")},
    {0, nullptr}};

PyType_Spec handle_spec = {"baton._baton.StopHandle", sizeof(stop_handle_object), 0, Py_TPFLAGS_DEFAULT,
                           handle_slots};

}  // namespace

bool stop_handle_type_add(PyObject* module, bridge_types& t) {
  t.stop_handle = make_type(module, &handle_spec);
  return t.stop_handle != nullptr;
}

stop_handle_attachment::stop_handle_attachment(PyObject* kwargs, server::server& srv) {
  PyObject* given = keyword(kwargs, "stop_handle", Py_None);
  if (given == Py_None) return;
  if (!PyObject_TypeCheck(given, types.stop_handle)) {
    PyErr_SetString(PyExc_TypeError, "stop_handle must be a StopHandle");
    ok_ = false;
    return;
  }
  handle_state* s = state_of(given);
  if (s == nullptr) {
    ok_ = false;
    return;
  }
  handle_ = py_ref::borrow(given);
  std::lock_guard<std::mutex> lock(s->mutex);
  s->srv = &srv;
  s->now = phase::serving;
  if (s->asked != 0) srv.request_shutdown(s->asked == 2);
  s->changed.notify_all();
}

stop_handle_attachment::~stop_handle_attachment() {
  if (!handle_) return;
  handle_state* s = reinterpret_cast<stop_handle_object*>(handle_.get())->state;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->srv = nullptr;
    s->now = phase::ended;
  }
  s->changed.notify_all();
}

}  // namespace baton::bridge
