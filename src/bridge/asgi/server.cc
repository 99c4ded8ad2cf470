// _baton.AsgiServer: the native server with the ASGI runner as its
// dispatcher, driven from Python in either ASGI shape.
//
//   pump:     start() runs the loop on its own thread, detached from the GIL.
//             The asyncio side watches wake_fd and calls drain(); stopped
//             turns true once the loop has finished its drain, and join()
//             then reaps the thread.
//   inverted: start() prepares the loop; the asyncio side watches
//             backend_fd and calls run_pass() when it is readable, and
//             posted_pass() when the timeout a pass returned is due and
//             when schedule_pass (called by the server itself, once the
//             app's tasks have posted to it) asks for one.
// Signals are caught by asyncio and passed on (deliver_signal); the server's
// own policy acts on them, as in the WSGI shapes.
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "bridge/asgi/runner.h"
#include "bridge/module_state.h"
#include "bridge/py_ref.h"
#include "bridge/server_setup.h"
#include "bridge/stop_handle.h"
#include "core/server/server.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

struct asgi_server_object {
  PyObject_HEAD
  server::server* srv;
  asgi_runner* runner;
  std::thread* thread;
  std::atomic<bool>* stopped;
  PyObject* schedule_pass;  // inverted: callable that makes the asyncio side run a pass soon
  std::string* failure;
  server_extras* extras;  // what the server's config points to; freed after it
  stop_handle_attachment* attached;  // the stop_handle option's, from the making to close()
  bool pump;
};

// Inverted: the loop was posted to between passes; the asyncio side must run
// one. Called with the GIL held (it is the asyncio thread).
void request_pass(void* context) {
  auto* self = static_cast<asgi_server_object*>(context);
  if (self->schedule_pass == nullptr) return;
  py_ref r = py_ref::steal(PyObject_CallNoArgs(self->schedule_pass));
  if (!r) PyErr_Print();
}

int asgi_server_init(PyObject* py_self, PyObject* args, PyObject* kwargs) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  PyObject *app, *listeners, *loop, *log_exception, *state;
  if (!PyArg_ParseTuple(args, "OOOOO:AsgiServer", &app, &listeners, &loop, &log_exception, &state)) {
    return -1;
  }
  py_ref empty = py_ref::steal(PyDict_New());
  if (kwargs == nullptr) kwargs = empty.get();
  // Python owns the signals (asyncio's add_signal_handler) and passes them
  // on: deliver_signal().
  assembled_server built;
  if (!assemble_server(listeners, kwargs, false, built)) return -1;
  asgi_options options;
  options.app = app;
  options.loop = loop;
  options.log_exception = log_exception;
  options.state = state;
  options.owner = py_self;
  options.root_path = keyword_text(kwargs, "root_path");
  options.listeners = std::move(built.addresses);
  if (built.extras->tls) options.server_cert = built.extras->tls->certificate_pem();
  options.pump = keyword_flag(kwargs, "pump", true);
  options.eager_tasks = keyword_flag(kwargs, "eager_tasks", true);
  std::unique_ptr<asgi_runner> runner = asgi_runner::create(options);
  if (!runner) return -1;
  PyObject* schedule_pass = keyword(kwargs, "schedule_pass", Py_None);
  self->srv = built.srv.release();
  self->extras = built.extras.release();
  self->runner = runner.release();
  self->srv->set_dispatcher(self->runner);
  self->attached = new stop_handle_attachment(kwargs, *self->srv);
  if (!self->attached->ok()) return -1;  // close() (from dealloc) frees what was made
  self->stopped = new std::atomic<bool>(false);
  self->failure = new std::string();
  self->pump = options.pump;
  if (!self->pump) {
    Py_INCREF(schedule_pass);
    self->schedule_pass = schedule_pass;
    self->srv->event_loop().set_post_hook(request_pass, self);
  }
  return 0;
}

bool alive(asgi_server_object* self) {
  if (self->srv == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "the server was closed");
    return false;
  }
  return true;
}

