#include "bridge/asgi.h"

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "core/http1/response.h"
#include "bridge/app_error_log.h"
#include "bridge/py_compat.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::bridge {
namespace {

// New streams waiting for the asyncio side, at most (pump): past it the
// server keeps them in its own queue.
constexpr size_t new_stream_ring = 4096;

PyObject* client_disconnected_type = nullptr;  // baton._baton.ClientDisconnected

struct interned {
  PyObject* type;
  PyObject* body;
  PyObject* more_body;
  PyObject* status;
  PyObject* headers;
  PyObject* path;
  PyObject* http_request;
  PyObject* http_disconnect;
  PyObject* start;
  PyObject* body_type;
  PyObject* pathsend;
  PyObject* http_version;
  PyObject* method;
  PyObject* raw_path;
  PyObject* query_string;
  PyObject* client;
  PyObject* state;
  PyObject* asgi;
  PyObject* extensions;
  PyObject* v11;
  PyObject* v10;
  PyObject* create_task;
  PyObject* create_future;
  PyObject* set_result;
  PyObject* set_exception;
  PyObject* done;
  PyObject* scheme;
  PyObject* https;
  PyObject* server;
  PyObject* root_path;
};
interned names;

bool intern_names() {
  names.type = PyUnicode_InternFromString("type");
  names.body = PyUnicode_InternFromString("body");
  names.more_body = PyUnicode_InternFromString("more_body");
  names.status = PyUnicode_InternFromString("status");
  names.headers = PyUnicode_InternFromString("headers");
  names.path = PyUnicode_InternFromString("path");
  names.http_request = PyUnicode_InternFromString("http.request");
  names.http_disconnect = PyUnicode_InternFromString("http.disconnect");
  names.start = PyUnicode_InternFromString("http.response.start");
  names.body_type = PyUnicode_InternFromString("http.response.body");
  names.pathsend = PyUnicode_InternFromString("http.response.pathsend");
  names.http_version = PyUnicode_InternFromString("http_version");
  names.method = PyUnicode_InternFromString("method");
  names.raw_path = PyUnicode_InternFromString("raw_path");
  names.query_string = PyUnicode_InternFromString("query_string");
  names.client = PyUnicode_InternFromString("client");
  names.state = PyUnicode_InternFromString("state");
  names.asgi = PyUnicode_InternFromString("asgi");
  names.extensions = PyUnicode_InternFromString("extensions");
  names.v11 = PyUnicode_InternFromString("1.1");
  names.v10 = PyUnicode_InternFromString("1.0");
  names.create_task = PyUnicode_InternFromString("create_task");
  names.create_future = PyUnicode_InternFromString("create_future");
  names.set_result = PyUnicode_InternFromString("set_result");
  names.set_exception = PyUnicode_InternFromString("set_exception");
  names.scheme = PyUnicode_InternFromString("scheme");
  names.https = PyUnicode_InternFromString("https");
  names.server = PyUnicode_InternFromString("server");
  names.root_path = PyUnicode_InternFromString("root_path");
  names.done = PyUnicode_InternFromString("done");
  return names.done != nullptr && !PyErr_Occurred();
}

// --- the awaitable that is already complete ---------------------------------
//
// `await receive()` on an event that is there already, or `await send(...)`
// that the window took: the await returns the value at once, through am_send,
// without creating a Future or suspending the task.

struct completed_object {
  PyObject_HEAD
  PyObject* value;
};

PyTypeObject completed_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

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

// `await send(...)` completes with None nearly always: one shared object
// serves them all (it holds no state but its value).
completed_object* completed_none = nullptr;

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

// --- receive and send ---------------------------------------------------------

// What receive, send and the request's coroutine know of their request.
// Each holds a reference to the runner's owner, so the runner outlives every
// one of them (a task can call them, or end, after the server has closed);
// the generation tells them apart from a later request on the same object.
struct request_handle {
  PyObject* owner;
  asgi_runner* runner;
  asgi_request* request;
  uint64_t generation;

