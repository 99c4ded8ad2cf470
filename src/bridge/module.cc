// The _baton extension module: serve() runs one worker's server in the
// calling thread until a graceful stop, in the shape asked for: the native
// hello (no Python), inline (the loop thread runs the app), or the pool
// (the loop thread detached from the GIL, N Python threads run the app).
#include <unistd.h>

#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "bridge/pool.h"
#include "bridge/py_ref.h"
#include "bridge/asgi.h"
#include "bridge/loop_wait.h"
#include "bridge/wsgi.h"
#include "bridge/wsgi_handler.h"
#include "core/server/native_hello.h"
#include "core/server/server.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

// Around the loop's blocking wait in the shapes where the loop thread holds
// the GIL (inline, and the attached-loop A/B arm of the pool): released
// while the loop sleeps. A nested pass run by a waiting inline app has
// released it already, so the hooks look before they let go.
struct gil_release {
  PyThreadState* state = nullptr;
  static void before(void* self) {
    auto* g = static_cast<gil_release*>(self);
    g->state = PyGILState_Check() ? PyEval_SaveThread() : nullptr;
  }
  static void after(void* self) {
    auto* g = static_cast<gil_release*>(self);
    if (g->state != nullptr) PyEval_RestoreThread(g->state);
    g->state = nullptr;
  }
};

int to_ms(double seconds) { return seconds <= 0 ? 0 : static_cast<int>(std::lround(seconds * 1000.0)); }