PyObject* asgi_server_start(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  if (!self->pump) {
    self->srv->start();
    Py_RETURN_NONE;
  }
  server::server* srv = self->srv;
  std::atomic<bool>* stopped = self->stopped;
  std::string* failure = self->failure;
  asgi_runner* runner = self->runner;
  // The loop thread never touches Python: it is started here and owns no
  // thread state at all.
  self->thread = new std::thread([srv, stopped, failure, runner] {
    try {
      srv->run();
    } catch (const std::exception& e) {
      *failure = e.what();
    }
    stopped->store(true);
    runner->wake_after_stop();
  });
  Py_RETURN_NONE;
}

PyObject* asgi_server_drain(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  if (self->pump) self->runner->clear_wake_fd();
  if (!self->runner->drain(asgi_runner::requests_per_turn)) return nullptr;
  return PyBool_FromLong(self->runner->backlog() ? 1 : 0);
}

// Inverted: one pass, the work it made for the app side, and the timeout
// until the next (-1: none; 0: run again at once). `sockets`: run_pass (the
// backend fd was readable) rather than posted_pass (the app's tasks posted
// answers, or a timer is due).
PyObject* inverted_pass(PyObject* py_self, bool sockets) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  try {
    if (sockets) {
      self->srv->run_pass();
    } else {
      self->srv->run_posted_pass();
    }
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", e.what());
    return nullptr;
  }
  if (!self->runner->drain(asgi_runner::requests_per_turn)) return nullptr;
  if (self->runner->backlog()) return PyLong_FromLong(0);
  return PyLong_FromLong(self->srv->done() ? -1 : self->srv->event_loop().next_timeout_ms());
}

PyObject* asgi_server_run_pass(PyObject* py_self, PyObject*) { return inverted_pass(py_self, true); }

PyObject* asgi_server_posted_pass(PyObject* py_self, PyObject*) { return inverted_pass(py_self, false); }

// A signal asyncio caught: taken by the server's own policy, as the WSGI
// shapes take theirs (the loop wakes for it, and applies it on its next pass).
PyObject* asgi_server_deliver_signal(PyObject* py_self, PyObject* arg) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  long signo = PyLong_AsLong(arg);
  if (signo == -1 && PyErr_Occurred()) return nullptr;
  server::server::deliver_signal(static_cast<int>(signo));
  Py_RETURN_NONE;
}

PyObject* asgi_server_join(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  if (self->thread != nullptr) {
    Py_BEGIN_ALLOW_THREADS
    self->thread->join();
    Py_END_ALLOW_THREADS
    delete self->thread;
    self->thread = nullptr;
  }
  if (!self->pump) self->srv->finish();
  // Requests that crossed over but never started, and news for those that
  // ended: settled now, so every stream comes back before the server goes.
  if (!self->runner->drain(SIZE_MAX)) return nullptr;
  if (!self->failure->empty()) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", self->failure->c_str());
    return nullptr;
  }
  Py_RETURN_NONE;
}

// close(): the server and its sockets go. The runner stays until the
// object itself goes, since receive and send objects that outlive the
// server (held by tasks the stop cut off) still point into it.
void close_server(asgi_server_object* self) {
  if (self->thread != nullptr) {
    // Never joined (an error path): the loop must stop before it is freed.
    self->srv->request_shutdown(true);
    Py_BEGIN_ALLOW_THREADS
    self->thread->join();
    Py_END_ALLOW_THREADS
    delete self->thread;
    self->thread = nullptr;
  }
  delete self->attached;  // before the server goes
  self->attached = nullptr;
  if (self->runner != nullptr) self->runner->abandon();
  if (self->srv != nullptr) {
    self->srv->set_dispatcher(nullptr);
    self->srv->event_loop().set_post_hook(nullptr, nullptr);
    delete self->srv;
    self->srv = nullptr;
  }
  delete self->extras;
  self->extras = nullptr;
  delete self->stopped;
  self->stopped = nullptr;
  delete self->failure;
  self->failure = nullptr;
  Py_CLEAR(self->schedule_pass);
}