  void bind(asgi_runner* to, asgi_request* r) {
    owner = to->owner();
    Py_XINCREF(owner);
    runner = to;
    request = r;
    generation = r->generation;
  }
  void release() { Py_CLEAR(owner); }
};

struct channel_object {
  PyObject_HEAD
  request_handle h;
};

void channel_dealloc(PyObject* self) {
  reinterpret_cast<channel_object*>(self)->h.release();
  Py_TYPE(self)->tp_free(self);
}

PyTypeObject receive_type = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject send_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

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

PyObject* make_channel(PyTypeObject* type, asgi_runner* runner, asgi_request* r) {
  auto* o = PyObject_New(channel_object, type);
  if (o == nullptr) return nullptr;
  o->h.bind(runner, r);
  return reinterpret_cast<PyObject*>(o);
}

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

PyObject* cancelled_error_type = nullptr;  // asyncio.CancelledError

struct request_coroutine {
  PyObject_HEAD
  request_handle h;
  PyObject* call[4];  // app, scope, receive, send: until the first step calls the app
  PyObject* inner;    // then the app's awaitable, as an iterator; null once it has ended
};

PyTypeObject request_coroutine_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

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
  bool cancelled = PyErr_GivenExceptionMatches(type, cancelled_error_type) != 0;
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

// send(), throw() and close() as methods: a step's outcome in the iterator
// protocol (a value is yielded; a return raises StopIteration).
PyObject* step_result(PySendResult status, PyObject* result) {
  if (status == PYGEN_NEXT) return result;
  if (status == PYGEN_RETURN) {
    set_stop_iteration_value(result);
    Py_DECREF(result);
  }
  return nullptr;
}

PyObject* request_coroutine_send_method(PyObject* o, PyObject* value) {
  PyObject* result = nullptr;
  PySendResult status = request_coroutine_send(o, value, &result);
  return step_result(status, result);
}

PyObject* request_coroutine_iternext(PyObject* o) {
  PyObject* result = nullptr;
  PySendResult status = request_coroutine_send(o, Py_None, &result);
  if (status == PYGEN_RETURN && result == Py_None) {
    Py_DECREF(result);
    return nullptr;  // a plain end: StopIteration without a value
  }
  return step_result(status, result);
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
    PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
    if (!PyArg_UnpackTuple(args, "throw", 1, 3, &type, &value, &traceback)) return nullptr;
    if (PyExceptionInstance_Check(type)) {
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(type)), type);
    } else if (PyExceptionClass_Check(type)) {
      PyErr_SetObject(type, value);
    } else {
      PyErr_SetString(PyExc_TypeError, "throw() takes an exception");
      return nullptr;
    }
    if (self->inner == nullptr && self->call[0] == nullptr) return nullptr;  // already ended
  }
  // Two statements: as one call's arguments, `result` could be read before
  // request_ended() sets it.
  PySendResult ended = request_ended(self, status, &result);
  return step_result(ended, result);
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
  PyObject_GC_Del(o);
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

PyAsyncMethods request_coroutine_async = {request_coroutine_await, nullptr, nullptr, request_coroutine_send};

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

PyObject* make_request_coroutine(asgi_runner* runner, asgi_request* r, PyObject* app, PyObject* scope,
                                 PyObject* receive, PyObject* send) {
  auto* o = PyObject_GC_New(request_coroutine, &request_coroutine_type);
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

// Two str objects with the same text: the same object, or the same length,
// kind and bytes (the check PyUnicode_Compare makes, without its ordering).
bool same_text(PyObject* a, PyObject* b) {
  if (a == b) return true;
  Py_ssize_t n = PyUnicode_GET_LENGTH(a);
  return n == PyUnicode_GET_LENGTH(b) && PyUnicode_KIND(a) == PyUnicode_KIND(b) &&
         std::memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), static_cast<size_t>(n) * PyUnicode_KIND(a)) == 0;
}

// Bytes of a header name or value: bytes, or a str of latin-1 characters.
bool byte_view(PyObject* o, std::string_view& out) {
  if (PyBytes_Check(o)) {
    out = {PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o))};
    return true;
  }
  if (PyByteArray_Check(o)) {
    out = {PyByteArray_AS_STRING(o), static_cast<size_t>(PyByteArray_GET_SIZE(o))};
    return true;
  }
  if (PyUnicode_Check(o) && PyUnicode_KIND(o) == PyUnicode_1BYTE_KIND) {
    out = {static_cast<const char*>(PyUnicode_DATA(o)), static_cast<size_t>(PyUnicode_GET_LENGTH(o))};
    return true;
  }
  PyErr_Format(PyExc_TypeError, "header names and values must be bytes, not %.100s", Py_TYPE(o)->tp_name);
  return false;
}

// ASGI path: percent-decoded, then UTF-8 (undecodable bytes replaced).
PyObject* decode_path(std::string_view path) {
  if (path.find('%') == std::string_view::npos) {
    return PyUnicode_DecodeUTF8(path.data(), static_cast<Py_ssize_t>(path.size()), "replace");
  }
  std::string decoded;
  decoded.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size() && util::hex_digit(path[i + 1]) >= 0 &&
        util::hex_digit(path[i + 2]) >= 0) {
      decoded.push_back(static_cast<char>(util::hex_digit(path[i + 1]) * 16 + util::hex_digit(path[i + 2])));
      i += 2;
    } else {
      decoded.push_back(path[i]);
    }
  }
  return PyUnicode_DecodeUTF8(decoded.data(), static_cast<Py_ssize_t>(decoded.size()), "replace");
}

// "200 OK" and the like, formatted once per status code.
std::string_view status_line(int status) {
  static std::string lines[1000];
  std::string& line = lines[status];
  if (line.empty()) {
    line = std::to_string(status);
    line += ' ';
    line += http1::status_reason(status);
  }
  return line;
}

bool set_new(PyObject* dict, PyObject* key, PyObject* value_new_ref) {
  if (value_new_ref == nullptr) return false;
  int rc = PyDict_SetItem(dict, key, value_new_ref);
  Py_DECREF(value_new_ref);
  return rc == 0;
}

}  // namespace

// --- the runner -----------------------------------------------------------------

void asgi_request::wake() { runner.post_news(this); }

