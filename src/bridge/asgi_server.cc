// _baton.AsgiServer: the native server with the ASGI runner as its
// dispatcher, driven from Python in either ASGI shape.
//
//   pump:     start() runs the loop on its own thread, detached from the GIL.
//             The asyncio side watches wake_fd and calls drain(); stopped
//             turns true once the loop has finished its drain, and join()
//             then reaps the thread.
//   inverted: start() prepares the loop; the asyncio side watches
//             backend_fd and calls run_pass() when it is readable, when the
//             timeout run_pass() returned is due, and when schedule_pass
//             (called by the server itself) asks for a pass.
// Signals are Python's in both: it calls request_shutdown().
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "bridge/asgi.h"
#include "bridge/py_ref.h"
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
  bool pump;
};

int to_ms(double seconds) { return seconds <= 0 ? 0 : static_cast<int>(std::lround(seconds * 1000.0)); }

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
  static const char* keywords[] = {"app", "listeners", "loop", "run_request", "log_exception", "state", "pump",
                                   "schedule_pass", "keep_alive_timeout", "header_read_timeout",
                                   "body_read_timeout", "graceful_timeout", "max_header_size", "max_headers",
                                   "max_body_size", "root_path", "server_host", "server_port", "log_level", nullptr};
  PyObject *app, *listeners, *loop, *run_request, *log_exception, *state;
  int pump = 1;
  PyObject* schedule_pass = Py_None;
  double keep_alive = 5.0, header_read = 10.0, body_read = 60.0, graceful = 5.0;
  Py_ssize_t max_header_size = 32768, max_headers = 100;
  long long max_body = 0;
  const char* root_path = "";
  const char* server_host = "";
  int server_port = 0;
  int log_level = 20;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOO|$pOddddnnLssii:AsgiServer", const_cast<char**>(keywords),
                                   &app, &listeners, &loop, &run_request, &log_exception, &state, &pump,
                                   &schedule_pass, &keep_alive, &header_read, &body_read, &graceful,
                                   &max_header_size, &max_headers, &max_body, &root_path, &server_host, &server_port,
                                   &log_level)) {
    return -1;
  }
  std::vector<int> fds;
  py_ref seq = py_ref::steal(PySequence_Fast(listeners, "listeners must be a sequence of file descriptors"));
  if (!seq) return -1;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    long fd = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq.get(), i));
    if (fd == -1 && PyErr_Occurred()) return -1;
    fds.push_back(static_cast<int>(fd));
  }
  log::set_level(static_cast<log::level>(log_level));
  server::server_config config;
  http1::connection_settings& cs = config.connection;
  cs.keep_alive_timeout_ms = to_ms(keep_alive);
  cs.header_read_timeout_ms = to_ms(header_read);
  cs.body_read_timeout_ms = to_ms(body_read);
  cs.request_limits.max_header_bytes = static_cast<size_t>(max_header_size);
  cs.request_limits.max_request_line = std::min<size_t>(8192, static_cast<size_t>(max_header_size));
  cs.request_limits.max_headers = static_cast<size_t>(max_headers);
  cs.request_limits.max_body = max_body > 0 ? static_cast<uint64_t>(max_body) : 0;
  config.graceful_timeout_ms = to_ms(graceful);
  config.handle_signals = false;  // Python's (asyncio's add_signal_handler)

  asgi_options options;
  options.app = app;
  options.loop = loop;
  options.run_request = run_request;
  options.log_exception = log_exception;
  options.state = state;
  options.root_path = root_path;
  options.server_host = server_host;
  options.server_port = server_port;
  options.pump = pump != 0;
  std::unique_ptr<asgi_runner> runner = asgi_runner::create(options);
  if (!runner) {
    for (int fd : fds) ::close(fd);
    return -1;
  }
  try {
    self->srv = new server::server(config, fds);
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", e.what());
    return -1;
  }
  self->runner = runner.release();
  self->srv->set_dispatcher(self->runner);
  self->stopped = new std::atomic<bool>(false);
  self->failure = new std::string();
  self->pump = pump != 0;
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
  if (!self->runner->drain()) return nullptr;
  Py_RETURN_NONE;
}

// Inverted: one pass, the work it made for the app side, and the timeout
// until the next (-1: none; 0: run again at once).
PyObject* asgi_server_run_pass(PyObject* py_self, PyObject*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  try {
    self->srv->run_pass();
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", e.what());
    return nullptr;
  }
  if (!self->runner->drain()) return nullptr;
  return PyLong_FromLong(self->srv->done() ? -1 : self->srv->event_loop().next_timeout_ms());
}

