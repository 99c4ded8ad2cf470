// The _baton extension module: serve() runs one worker's server in the
// calling thread until a graceful stop, in the shape asked for: the native
// hello (no Python), inline (the loop thread runs the app), or the pool
// (the loop thread detached from the GIL, N Python threads run the app).
#include <unistd.h>

#include <cmath>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bridge/asgi/awaitables.h"
#include "bridge/asgi/coroutine.h"
#include "bridge/asgi/runner.h"
#include "bridge/metrics.h"
#include "bridge/module_state.h"
#include "bridge/names.h"
#include "bridge/py_compat.h"
#include "bridge/py_ref.h"
#include "bridge/server_setup.h"
#include "bridge/stop_handle.h"
#include "bridge/tls_stack.h"
#include "bridge/wsgi/handler.h"
#include "bridge/wsgi/loop_wait.h"
#include "bridge/wsgi/pool.h"
#include "bridge/wsgi/wsgi.h"
#include "core/metrics/stopwatch.h"
#include "core/net/cid_steering.h"
#include "core/server/native_hello.h"
#include "core/server/server.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

// Around the loop's blocking wait in the shapes where the loop thread holds
// the GIL (inline, and the attached-loop A/B arm of the pool): released
// while the loop sleeps. A nested pass run by a waiting inline app has
// released it already, so the hooks look before they let go.
//
// With metrics on, the time taking it back is counted, but only after a
// pass on which another thread state of the interpreter existed: with the
// loop's alone (the inline shape's usual case) no one can hold the GIL, and
// the clock is not read. The list is read without its lock: a thread state
// made while it is read (a native thread calling in) is seen on the next
// pass. A free-threaded build always counts (its wait is for a
// stop-the-world pause).
struct gil_release {
  PyThreadState* state = nullptr;
  metrics::thread_block* metrics = nullptr;  // counts the time taking the GIL back (null: off)
  bool timed = false;                        // this pass's wait is counted
  static void before(void* self) {
    auto* g = static_cast<gil_release*>(self);
    g->state = PyGILState_Check() ? PyEval_SaveThread() : nullptr;
    g->timed = g->state != nullptr && g->metrics != nullptr && others_exist(g->state);
  }
  static void after(void* self) {
    auto* g = static_cast<gil_release*>(self);
    if (g->state == nullptr) return;
    if (!g->timed) {
      PyEval_RestoreThread(g->state);
    } else {
      int64_t started = metrics::stopwatch::now();
      PyEval_RestoreThread(g->state);
      metrics::bump(g->metrics->loop_gil_wait_ns, metrics::stopwatch::elapsed_ns(started, metrics::stopwatch::now()));
    }
    g->state = nullptr;
  }
  static bool others_exist(PyThreadState* mine) {
#ifdef Py_GIL_DISABLED
    (void)mine;
    return true;
#else
    return PyThreadState_Next(mine) != nullptr || PyInterpreterState_ThreadHead(mine->interp) != mine;
#endif
  }
};

// How a run ended: served to its stop; failed in C++ (an exception's text,
// which must not cross Py_END_ALLOW_THREADS as an exception); or failed with
// a Python error already set, which serve() passes on as it is.
struct run_outcome {
  enum class kind : uint8_t { served, failed, python_error };
  kind what = kind::served;
  std::string failure;  // kind::failed

  static run_outcome failed(std::string text) { return {kind::failed, std::move(text)}; }
  static run_outcome python_error() { return {kind::python_error, {}}; }
};

// Runs the server with the GIL released.
run_outcome run_detached(server::server& s) {
  run_outcome outcome;
  Py_BEGIN_ALLOW_THREADS
  try {
    s.run();
  } catch (const std::exception& e) {
    outcome = run_outcome::failed(e.what());
  }
  Py_END_ALLOW_THREADS
  return outcome;
}

run_outcome run_attached(server::server& s, gil_release& release) {
  s.event_loop().set_wait_hooks({&gil_release::before, &gil_release::after, &release});
  try {
    s.run();
  } catch (const std::exception& e) {
    return run_outcome::failed(e.what());
  }
  return {};
}