std::unique_ptr<asgi_runner> asgi_runner::create(const asgi_options& options) {
  if (names.done == nullptr && !intern_names()) return nullptr;
  std::unique_ptr<asgi_runner> r(new asgi_runner());
  r->owner_ = options.owner;
  r->app_ = py_ref::borrow(options.app);
  r->loop_ = py_ref::borrow(options.loop);
  r->log_exception_ = py_ref::borrow(options.log_exception);
  r->state_ = py_ref::borrow(options.state != Py_None ? options.state : nullptr);
  r->root_path_ = options.root_path;
  r->pump_ = options.pump;
  r->create_task_ = py_ref::steal(PyObject_GetAttr(options.loop, names.create_task));
  r->create_future_ = py_ref::steal(PyObject_GetAttr(options.loop, names.create_future));
  if (!r->create_task_ || !r->create_future_) return nullptr;
  r->get_task_factory_ = py_ref::steal(PyObject_GetAttrString(options.loop, "get_task_factory"));
  py_ref asyncio = py_ref::steal(PyImport_ImportModule("asyncio"));
  if (!r->get_task_factory_ || !asyncio) return nullptr;
  r->task_type_ = py_ref::steal(PyObject_GetAttrString(asyncio.get(), "Task"));
  // From 3.12 a task can take its first step inside its constructor
  // (eager_start, what asyncio.eager_task_factory does): a request whose app
  // never suspends is then answered without a trip through the loop, and
  // the step still runs as the current task (anyio's cancel scopes need it).
  r->eager_ = options.eager_tasks && PY_VERSION_HEX >= 0x030C0000;
  r->task_kwnames_ = py_ref::steal(r->eager_ ? Py_BuildValue("(sss)", "loop", "name", "eager_start")
                                            : Py_BuildValue("(ss)", "loop", "name"));
  r->task_name_ = py_ref::steal(PyUnicode_InternFromString("baton.request"));
  if (!r->task_type_ || !r->task_kwnames_ || !r->task_name_) return nullptr;
  r->disconnect_ = py_ref::steal(Py_BuildValue("{O:O}", names.type, names.http_disconnect));
  for (const listener_address& a : options.listeners) {
    if (a.name.empty()) {
      r->server_hosts_.emplace_back();
      r->servers_.push_back(py_ref::borrow(Py_None));
      continue;
    }
    r->server_hosts_.push_back(py_ref::steal(PyUnicode_FromString(a.name.c_str())));
    if (!r->server_hosts_.back()) return nullptr;
    r->servers_.push_back(py_ref::steal(PyTuple_Pack(2, r->server_hosts_.back().get(),
                                                     py_ref::steal(PyLong_FromLong(a.port)).get())));
    if (!r->servers_.back()) return nullptr;
  }
  if (r->servers_.empty()) {
    PyErr_SetString(PyExc_ValueError, "no listeners");
    return nullptr;
  }
  py_ref server = py_ref::borrow(r->servers_.front().get());
  // Every key a scope gets is in the template, in the order the scope has
  // them, so that a request's copy is the right size from the start and
  // each key set below replaces a value instead of growing the dict.
  // The keys are the interned names the sets below use: a lookup then
  // matches on identity, without comparing the text.
  py_ref http = py_ref::steal(PyUnicode_InternFromString("http"));
  py_ref root_path = py_ref::steal(PyUnicode_FromString(options.root_path.c_str()));
  if (!http || !root_path) return nullptr;
  std::pair<PyObject*, PyObject*> scope_items[] = {
      {names.type, http.get()},        {names.asgi, Py_None},       {names.http_version, Py_None},
      {names.server, server.get()},    {names.client, Py_None},     {names.scheme, http.get()},
      {names.method, Py_None},         {names.root_path, root_path.get()}, {names.path, Py_None},
      {names.raw_path, Py_None},       {names.query_string, Py_None}, {names.headers, Py_None},
      {names.extensions, Py_None},     {names.state, Py_None}};
  r->scope_template_ = py_ref::steal(PyDict_New());
  if (!r->scope_template_) return nullptr;
  for (const auto& [key, value] : scope_items) {
    if (key == names.state && !r->state_) continue;
    if (PyDict_SetItem(r->scope_template_.get(), key, value) < 0) return nullptr;
  }
  py_ref version = py_ref::steal(PyUnicode_InternFromString("version"));
  py_ref spec_version = py_ref::steal(PyUnicode_InternFromString("spec_version"));
  if (!version || !spec_version) return nullptr;
  r->asgi_template_ = py_ref::steal(Py_BuildValue("{O:s,O:s}", version.get(), "3.0", spec_version.get(), "2.4"));
  r->extensions_template_ = py_ref::steal(Py_BuildValue("{s:{}}", "http.response.pathsend"));
  for (const char* m : {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"}) {
    r->methods_.emplace_back(m, py_ref::steal(PyUnicode_InternFromString(m)));
  }
  if (!r->disconnect_ || !r->scope_template_ || !r->asgi_template_ || !r->extensions_template_ || PyErr_Occurred()) {
    return nullptr;
  }
  if (r->pump_) {
    r->new_streams_ = std::make_unique<handoff::spsc_ring<http1::stream>>(new_stream_ring);
    r->wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (r->wake_fd_ < 0) {
      PyErr_SetFromErrno(PyExc_OSError);
      return nullptr;
    }
  }
  return r;
}

asgi_runner::~asgi_runner() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void asgi_runner::clear_wake_fd() {
  uint64_t count;
  ssize_t ignored = ::read(wake_fd_, &count, sizeof count);
  (void)ignored;
}

void asgi_runner::wake_after_stop() {
  if (wake_fd_ < 0) return;
  uint64_t one = 1;
  ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  (void)ignored;
}

bool asgi_runner::try_start(http1::stream* s) {
  if (!pump_) {
    inverted_new_.push_back(s);
    return true;
  }
  if (!new_streams_->try_push(s)) return false;
  // The push is a release store, and a later load may pass one (x86 lets
  // it too): without the fence, wake_asyncio() could read parked_ before
  // the drain's last look at the ring sees the push, and neither side would
  // act. (A notice's push is a seq_cst compare-and-swap and needs none.)
  std::atomic_thread_fence(std::memory_order_seq_cst);
  wake_asyncio();
  return true;
}

// The Dekker pair with drain(): it marks itself parked, then looks at the
// ring and the queue; a producer pushes, then looks at the mark.
void asgi_runner::wake_asyncio() {
  if (parked_.load(std::memory_order_seq_cst) && parked_.exchange(false, std::memory_order_acq_rel)) {
    wakes_.fetch_add(1, std::memory_order_relaxed);
    uint64_t one = 1;
    ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
    (void)ignored;
  }
}

void asgi_runner::post_news(asgi_request* r) {
  if (r->queued.exchange(true, std::memory_order_acq_rel)) return;
  news_.push(r);
  if (pump_) wake_asyncio();
}

bool asgi_runner::drain(size_t limit) {
  factory_checked_ = false;
  backlog_ = false;
  // Tasks still waiting for their first step count against the turn.
  size_t started = std::min(awaiting_first_step_, limit);
  while (true) {
    parked_.store(false, std::memory_order_relaxed);
    if (pump_) {
      while (started < limit) {
        http1::stream* s = new_streams_->try_pop();
        if (s == nullptr) break;
        ++started;
        if (!start_request(s)) return false;
      }
      backlog_ = started == limit && !new_streams_->empty();
    } else {
      // Starting one can start another (a cancelled stream's end lets its
      // connection parse the next pipelined request): they join the list.
      std::vector<http1::stream*> fresh;
      fresh.swap(inverted_new_);
      size_t now = std::min(fresh.size(), limit - started);
      started += now;
      for (size_t i = 0; i < now; ++i) {
        if (!start_request(fresh[i])) {
          inverted_new_.insert(inverted_new_.begin(), fresh.begin() + static_cast<std::ptrdiff_t>(i) + 1, fresh.end());
          return false;
        }
      }
      inverted_new_.insert(inverted_new_.begin(), fresh.begin() + static_cast<std::ptrdiff_t>(now), fresh.end());
      backlog_ = !inverted_new_.empty();
    }
    handoff::notice_link* list = news_.take_all();
    while (list != nullptr) {
      handoff::notice_link* next = list->notice_next;
      deliver_news(static_cast<asgi_request*>(list));
      list = next;
    }
    if (!pump_ || backlog_) return true;
    parked_.store(true, std::memory_order_seq_cst);
    // The ring's loads are acquire, not seq_cst: the fence pairs them with
    // try_start()'s, so the mark and the push cannot both go unseen.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (new_streams_->empty() && news_.empty()) return true;
  }
}

asgi_request* asgi_runner::take_request() {
  if (free_.empty()) {
    all_.push_back(std::make_unique<asgi_request>(*this));
    return all_.back().get();
  }
  asgi_request* r = free_.back();
  free_.pop_back();
  return r;
}

void asgi_runner::recycle(asgi_request* r) {
  r->s = nullptr;
  ++r->generation;  // receive/send objects still held by the app now raise
  r->receive_future.reset();
  r->send_future.reset();
  r->scope.reset();
  free_.push_back(r);
}

py_ref asgi_runner::build_scope(http1::stream& s) {
  const http1::request& head = s.head();
  py_ref scope = py_ref::steal(PyDict_Copy(scope_template_.get()));
  if (!scope) return {};
  PyObject* d = scope.get();
  PyObject* method = nullptr;
  for (const auto& [text, object] : methods_) {
    if (text == head.method) method = object.get();
  }
  bool ok = PyDict_SetItem(d, names.http_version, head.version_minor == 1 ? names.v11 : names.v10) == 0 &&
            (method != nullptr
                 ? PyDict_SetItem(d, names.method, method) == 0
                 : set_new(d, names.method, PyUnicode_DecodeLatin1(head.method.data(),
                                                                   static_cast<Py_ssize_t>(head.method.size()), nullptr)));
  // The path as the app sees it includes the root path (as uvicorn gives it).
  // ASGI's path for the forms that have none: "*" (OPTIONS) and the
  // authority itself (CONNECT), as the request-target gives them.
  std::string_view path = head.form == http1::target_form::asterisk    ? std::string_view("*")
                          : head.form == http1::target_form::authority ? head.target
                                                                       : head.path;
  if (ok && !root_path_.empty()) {
    std::string full = root_path_;
    full.append(path);
    ok = set_new(d, names.path, decode_path(full));
  } else if (ok) {
    ok = set_new(d, names.path, decode_path(path));
  }
  ok = ok && set_new(d, names.raw_path, PyBytes_FromStringAndSize(path.data(), static_cast<Py_ssize_t>(path.size())));
  ok = ok && set_new(d, names.query_string,
                     PyBytes_FromStringAndSize(head.query.data(), static_cast<Py_ssize_t>(head.query.size())));
  py_ref headers = py_ref::steal(PyList_New(static_cast<Py_ssize_t>(head.header_count)));
  ok = ok && headers;
  for (size_t i = 0; ok && i < head.header_count; ++i) {
    const http1::header& h = head.headers[i];
    PyObject* name = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(h.name.size()));
    if (name == nullptr) {
      ok = false;
      break;
    }
    char* p = PyBytes_AS_STRING(name);
    for (size_t k = 0; k < h.name.size(); ++k) {
      char c = h.name[k];
      p[k] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    }
    PyObject* value = PyBytes_FromStringAndSize(h.value.data(), static_cast<Py_ssize_t>(h.value.size()));
    PyObject* pair = value != nullptr ? PyTuple_Pack(2, name, value) : nullptr;
    Py_DECREF(name);
    Py_XDECREF(value);
    if (pair == nullptr) {
      ok = false;
      break;
    }
    // Two bytes objects cannot be part of a cycle: the collector need not
    // look at the pair (it would untrack it itself, after looking once).
    PyObject_GC_UnTrack(pair);
    PyList_SET_ITEM(headers.get(), static_cast<Py_ssize_t>(i), pair);
  }
  ok = ok && PyDict_SetItem(d, names.headers, headers.get()) == 0;
  http1::peer_info peer = s.peer();
  if (ok) {
    if (peer.address.empty()) {
      ok = PyDict_SetItem(d, names.client, Py_None) == 0;
    } else {
      if (!last_address_ || peer.address != last_address_text_) {
        last_address_ = py_ref::steal(
            PyUnicode_DecodeLatin1(peer.address.data(), static_cast<Py_ssize_t>(peer.address.size()), nullptr));
        last_address_text_.assign(peer.address);
      }
      py_ref port = py_ref::steal(PyLong_FromLong(peer.port));
      PyObject* client = last_address_ && port ? PyTuple_Pack(2, last_address_.get(), port.get()) : nullptr;
      if (client != nullptr) PyObject_GC_UnTrack(client);  // a str and an int: no cycle
      ok = set_new(d, names.client, client);
    }
  }
  // Small dicts an app might change: fresh for every request (copies).
  ok = ok && set_new(d, names.asgi, PyDict_Copy(asgi_template_.get()));
  ok = ok && set_new(d, names.extensions, PyDict_Copy(extensions_template_.get()));
  if (ok && state_) ok = set_new(d, names.state, PyDict_Copy(state_.get()));
  // What a trusted proxy said: the scheme and the port the client used.
  if (ok && s.scheme() == "https") ok = PyDict_SetItem(d, names.scheme, names.https) == 0;
  uint16_t listener = s.peer().listener < servers_.size() ? s.peer().listener : 0;
  if (ok && listener != 0) ok = PyDict_SetItem(d, names.server, servers_[listener].get()) == 0;
  if (ok && !s.forwarded_port().empty() && server_hosts_[listener]) {
    uint64_t port = 0;
    util::parse_decimal(s.forwarded_port(), port);
    py_ref port_obj = py_ref::steal(PyLong_FromUnsignedLongLong(port));
    ok = port_obj && set_new(d, names.server, PyTuple_Pack(2, server_hosts_[listener].get(), port_obj.get()));
  }
  if (!ok) return {};
  return scope;
}