PyObject* asgi_server_request_shutdown(PyObject* py_self, PyObject* args) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  int immediate = 0;
  if (!PyArg_ParseTuple(args, "|p", &immediate)) return nullptr;
  if (!alive(self)) return nullptr;
  if (self->pump) {
    self->srv->request_shutdown(immediate != 0);
  } else {
    // Same thread: begin at once; the passes that follow step the drain.
    self->srv->request_shutdown(immediate != 0);
    self->srv->run_pass();
    if (!self->runner->drain()) return nullptr;
  }
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
  if (!self->runner->drain()) return nullptr;
  if (!self->failure->empty()) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", self->failure->c_str());
    return nullptr;
  }
  Py_RETURN_NONE;
}

void destroy(asgi_server_object* self) {
  if (self->thread != nullptr) {
    // Never joined (an error path): the loop must stop before it is freed.
    self->srv->request_shutdown(true);
    Py_BEGIN_ALLOW_THREADS
    self->thread->join();
    Py_END_ALLOW_THREADS
    delete self->thread;
    self->thread = nullptr;
  }
  if (self->srv != nullptr) {
    self->srv->set_dispatcher(nullptr);
    self->srv->event_loop().set_post_hook(nullptr, nullptr);
    delete self->srv;
    self->srv = nullptr;
  }
  delete self->runner;
  self->runner = nullptr;
  delete self->stopped;
  self->stopped = nullptr;
  delete self->failure;
  self->failure = nullptr;
  Py_CLEAR(self->schedule_pass);
}

PyObject* asgi_server_close(PyObject* py_self, PyObject*) {
  destroy(reinterpret_cast<asgi_server_object*>(py_self));
  Py_RETURN_NONE;
}

void asgi_server_dealloc(PyObject* py_self) {
  destroy(reinterpret_cast<asgi_server_object*>(py_self));
  Py_TYPE(py_self)->tp_free(py_self);
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

PyObject* get_wakes(PyObject* py_self, void*) {
  auto* self = reinterpret_cast<asgi_server_object*>(py_self);
  if (!alive(self)) return nullptr;
  return PyLong_FromUnsignedLongLong(self->runner->wakes());
}

PyMethodDef asgi_server_methods[] = {
    {"start", asgi_server_start, METH_NOARGS, "start serving (pump: on a new thread)"},
    {"drain", asgi_server_drain, METH_NOARGS, "pump: start new requests and deliver news (on wake_fd)"},
    {"run_pass", asgi_server_run_pass, METH_NOARGS, "inverted: one non-blocking pass; returns the next timeout in ms"},
    {"request_shutdown", asgi_server_request_shutdown, METH_VARARGS, "begin the graceful stop (or stop at once)"},
    {"join", asgi_server_join, METH_NOARGS, "after stopped: reap the loop and settle what is left"},
    {"close", asgi_server_close, METH_NOARGS, "free the server"},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef asgi_server_getset[] = {
    {"wake_fd", get_wake_fd, nullptr, "pump: readable when drain() has work", nullptr},
    {"backend_fd", get_backend_fd, nullptr, "inverted: readable when run_pass() has work", nullptr},
    {"stopped", get_stopped, nullptr, "the loop has finished its drain", nullptr},
    {"wakes", get_wakes, nullptr, "eventfd writes that woke the asyncio side (pump)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyTypeObject asgi_server_type = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "baton._baton.AsgiServer";
  t.tp_basicsize = sizeof(asgi_server_object);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "the native server running an ASGI app on an asyncio loop";
  t.tp_init = asgi_server_init;
  t.tp_new = PyType_GenericNew;
  t.tp_dealloc = asgi_server_dealloc;
  t.tp_methods = asgi_server_methods;
  t.tp_getset = asgi_server_getset;
  return t;
}();

}  // namespace

bool asgi_server_type_add(PyObject* module) {
  if (PyType_Ready(&asgi_server_type) < 0) return false;
  Py_INCREF(&asgi_server_type);
  if (PyModule_AddObject(module, "AsgiServer", reinterpret_cast<PyObject*>(&asgi_server_type)) < 0) {
    Py_DECREF(&asgi_server_type);
    return false;
  }
  return true;
}

}  // namespace baton::bridge