PyObject* asgi_server_close(PyObject* py_self, PyObject*) {
  close_server(reinterpret_cast<asgi_server_object*>(py_self));
  Py_RETURN_NONE;
}

void asgi_server_dealloc(PyObject* py_self) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  close_server(self);
  delete self->runner;
  self->runner = nullptr;
  free_instance(py_self);
}

PyObject* get_wake_fd(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  return PyLong_FromLong(self->runner->wake_fd());
}

PyObject* get_backend_fd(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  return PyLong_FromLong(self->srv->event_loop().backend_fd());
}

PyObject* get_stopped(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (self->srv == nullptr) Py_RETURN_TRUE;
  return PyBool_FromLong(self->pump ? self->stopped->load() : self->srv->done());
}

PyObject* asgi_server_reopen_logs(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  self->srv->reopen_logs();
  Py_RETURN_NONE;
}

PyObject* asgi_server_take_listeners(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  return descriptor_list(self->srv->take_listeners());
}

PyObject* get_stop_reason(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  // Written by the loop thread; read once it has stopped (join) or for a log.
  return PyUnicode_FromString(server::stop_reason_name(self->srv->why_stopped()));
}

PyObject* get_wakes(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  return PyLong_FromUnsignedLongLong(self->runner->wakes());
}

PyMethodDef asgi_server_methods[] = {
    {"start", asgi_server_start, METH_NOARGS, "start serving (pump: on a new thread)"},
    {"drain", asgi_server_drain, METH_NOARGS, "pump: start new requests and deliver news (on wake_fd); true: call again soon"},
    {"run_pass", asgi_server_run_pass, METH_NOARGS, "inverted: one non-blocking pass; returns the next timeout in ms"},
    {"posted_pass", asgi_server_posted_pass, METH_NOARGS,
     "inverted: run_pass less the sockets (what was posted, due timers); returns the next timeout in ms"},
    {"deliver_signal", asgi_server_deliver_signal, METH_O,
     "deliver_signal(signo): a signal caught by asyncio, taken by the server's policy"},
    {"reopen_logs", asgi_server_reopen_logs, METH_NOARGS, "reopen the access log file"},
    {"take_listeners", asgi_server_take_listeners, METH_NOARGS,
     "after join: the listening descriptors a retire with catch_hangup left open (for a reload)"},
    {"join", asgi_server_join, METH_NOARGS, "after stopped: reap the loop and settle what is left"},
    {"close", asgi_server_close, METH_NOARGS, "free the server"},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef asgi_server_getset[] = {
    {"wake_fd", get_wake_fd, nullptr, "pump: readable when drain() has work", nullptr},
    {"backend_fd", get_backend_fd, nullptr, "inverted: readable when run_pass() has work", nullptr},
    {"stopped", get_stopped, nullptr, "the loop has finished its drain", nullptr},
    {"wakes", get_wakes, nullptr, "eventfd writes that woke the asyncio side (pump)", nullptr},
    {"stop_reason", get_stop_reason, nullptr, "why the server stopped (after join)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot asgi_server_slots[] = {
    {Py_tp_init, reinterpret_cast<void*>(asgi_server_init)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(asgi_server_dealloc)},
    {Py_tp_methods, asgi_server_methods},
    {Py_tp_getset, asgi_server_getset},
    {Py_tp_doc, const_cast<char*>("the native server running an ASGI app on an asyncio loop")},
    {0, nullptr}};
PyType_Spec asgi_server_spec = {"baton._baton.AsgiServer", sizeof(asgi_server_object), 0, Py_TPFLAGS_DEFAULT,
                                asgi_server_slots};

}  // namespace

bool asgi_server_type_add(PyObject* module, bridge_types& t) {
  t.asgi_server = make_type(module, &asgi_server_spec);
  return t.asgi_server != nullptr;
}

}  // namespace baton::bridge