bool asgi_runner::start_request(http1::stream* s) {
  if (s->cancelled()) {
    // The client left while the request crossed over: it never runs.
    s->app_done();
    return true;
  }
  asgi_request* r = take_request();
  r->s = s;
  r->request_complete = false;
  r->response_started = false;
  r->response_complete = false;
  r->protocol_error = false;
  // r->queued stays as it is: an object recycled while its old stream's
  // notice is still queued is still linked in news_, and clearing the mark
  // here would let the new stream's first wake link it a second time (a
  // cycle: the drain never ends). deliver_news() clears it when the notice
  // comes out, and then looks at the new stream, which is harmless.
  s->set_waker(r);
  py_ref scope = build_scope(*s);
  py_ref receive = py_ref::steal(make_channel(&receive_type, this, r));
  py_ref send = py_ref::steal(make_channel(&send_type, this, r));
  py_ref coroutine;
  if (scope && receive && send) {
    coroutine = py_ref::steal(make_request_coroutine(this, r, app_.get(), scope.get(), receive.get(), send.get()));
  }
  py_ref task;
  if (coroutine) task = py_ref::steal(start_task(coroutine.get()));
  if (!task) {
    log_exception("could not start the ASGI application", s);
    s->fail(500);
    s->set_waker(nullptr);
    s->app_done();
    recycle(r);
  }
  return true;
}