// Runs the server with the GIL released; C++ exceptions must not cross
// Py_END_ALLOW_THREADS, so they come back as text.
std::string run_detached(server::server& s) {
  std::string failure;
  Py_BEGIN_ALLOW_THREADS
  try {
    s.run();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  Py_END_ALLOW_THREADS
  return failure;
}

std::string run_attached(server::server& s, gil_release& release) {
  s.event_loop().set_wait_hooks({&gil_release::before, &gil_release::after, &release});
  try {
    s.run();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

PyObject* serve(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"app", "listeners", "native_hello", "keep_alive_timeout",
                                   "header_read_timeout", "body_read_timeout", "write_timeout",
                                   "graceful_timeout", "max_header_size", "max_headers", "max_body_size",
                                   "root_path", "server_name", "server_port", "url_scheme", "log_level",
                                   "log_exception", "multiprocess", "blocking_threads", "loop_attached",
                                   "pool_turn", "pool_fallback_inline", nullptr};
  PyObject* app = Py_None;
  PyObject* listeners = nullptr;
  int native = 0;
  double keep_alive = 5.0, header_read = 10.0, body_read = 60.0, write_timeout = 30.0, graceful = 5.0;
  Py_ssize_t max_header_size = 32768, max_headers = 100;
  long long max_body = 0;
  const char* root_path = "";
  const char* server_name = "127.0.0.1";
  const char* server_port = "8000";
  const char* url_scheme = "http";
  int log_level = 20;
  PyObject* log_exception = Py_None;
  int multiprocess = 0;
  int blocking_threads = 0;
  int loop_attached = 0;
  int pool_turn = 1;
  int pool_fallback_inline = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$pdddddnnLssssiOpippp:serve", const_cast<char**>(keywords),
                                   &app, &listeners, &native, &keep_alive, &header_read, &body_read, &write_timeout,
                                   &graceful, &max_header_size, &max_headers, &max_body, &root_path, &server_name,
                                   &server_port, &url_scheme, &log_level, &log_exception, &multiprocess,
                                   &blocking_threads, &loop_attached, &pool_turn, &pool_fallback_inline)) {
    return nullptr;
  }
  std::vector<int> fds;
  py_ref seq = py_ref::steal(PySequence_Fast(listeners, "listeners must be a sequence of file descriptors"));
  if (!seq) return nullptr;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    long fd = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq.get(), i));
    if (fd == -1 && PyErr_Occurred()) return nullptr;
    fds.push_back(static_cast<int>(fd));
  }
  // From here serve() owns the listeners: the server closes them, and so
  // does every early return.
  struct listener_guard {
    std::vector<int>* fds;
    ~listener_guard() {
      if (fds != nullptr) {
        for (int fd : *fds) ::close(fd);
      }
    }
  } guard{&fds};
  if (fds.empty()) {
    PyErr_SetString(PyExc_ValueError, "no listening sockets");
    return nullptr;
  }
  if (max_headers < 1 || max_header_size < 256) {
    PyErr_SetString(PyExc_ValueError, "max_headers must be >= 1 and max_header_size >= 256");
    return nullptr;
  }
  if (blocking_threads < 0 || blocking_threads > 1024) {
    PyErr_SetString(PyExc_ValueError, "blocking_threads must be between 0 and 1024");
    return nullptr;
  }
  log::set_level(static_cast<log::level>(log_level));

  server::server_config config;
  http1::connection_settings& cs = config.connection;
  cs.keep_alive_timeout_ms = to_ms(keep_alive);
  cs.header_read_timeout_ms = to_ms(header_read);
  cs.body_read_timeout_ms = to_ms(body_read);
  cs.write_timeout_ms = to_ms(write_timeout);
  cs.request_limits.max_header_bytes = static_cast<size_t>(max_header_size);
  cs.request_limits.max_request_line = std::min<size_t>(8192, static_cast<size_t>(max_header_size));
  cs.request_limits.max_headers = static_cast<size_t>(max_headers);
  cs.request_limits.max_body = max_body > 0 ? static_cast<uint64_t>(max_body) : 0;
  config.graceful_timeout_ms = to_ms(graceful);

  std::string failure;
  try {
    guard.fds = nullptr;  // the server owns them from its construction on
    server::server s(config, fds);
    if (native) {
      // Nothing on this path touches Python: the whole loop runs detached.
      server::native_hello hello;
      server::inline_dispatcher runner(hello);
      s.set_dispatcher(&runner);
      failure = run_detached(s);
      s.set_dispatcher(nullptr);
    } else {
      wsgi_options options;
      options.app = app;
      options.log_exception = log_exception == Py_None ? nullptr : log_exception;
      options.root_path = root_path;
      options.server_name = server_name;
      options.server_port = server_port;
      options.url_scheme = url_scheme;
      options.multiprocess = multiprocess != 0;
      options.multithread = blocking_threads > 0;
      std::unique_ptr<wsgi_handler> wsgi = wsgi_handler::create(options);
      if (!wsgi) return nullptr;
      nested_pass_waiter loop_waiter(s);
      wsgi->set_inline_waiter(&loop_waiter);
      gil_release release;
      if (blocking_threads == 0) {
        // Inline: the loop thread runs the app and holds the GIL except
        // while it waits for events.
        server::inline_dispatcher runner(*wsgi);
        s.set_dispatcher(&runner);
        failure = run_attached(s, release);
        s.set_dispatcher(nullptr);
      } else {
        // The pool: the loop thread lets go of the GIL once, here, and takes
        // it back once, after; everything it does per request is C++.
        python_pool_hooks hooks(blocking_threads, pool_turn != 0);
        attaching_inline_dispatcher fallback(*wsgi);
        server::thread_pool pool(*wsgi, hooks, blocking_threads, pool_fallback_inline ? &fallback : nullptr);
        s.set_dispatcher(&pool);
        pool.start();
        failure = loop_attached ? run_attached(s, release) : run_detached(s);
        Py_BEGIN_ALLOW_THREADS
        pool.stop_and_join();
        Py_END_ALLOW_THREADS
        s.set_dispatcher(nullptr);
      }
      wsgi->clear_loop_thread_state();
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", failure.c_str());
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef module_methods[] = {
    {"serve", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(serve)), METH_VARARGS | METH_KEYWORDS,
     "serve(app, listeners, **options): run one worker until a graceful stop. Takes ownership of the "
     "listening descriptors: they are closed when it returns, whether or not it succeeded."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_baton", "Baton's native server", -1, module_methods,
                          nullptr, nullptr, nullptr, nullptr};

}  // namespace
}  // namespace baton::bridge

PyMODINIT_FUNC PyInit__baton() {
  if (!baton::bridge::wsgi_types_ready() || !baton::bridge::asgi_types_ready()) return nullptr;
  PyObject* m = PyModule_Create(&baton::bridge::module_def);
  if (m == nullptr) return nullptr;
  if (baton::bridge::asgi_module_functions_add(m) == nullptr || !baton::bridge::asgi_server_type_add(m)) {
    Py_DECREF(m);
    return nullptr;
  }
  Py_INCREF(&baton::bridge::file_wrapper_type);
  if (PyModule_AddObject(m, "FileWrapper", reinterpret_cast<PyObject*>(&baton::bridge::file_wrapper_type)) < 0) {
    Py_DECREF(&baton::bridge::file_wrapper_type);
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
