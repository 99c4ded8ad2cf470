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
#include "bridge/server_options.h"
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

// A keyword argument of serve(): its value, or `fallback` when absent.
PyObject* option(PyObject* kwargs, const char* key, PyObject* fallback) {
  PyObject* v = kwargs != nullptr ? PyDict_GetItemString(kwargs, key) : nullptr;
  return v != nullptr ? v : fallback;
}

bool flag(PyObject* kwargs, const char* key, bool fallback) {
  PyObject* v = option(kwargs, key, nullptr);
  return v == nullptr ? fallback : PyObject_IsTrue(v) == 1;
}

std::string text(PyObject* kwargs, const char* key, const char* fallback) {
  PyObject* v = option(kwargs, key, nullptr);
  const char* t = v != nullptr && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : nullptr;
  return t != nullptr ? t : fallback;
}

PyObject* serve(PyObject*, PyObject* args, PyObject* kwargs) {
  PyObject* app = nullptr;
  PyObject* listeners = nullptr;
  if (!PyArg_ParseTuple(args, "OO:serve", &app, &listeners)) return nullptr;
  py_ref empty = py_ref::steal(PyDict_New());
  if (kwargs == nullptr) kwargs = empty.get();
  std::vector<int> fds;
  std::vector<listener_address> addresses;
  bool listed = read_listeners(listeners, fds, addresses);
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
  if (!listed) return nullptr;
  server::server_config config;
  server_extras extras;  // outlives the server, which points into it
  if (!read_server_options(kwargs, config, extras)) return nullptr;
  bool native = flag(kwargs, "native_hello", false);
  PyObject* threads_option = option(kwargs, "blocking_threads", nullptr);
  long blocking_threads = threads_option != nullptr ? PyLong_AsLong(threads_option) : 0;
  if (blocking_threads == -1 && PyErr_Occurred()) return nullptr;
  if (blocking_threads < 0 || blocking_threads > 1024) {
    PyErr_SetString(PyExc_ValueError, "blocking_threads must be between 0 and 1024");
    return nullptr;
  }
  bool loop_attached = flag(kwargs, "loop_attached", false);
  bool pool_turn = flag(kwargs, "pool_turn", true);
  bool pool_fallback_inline = flag(kwargs, "pool_fallback_inline", false);
  PyObject* log_exception = option(kwargs, "log_exception", Py_None);

  std::string failure;
  server::stop_reason why = server::stop_reason::none;
  std::vector<int> kept;
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
      options.root_path = text(kwargs, "root_path", "");
      options.listeners = std::move(addresses);
      options.url_scheme = text(kwargs, "url_scheme", "http");
      options.server_software = text(kwargs, "server_software", "baton");
      options.multiprocess = flag(kwargs, "multiprocess", false);
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
        python_pool_hooks hooks(static_cast<int>(blocking_threads), pool_turn);
        attaching_inline_dispatcher fallback(*wsgi);
        server::thread_pool pool(*wsgi, hooks, static_cast<int>(blocking_threads),
                                 pool_fallback_inline ? &fallback : nullptr);
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
    why = s.why_stopped();
    kept = s.take_listeners();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", failure.c_str());
    return nullptr;
  }
  py_ref kept_list = py_ref::steal(descriptor_list(kept));
  if (!kept_list) return nullptr;
  return Py_BuildValue("(sO)", server::stop_reason_name(why), kept_list.get());
}

PyObject* set_log_output(PyObject*, PyObject* args) {
  int fd = -1;
  int bare = 0;
  if (!PyArg_ParseTuple(args, "ip:set_log_output", &fd, &bare)) return nullptr;
  log::set_output(fd, bare != 0);
  Py_RETURN_NONE;
}

PyMethodDef module_methods[] = {
    {"set_log_output", set_log_output, METH_VARARGS,
     "set_log_output(fd, bare): the core's log lines go to fd (-1: stderr); bare lines are "
     "'<level number> <message>' for a reader that logs them itself."},
    {"serve", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(serve)), METH_VARARGS | METH_KEYWORDS,
     "serve(app, listeners, **options): run one worker until a graceful stop; returns why it stopped "
     "('signal', 'hangup', 'max-requests', 'app-timeout', 'requested') and, after a caught SIGHUP, the "
     "listening descriptors left open for a reload. Takes ownership of the listening "
     "descriptors: they are closed when it returns, whether or not it succeeded."},
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