// loop.create_task(coroutine), less its cost where the two are the same.
PyObject* asgi_runner::start_task(PyObject* coroutine) {
  if (!factory_checked_) {
    py_ref factory = py_ref::steal(PyObject_CallNoArgs(get_task_factory_.get()));
    if (!factory) return nullptr;
    has_factory_ = factory.get() != Py_None;
    factory_checked_ = true;
  }
  if (has_factory_) return PyObject_CallOneArg(create_task_.get(), coroutine);
  PyObject* args[4] = {coroutine, loop_.get(), task_name_.get(), Py_True};
  return PyObject_Vectorcall(task_type_.get(), args, 1, task_kwnames_.get());
}

PyObject* asgi_runner::disconnect_event() {
  Py_INCREF(disconnect_.get());
  return disconnect_.get();
}

// The next event for receive(), if there is one now (`ready`).
PyObject* asgi_runner::next_event(asgi_request* r, bool& ready) {
  http1::stream& s = *r->s;
  ready = true;
  if (s.cancelled()) return disconnect_event();
  if (r->request_complete) {
    // After the body, receive() waits for the client to go away; the end of
    // the response, or a client that half-closed, counts as gone.
    if (r->response_complete || s.client_finished()) return disconnect_event();
    ready = false;
    return nullptr;
  }
  std::string_view view;
  switch (s.try_read(view)) {
    case http1::stream::read_status::pending:
      ready = false;
      return nullptr;
    case http1::stream::read_status::error:
      return disconnect_event();
    case http1::stream::read_status::end:
      r->request_complete = true;
      return Py_BuildValue("{O:O,O:y#,O:O}", names.type, names.http_request, names.body, "", Py_ssize_t{0},
                           names.more_body, Py_False);
    case http1::stream::read_status::data:
      break;
  }
  py_ref body = py_ref::steal(PyBytes_FromStringAndSize(view.data(), static_cast<Py_ssize_t>(view.size())));
  if (!body) return nullptr;
  s.consume(view.size());
  std::string_view next;
  bool more = true;
  if (s.body_ended() && s.body_buffered() == 0) {
    more = s.try_read(next) != http1::stream::read_status::end;
  }
  if (!more) r->request_complete = true;
  return Py_BuildValue("{O:O,O:O,O:O}", names.type, names.http_request, names.body, body.get(), names.more_body,
                       more ? Py_True : Py_False);
}