// The WSGI shapes: inline (the loop thread runs the app, holding the GIL
// except while it waits) or the pool (the loop thread lets go of the GIL
// once, here, and takes it back once, after; everything it does per
// request is C++).
run_outcome run_wsgi(server::server& s, PyObject* app, PyObject* kwargs, std::vector<listener_address> addresses,
                     long blocking_threads) {
  wsgi_options options;
  options.app = app;
  PyObject* log_exception = keyword(kwargs, "log_exception", Py_None);
  options.log_exception = log_exception == Py_None ? nullptr : log_exception;
  options.root_path = keyword_text(kwargs, "root_path");
  options.listeners = std::move(addresses);
  options.url_scheme = keyword_text(kwargs, "url_scheme", "http");
  options.server_software = keyword_text(kwargs, "server_software", "baton");
  options.multiprocess = keyword_flag(kwargs, "multiprocess", false);
  options.multithread = blocking_threads > 0;
  std::unique_ptr<wsgi_handler> wsgi = wsgi_handler::create(options);
  if (!wsgi) return run_outcome::python_error();  // it could not prepare the environ
  nested_pass_waiter loop_waiter(s);
  wsgi->set_inline_waiter(&loop_waiter);
  gil_release release;
  release.metrics = s.metrics();
  run_outcome outcome;
  if (blocking_threads == 0) {
    server::inline_dispatcher runner(*wsgi);
    s.set_dispatcher(&runner);
    outcome = run_attached(s, release);
    s.set_dispatcher(nullptr);
  } else {
    // A/B switches for the benchmarks: the attached loop of before the
    // detach, the pool without its turn barrier (or, without a GIL, with
    // it all the same), without jobs left to the running thread, and the
    // predecessor's inline fallback when every pool thread is busy.
    bool pool_turn = keyword_flag(kwargs, "pool_turn", true);
    bool gil_free = !gil_enabled() && !keyword_flag(kwargs, "pool_turn_forced", false);
    python_pool_hooks hooks(static_cast<int>(blocking_threads), pool_turn, gil_free, s.metrics_slot(),
                            keyword_flag(kwargs, "pool_runner", true));
    attaching_inline_dispatcher fallback(*wsgi);
    server::thread_pool pool(*wsgi, hooks, static_cast<int>(blocking_threads),
                             keyword_flag(kwargs, "pool_fallback_inline", false) ? &fallback : nullptr);
    pool.set_metrics(s.metrics_slot());
    s.set_dispatcher(&pool);
    // One HTTP/2 connection's streams take at most half the pool: the rest
    // of it keeps serving everyone else.
    s.limit_streams_in_app(static_cast<uint32_t>(blocking_threads > 1 ? blocking_threads / 2 : 1));
    pool.start();
    outcome = keyword_flag(kwargs, "loop_attached", false) ? run_attached(s, release) : run_detached(s);
    Py_BEGIN_ALLOW_THREADS
    pool.stop_and_join();
    Py_END_ALLOW_THREADS
    s.set_dispatcher(nullptr);
    // For the probes and the barrier's test: what the barrier did.
    log::write(log::level::debug, "turn barrier: %llu hand-overs between jobs, %llu yields",
               static_cast<unsigned long long>(hooks.handovers()),
               static_cast<unsigned long long>(hooks.barrier().yields()));
    log::write(log::level::debug, "pool: %llu jobs left to a running thread, %llu times woken for after a stall",
               static_cast<unsigned long long>(pool.left_to_runner()),
               static_cast<unsigned long long>(pool.runner_stalls()));
  }
  wsgi->clear_loop_thread_state();
  return outcome;
}