PyObject* asgi_runner::resolved(PyObject* value_new_ref) { return make_completed(value_new_ref); }

PyObject* asgi_runner::pending_future(py_ref& slot) {
  PyObject* future = PyObject_CallNoArgs(create_future_.get());
  if (future == nullptr) return nullptr;
  slot = py_ref::borrow(future);
  return future;
}

// Completes a waiting future with `value` (or, for an exception instance,
// fails it), unless the app has cancelled it meanwhile.
void asgi_runner::settle(py_ref& future, PyObject* value_new_ref) {
  py_ref value = py_ref::steal(value_new_ref);
  py_ref f = std::move(future);
  if (!f) return;
  py_ref done = py_ref::steal(PyObject_CallMethodNoArgs(f.get(), names.done));
  if (!done) {
    PyErr_Clear();
    return;
  }
  if (done.get() == Py_True) return;
  bool exception = value && PyExceptionInstance_Check(value.get());
  py_ref r = py_ref::steal(PyObject_CallMethodOneArg(f.get(), exception ? names.set_exception : names.set_result,
                                                     value ? value.get() : Py_None));
  if (!r) PyErr_Clear();
}

void asgi_runner::deliver_news(asgi_request* r) {
  // An exchange, not a store: a wake that found the mark still set (and so
  // queued nothing) comes before it in the mark's order, and the acquire
  // makes that wake's news visible to the looks at the stream below. After
  // a plain store those loads may run ahead of it and miss that news.
  r->queued.exchange(false, std::memory_order_acq_rel);
  if (r->s == nullptr) return;  // stale: its request ended
  if (r->receive_future) {
    bool ready = false;
    PyObject* event = next_event(r, ready);
    if (ready) settle(r->receive_future, event);
    else if (event == nullptr && PyErr_Occurred()) PyErr_Clear();
  }
  if (r->send_future) {
    if (r->s->cancelled()) {
      settle(r->send_future, PyObject_CallFunction(client_disconnected_type, "s", "the client disconnected"));
    } else if (r->s->credit_or_wake_me()) {  // else asked again: this wake may not have been the credit's
      Py_INCREF(Py_None);
      settle(r->send_future, Py_None);
    }
  }
}

PyObject* asgi_runner::receive(asgi_request* r, uint64_t generation) {
  if (r->s == nullptr || r->generation != generation) {
    PyErr_SetString(PyExc_RuntimeError, "receive() used after its request ended");
    return nullptr;
  }
  if (r->receive_future) {
    PyErr_SetString(PyExc_RuntimeError, "receive() called while an earlier receive() is still waiting");
    return nullptr;
  }
  bool ready = false;
  PyObject* event = next_event(r, ready);
  if (ready) return event != nullptr ? resolved(event) : nullptr;
  if (PyErr_Occurred()) return nullptr;
  return pending_future(r->receive_future);
}

PyObject* asgi_runner::send_start(asgi_request* r, PyObject* message) {
  http1::stream& s = *r->s;
  if (r->response_started) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.start sent twice");
    return nullptr;
  }
  PyObject* status_obj = PyDict_GetItemWithError(message, names.status);
  if (status_obj == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "http.response.start without a status");
    r->protocol_error = true;
    return nullptr;
  }
  long status = PyLong_AsLong(status_obj);
  if (status == -1 && PyErr_Occurred()) return nullptr;
  if (status < 200 || status > 999) {
    r->protocol_error = true;
    PyErr_Format(PyExc_ValueError, "invalid response status %ld", status);
    return nullptr;
  }
  s.begin_response(static_cast<int>(status), status_line(static_cast<int>(status)));
  PyObject* headers = PyDict_GetItemWithError(message, names.headers);
  if (headers != nullptr && headers != Py_None) {
    py_ref iterator = py_ref::steal(PyObject_GetIter(headers));
    if (!iterator) return nullptr;
    while (py_ref item = py_ref::steal(PyIter_Next(iterator.get()))) {
      py_ref pair = py_ref::steal(PySequence_Fast(item.get(), "each header must be a (name, value) pair"));
      if (!pair) return nullptr;
      std::string_view name, value;
      if (PySequence_Fast_GET_SIZE(pair.get()) != 2 || !byte_view(PySequence_Fast_GET_ITEM(pair.get(), 0), name) ||
          !byte_view(PySequence_Fast_GET_ITEM(pair.get(), 1), value)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "each header must be a (name, value) pair");
        r->protocol_error = true;
        return nullptr;
      }
      if (!s.add_header(name, value)) {
        r->protocol_error = true;
        PyErr_Format(PyExc_ValueError, "invalid response header %R", item.get());
        return nullptr;
      }
    }
    if (PyErr_Occurred()) return nullptr;
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  r->response_started = true;
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

PyObject* asgi_runner::send_body(asgi_request* r, PyObject* message) {
  http1::stream& s = *r->s;
  if (!r->response_started) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.body sent before http.response.start");
    return nullptr;
  }
  if (r->response_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.body sent after the response was complete");
    return nullptr;
  }
  PyObject* body = PyDict_GetItemWithError(message, names.body);
  if (body == nullptr && PyErr_Occurred()) return nullptr;
  PyObject* more_obj = PyDict_GetItemWithError(message, names.more_body);
  if (more_obj == nullptr && PyErr_Occurred()) return nullptr;
  bool more = more_obj != nullptr && PyObject_IsTrue(more_obj) == 1;
  Py_buffer view{};
  bool has_view = false;
  if (body != nullptr && body != Py_None) {
    if (PyObject_GetBuffer(body, &view, PyBUF_SIMPLE) < 0) return nullptr;
    has_view = true;
  }
  http1::stream::send_status sent = http1::stream::send_status::accepted;
  if (has_view && view.len > 0) {
    sent = s.send_past_window(static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
  }
  if (has_view) PyBuffer_Release(&view);
  if (sent == http1::stream::send_status::gone) {
    PyErr_SetString(client_disconnected_type, "the client disconnected");
    return nullptr;
  }
  if (!more) {
    s.finish();
    r->response_complete = true;
    // A task listening for the disconnect learns the response is over.
    if (r->receive_future) settle(r->receive_future, disconnect_event());
  } else {
    s.flush();  // a streamed piece goes out now
  }
  // Past the window (the body was taken whole), send() returns once the
  // loop has drained it to half.
  if (!s.credit_or_wake_me()) return pending_future(r->send_future);
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

// http.response.pathsend: the file goes out with sendfile.
PyObject* asgi_runner::send_pathsend(asgi_request* r, PyObject* message) {
  http1::stream& s = *r->s;
  if (!r->response_started || r->response_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.pathsend outside a started, unfinished response");
    return nullptr;
  }
  PyObject* path = PyDict_GetItemWithError(message, names.path);
  if (path == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "http.response.pathsend without a path");
    return nullptr;
  }
  PyObject* raw_path = nullptr;
  if (!PyUnicode_FSConverter(path, &raw_path)) return nullptr;
  py_ref encoded = py_ref::steal(raw_path);
  int fd = ::open(PyBytes_AS_STRING(encoded.get()), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    PyErr_Format(PyExc_ValueError, "http.response.pathsend: %R is not a regular file", path);
    return nullptr;
  }
  if (!s.has_content_length()) {
    char text[24];
    int n = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(st.st_size));
    s.add_header("content-length", std::string_view(text, static_cast<size_t>(n)));
  }
  if (s.send_file(fd, 0, static_cast<uint64_t>(st.st_size)) == http1::stream::send_status::gone) {
    PyErr_SetString(client_disconnected_type, "the client disconnected");
    return nullptr;
  }
  s.finish();
  r->response_complete = true;
  if (r->receive_future) settle(r->receive_future, disconnect_event());
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

PyObject* asgi_runner::send(asgi_request* r, uint64_t generation, PyObject* message) {
  if (r->s == nullptr || r->generation != generation) {
    PyErr_SetString(PyExc_RuntimeError, "send() used after its request ended");
    return nullptr;
  }
  if (!PyDict_Check(message)) {
    PyErr_Format(PyExc_TypeError, "send() takes a dict, not %.100s", Py_TYPE(message)->tp_name);
    return nullptr;
  }
  if (r->send_future) {
    PyErr_SetString(PyExc_RuntimeError, "send() called while an earlier send() is still waiting");
    return nullptr;
  }
  if (r->s->cancelled()) {
    PyErr_SetString(client_disconnected_type, "the client disconnected");
    return nullptr;
  }
  PyObject* type = PyDict_GetItemWithError(message, names.type);
  if (type == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "an ASGI message needs a type");
    return nullptr;
  }
  if (PyUnicode_Check(type)) {
    if (same_text(type, names.body_type)) return send_body(r, message);
    if (same_text(type, names.start)) return send_start(r, message);
    if (same_text(type, names.pathsend)) return send_pathsend(r, message);
  }
  r->protocol_error = true;
  PyErr_Format(PyExc_ValueError, "unexpected ASGI message type %R for an HTTP request", type);
  return nullptr;
}

// The app returned (`error` null) or raised. Whatever is still owed to the
// client is settled here: a 500 if nothing was sent, a closed connection if
// the response is incomplete or the app broke the protocol.
void asgi_runner::finish(asgi_request* r, uint64_t generation, PyObject* error) {
  if (r->s == nullptr || r->generation != generation) return;
  http1::stream& s = *r->s;
  if (error != nullptr && !s.cancelled()) {
    Py_INCREF(error);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error)), error);
    log_exception("the ASGI application raised", &s);
  } else if (!r->response_complete && !s.cancelled()) {
    log::write(log::level::error, "the ASGI application returned without completing its response");
  }
  if (!r->response_complete || r->protocol_error) {
    // The answer owed is a failure: given (if nothing went out yet), and
    // then the connection closes, as the ASGI servers users know do.
    int status = s.body_error_status();
    s.fail(status == 400 || status == 408 || status == 413 ? status : 500, true);
  }
  if (r->receive_future) settle(r->receive_future, disconnect_event());
  if (r->send_future) settle(r->send_future, PyObject_CallFunction(client_disconnected_type, "s", "the request ended"));
  s.set_waker(nullptr);
  r->s = nullptr;
  s.app_done();  // the stream is the loop's again
  recycle(r);
}