PyObject* serve(PyObject*, PyObject* args, PyObject* kwargs) {
  PyObject* app = nullptr;
  PyObject* listeners = nullptr;
  if (!PyArg_ParseTuple(args, "OO:serve", &app, &listeners)) return nullptr;
  py_ref empty = py_ref::steal(PyDict_New());
  if (kwargs == nullptr) kwargs = empty.get();
  // serve() owns the listeners from here, whatever happens: the server
  // closes them, and so does a failure to build it.
  assembled_server built;
  // own_signals false: the caller (the main thread of --threads) passes
  // each signal on with deliver_signal().
  if (!assemble_server(listeners, kwargs, keyword_flag(kwargs, "own_signals", true), built)) return nullptr;
  PyObject* threads_option = keyword(kwargs, "blocking_threads");
  long blocking_threads = threads_option != nullptr ? PyLong_AsLong(threads_option) : 0;
  if (blocking_threads == -1 && PyErr_Occurred()) return nullptr;
  if (blocking_threads < 0 || blocking_threads > 1024) {
    PyErr_SetString(PyExc_ValueError, "blocking_threads must be between 0 and 1024");
    return nullptr;
  }
  server::server& s = *built.srv;
  stop_handle_attachment attached(kwargs, s);  // detached as serve() returns, before the server goes
  if (!attached.ok()) return nullptr;
  run_outcome outcome;
  try {
    if (keyword_flag(kwargs, "native_hello", false)) {
      // Nothing on this path touches Python: the whole loop runs detached.
      server::native_hello hello;
      server::inline_dispatcher runner(hello);
      s.set_dispatcher(&runner);
      outcome = run_detached(s);
      s.set_dispatcher(nullptr);
    } else {
      outcome = run_wsgi(s, app, kwargs, std::move(built.addresses), blocking_threads);
    }
  } catch (const std::exception& e) {
    outcome = run_outcome::failed(e.what());
  }
  if (outcome.what == run_outcome::kind::python_error) return nullptr;
  if (outcome.what == run_outcome::kind::failed) {
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", outcome.failure.c_str());
    return nullptr;
  }
  server::stop_reason why = s.why_stopped();
  py_ref kept_list = py_ref::steal(descriptor_list(s.take_listeners()));
  if (!kept_list) return nullptr;
  return Py_BuildValue("(sO)", server::stop_reason_name(why), kept_list.get());
}

PyObject* deliver_signal(PyObject*, PyObject* arg) {
  long signo = PyLong_AsLong(arg);
  if (signo == -1 && PyErr_Occurred()) return nullptr;
  server::server::deliver_signal(static_cast<int>(signo));
  Py_RETURN_NONE;
}

PyObject* set_log_output(PyObject*, PyObject* args) {
  int fd = -1;
  int bare = 0;
  if (!PyArg_ParseTuple(args, "ip:set_log_output", &fd, &bare)) return nullptr;
  log::set_output(fd, bare != 0);
  Py_RETURN_NONE;
}

// The master's steering of QUIC datagrams (core/net/cid_steering.h).
PyObject* steer_datagrams(PyObject*, PyObject* args) {
  int fd = -1;
  Py_ssize_t sockets = 0;
  unsigned long key = 0;
  PyObject* live = nullptr;
  if (!PyArg_ParseTuple(args, "inkO:steer_datagrams", &fd, &sockets, &key, &live)) return nullptr;
  net::steering_plan plan;
  plan.sockets = static_cast<size_t>(sockets);
  plan.key = static_cast<uint32_t>(key);
  py_ref seq = py_ref::steal(PySequence_Fast(live, "live must be a sequence of socket indexes"));
  if (!seq) return nullptr;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    long index = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq.get(), i));
    if (index == -1 && PyErr_Occurred()) return nullptr;
    if (index < 0 || index > 255) {
      PyErr_SetString(PyExc_ValueError, "a socket index is one byte");
      return nullptr;
    }
    plan.live.push_back(static_cast<uint8_t>(index));
  }
  std::string error;
  if (!net::attach_steering(fd, plan, error)) {
    PyErr_SetString(PyExc_OSError, error.c_str());
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef module_methods[] = {
    {"steer_datagrams", steer_datagrams, METH_VARARGS,
     "steer_datagrams(fd, sockets, key, live): attaches QUIC's steering program to the SO_REUSEPORT group of "
     "UDP socket fd (`sockets` members, in the order bound): a datagram whose connection ID carries an "
     "index and `key` goes to that socket, any other to one of the `live` indexes."},
    {"set_log_output", set_log_output, METH_VARARGS,
     "set_log_output(fd, bare): the core's log lines go to fd (-1: stderr); bare lines are "
     "'<level number> <message>' for a reader that logs them itself."},
    {"deliver_signal", deliver_signal, METH_O,
     "deliver_signal(signo): a signal the caller caught, passed to every server of the process (each "
     "takes it by the policy it would take its own by)"},
    {"serve", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(serve)), METH_VARARGS | METH_KEYWORDS,
     "serve(app, listeners, **options): run one worker until a graceful stop; returns why it stopped "
     "('signal', 'hangup', 'max-requests', 'app-timeout', 'requested') and, after a caught SIGHUP, the "
     "listening descriptors left open for a reload. Takes ownership of the listening "
     "descriptors: they are closed when it returns, whether or not it succeeded."},
    {nullptr, nullptr, 0, nullptr},
};