void asgi_runner::abandon() {
  for (const auto& owned : all_) {
    asgi_request* r = owned.get();
    if (r->s == nullptr) continue;
    r->s->set_waker(nullptr);
    r->s = nullptr;
    ++r->generation;
    // A task still waiting learns its request is over.
    if (r->receive_future) settle(r->receive_future, disconnect_event());
    if (r->send_future) {
      settle(r->send_future, PyObject_CallFunction(client_disconnected_type, "s", "the server stopped"));
    }
    r->scope.reset();
  }
}

void asgi_runner::log_exception(const char* message, const http1::stream* s) {
  log_app_exception(log_exception_.get(), message, s);
}

bool asgi_types_ready() {
  completed_type.tp_name = "baton._baton.Completed";
  completed_type.tp_basicsize = sizeof(completed_object);
  completed_type.tp_flags = Py_TPFLAGS_DEFAULT;
  completed_type.tp_doc = "an awaitable whose result is already there";
  completed_type.tp_as_async = &completed_async;
  completed_type.tp_iter = PyObject_SelfIter;
  completed_type.tp_iternext = completed_iternext;
  completed_type.tp_dealloc = completed_dealloc;

  receive_type.tp_name = "baton._baton.Receive";
  receive_type.tp_basicsize = sizeof(channel_object);
  receive_type.tp_flags = Py_TPFLAGS_DEFAULT;
  receive_type.tp_doc = "ASGI receive(): the request's next event";
  receive_type.tp_call = receive_call;
  receive_type.tp_dealloc = channel_dealloc;

  send_type.tp_name = "baton._baton.Send";
  send_type.tp_basicsize = sizeof(channel_object);
  send_type.tp_flags = Py_TPFLAGS_DEFAULT;
  send_type.tp_doc = "ASGI send(message)";
  send_type.tp_call = send_call;
  send_type.tp_dealloc = channel_dealloc;
  request_coroutine_type.tp_name = "baton._baton.RequestCoroutine";
  request_coroutine_type.tp_basicsize = sizeof(request_coroutine);
  request_coroutine_type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  request_coroutine_type.tp_doc = "a request's coroutine: the ASGI app's call, driven to its end";
  request_coroutine_type.tp_as_async = &request_coroutine_async;
  request_coroutine_type.tp_iter = PyObject_SelfIter;
  request_coroutine_type.tp_iternext = request_coroutine_iternext;
  request_coroutine_type.tp_methods = request_coroutine_methods;
  request_coroutine_type.tp_getset = request_coroutine_getset;
  request_coroutine_type.tp_traverse = request_coroutine_traverse;
  request_coroutine_type.tp_clear = request_coroutine_clear;
  request_coroutine_type.tp_finalize = request_coroutine_finalize;
  request_coroutine_type.tp_dealloc = request_coroutine_dealloc;
  if (PyType_Ready(&completed_type) < 0 || PyType_Ready(&receive_type) < 0 || PyType_Ready(&send_type) < 0 ||
      PyType_Ready(&request_coroutine_type) < 0) {
    return false;
  }
  completed_none = PyObject_New(completed_object, &completed_type);
  if (completed_none == nullptr) return false;
  Py_INCREF(Py_None);
  completed_none->value = Py_None;
  return true;
}

PyObject* asgi_module_functions_add(PyObject* module) {
  client_disconnected_type = PyErr_NewExceptionWithDoc(
      "baton._baton.ClientDisconnected", "send() to a client that has gone away (an OSError)", PyExc_OSError,
      nullptr);
  if (client_disconnected_type == nullptr) return nullptr;
  Py_INCREF(client_disconnected_type);
  if (PyModule_AddObject(module, "ClientDisconnected", client_disconnected_type) < 0) return nullptr;
  // asyncio takes as a coroutine what collections.abc.Coroutine does.
  py_ref abc = py_ref::steal(PyImport_ImportModule("collections.abc"));
  py_ref coroutine_abc = abc ? py_ref::steal(PyObject_GetAttrString(abc.get(), "Coroutine")) : py_ref();
  py_ref registered = coroutine_abc ? py_ref::steal(PyObject_CallMethod(coroutine_abc.get(), "register", "O",
                                                                        &request_coroutine_type))
                                    : py_ref();
  py_ref asyncio = py_ref::steal(PyImport_ImportModule("asyncio"));
  cancelled_error_type = asyncio ? PyObject_GetAttrString(asyncio.get(), "CancelledError") : nullptr;
  if (!registered || cancelled_error_type == nullptr) return nullptr;
  Py_INCREF(&request_coroutine_type);
  if (PyModule_AddObject(module, "RequestCoroutine", reinterpret_cast<PyObject*>(&request_coroutine_type)) < 0) {
    return nullptr;
  }
  return module;
}

}  // namespace baton::bridge