// --- the module ----------------------------------------------------------------

bridge_types& state_of(PyObject* module) { return *static_cast<bridge_types*>(PyModule_GetState(module)); }

template <typename Visit>
void for_each_object(bridge_types& t, Visit visit) {
  for (PyTypeObject** type : {&t.completed, &t.failed, &t.waiting, &t.receive, &t.send, &t.request_coroutine,
                              &t.asgi_server, &t.wsgi_input, &t.start_response, &t.file_wrapper, &t.early_hints,
                              &t.metrics_region, &t.stop_handle}) {
    visit(reinterpret_cast<PyObject**>(type));
  }
  visit(&t.client_disconnected);
  visit(&t.cancelled_error);
}

int module_traverse(PyObject* module, visitproc visit, void* arg) {
  int result = 0;
  for_each_object(state_of(module), [&](PyObject** o) {
    if (result == 0 && *o != nullptr) result = visit(*o, arg);
  });
  return result;
}

int module_clear(PyObject* module) {
  for_each_object(state_of(module), [](PyObject** o) { Py_CLEAR(*o); });
  return 0;
}

void module_free(void* module) { module_clear(static_cast<PyObject*>(module)); }

// The module's execution: its names, its types (into its state, and the
// borrowed table the code uses) and what it exports.
int module_exec(PyObject* module) {
  bridge_types& t = state_of(module);
  if (!intern_names() || !awaitable_types_add(module, t) || !coroutine_types_add(module, t) ||
      !asgi_server_type_add(module, t) || !wsgi_types_add(module, t) || !metrics_types_add(module, t) ||
      !stop_handle_type_add(module, t) || !tls_stack_constants_add(module)) {
    return -1;
  }
  if (PyModule_AddObjectRef(module, "ClientDisconnected", t.client_disconnected) < 0 ||
      PyModule_AddType(module, t.request_coroutine) < 0 || PyModule_AddType(module, t.asgi_server) < 0 ||
      PyModule_AddType(module, t.file_wrapper) < 0 || PyModule_AddType(module, t.metrics_region) < 0 ||
      PyModule_AddType(module, t.stop_handle) < 0) {
    return -1;
  }
  // Every reason a server stops for, by name: baton/stop_reason.py checks
  // its enum against this tuple at import.
  constexpr server::stop_reason reasons[] = {server::stop_reason::none,         server::stop_reason::signal,
                                             server::stop_reason::requested,    server::stop_reason::hangup,
                                             server::stop_reason::max_requests, server::stop_reason::app_timeout};
  py_ref names = py_ref::steal(PyTuple_New(std::size(reasons)));
  if (!names) return -1;
  for (size_t i = 0; i < std::size(reasons); ++i) {
    PyObject* name = PyUnicode_FromString(server::stop_reason_name(reasons[i]));
    if (name == nullptr) return -1;
    PyTuple_SET_ITEM(names.get(), static_cast<Py_ssize_t>(i), name);
  }
  if (PyModule_AddObjectRef(module, "STOP_REASONS", names.get()) < 0) return -1;
  types = t;
  return 0;
}

PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, reinterpret_cast<void*>(module_exec)},
#ifdef Py_mod_multiple_interpreters
    // One set of types and names per process: a subinterpreter cannot import it.
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
#ifdef Py_mod_gil
    // Nothing here leans on the GIL: on a free-threaded CPython importing
    // the module leaves the GIL off.
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_baton", "Baton's native server", sizeof(bridge_types),
                          module_methods, module_slots, module_traverse, module_clear, module_free};

}  // namespace

bridge_types types;

}  // namespace baton::bridge

PyMODINIT_FUNC PyInit__baton() { return PyModuleDef_Init(&baton::bridge::module_def); }
