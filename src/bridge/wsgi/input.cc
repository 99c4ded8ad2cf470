// wsgi.input: read, read(n), readline, readlines and iteration over the
// request body, chunked or not. Bytes come from the stream; when none are
// there yet, the call waits through the call's waiter with the GIL released.
//
// Copies: a read of a length-framed body allocates the result bytes object
// at its final size and has the loop receive into it, so a body byte that
// arrives while the app waits for it is never copied in user space (one that
// arrived before is copied once, out of the stream's buffer).
#include <cstring>
#include <string>

#include "bridge/wsgi/call_slot.h"
#include "bridge/wsgi/foreign_wait.h"
#include "bridge/wsgi/wsgi.h"

namespace baton::bridge {
namespace {

using read_status = exchange::exchange::read_status;

struct input_object {
  PyObject_HEAD
  call_slot slot;  // an app's thread may hold the object (call_slot.h)
};

PyObject* raise_body_error(wsgi_call* call) {
  int status = call->s->body_error_status();
  const char* what = status == 413   ? "request body too large"
                     : status == 408 ? "timed out reading the request body"
                     : status == 0   ? "client disconnected"
                                     : "request body incomplete or malformed";
  PyErr_SetString(PyExc_OSError, what);
  return nullptr;
}

call_use live_call(PyObject* self) {
  return {reinterpret_cast<input_object*>(self)->slot, PyExc_ValueError, "wsgi.input"};
}

bool parse_size(PyObject* const* args, Py_ssize_t nargs, Py_ssize_t& size) {
  size = -1;
  if (nargs > 1) {
    PyErr_SetString(PyExc_TypeError, "expected at most one argument");
    return false;
  }
  if (nargs == 1 && args[0] != Py_None) {
    size = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (size == -1 && PyErr_Occurred()) return false;
  }
  return true;
}

// The next run of body bytes, waiting for one if need be.
read_status next_run(wsgi_call* call, std::string_view& view) {
  read_status state = read_status::pending;
  wsgi_wait_until(*call, *call->s, [&] {
    state = call->s->try_read(view);
    return state != read_status::pending;
  });
  return state;
}

void consume(wsgi_call* call, size_t n) {
  call->s->consume(n);
  call->body_consumed += n;
}

// Bytes still to come of a body whose length is known; -1 when it is not
// (HTTP/1 chunked: the body ends where the stream of it does).
int64_t known_remaining(wsgi_call* call) {
  const exchange::request_head& head = call->s->head();
  if (!head.length_known()) return -1;
  return head.content_length - static_cast<int64_t>(call->body_consumed);
}

// A read past the declared length asks where the body ends, and it ends
// where the client ends it: over HTTP/1.1 at the length itself, over
// HTTP/2 at the stream's end, which may bring more bytes than declared
// instead (RFC 9113 8.1.1: malformed; the core resets the stream and the
// read fails). True when the body ends after what was read; otherwise
// raises.
bool body_ends_here(wsgi_call* call) {
  std::string_view view;
  read_status state = next_run(call, view);
  if (state == read_status::end) return true;
  if (state == read_status::error) {
    raise_body_error(call);
    return false;
  }
  PyErr_SetString(PyExc_OSError, "request body longer than its Content-Length");
  return false;
}

// read() / read(n) on a body whose length is known: one allocation at the
// final size, and the loop receives what has not arrived yet straight into
// it (the bytes object is not visible to Python until it is returned).
PyObject* read_known(wsgi_call* call, size_t want) {
  PyObject* result = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(want));
  if (result == nullptr) return nullptr;
  exchange::exchange& s = *call->s;
  if (s.read_into(PyBytes_AS_STRING(result), want)) {
    wsgi_wait_until(*call, s, [&] { return !s.target_active(); });
  }
  size_t filled = s.target_filled();
  call->body_consumed += filled;
  if (filled < want) {
    std::string_view view;
    if (s.try_read(view) == read_status::error) {
      Py_DECREF(result);
      return raise_body_error(call);
    }
    if (_PyBytes_Resize(&result, static_cast<Py_ssize_t>(filled)) < 0) return nullptr;
  }
  return result;
}

// Reads up to `size` bytes (all, if negative), stopping after a newline
// when `line` is set.
PyObject* read_some(wsgi_call* call, Py_ssize_t size, bool line) {
  if (size == 0) return PyBytes_FromStringAndSize(nullptr, 0);
  if (!line) {
    int64_t remaining = known_remaining(call);
    if (remaining >= 0) {
      size_t want = static_cast<size_t>(remaining);
      bool to_end = size < 0 || static_cast<size_t>(size) > want;
      if (!to_end) want = static_cast<size_t>(size);
      PyObject* result = read_known(call, want);
      if (result == nullptr || !to_end || static_cast<size_t>(PyBytes_GET_SIZE(result)) < want) return result;
      if (body_ends_here(call)) return result;
      Py_DECREF(result);
      return nullptr;
    }
  }
  std::string collected;
  while (size < 0 || static_cast<Py_ssize_t>(collected.size()) < size) {
    std::string_view view;
    read_status state = next_run(call, view);
    if (state == read_status::end) break;
    if (state == read_status::error) return raise_body_error(call);
    size_t take = view.size();
    if (size >= 0) {
      size_t want = static_cast<size_t>(size) - collected.size();
      if (take > want) take = want;
    }
    bool found_newline = false;
    if (line) {
      size_t nl = view.substr(0, take).find('\n');
      if (nl != std::string_view::npos) {
        take = nl + 1;
        found_newline = true;
      }
    }
    if (collected.empty() && (found_newline || (size >= 0 && take == static_cast<size_t>(size)))) {
      // The whole answer is one contiguous run: one copy, straight into bytes.
      PyObject* result = PyBytes_FromStringAndSize(view.data(), static_cast<Py_ssize_t>(take));
      consume(call, take);
      return result;
    }
    collected.append(view.data(), take);
    consume(call, take);
    if (found_newline) break;
  }
  return PyBytes_FromStringAndSize(collected.data(), static_cast<Py_ssize_t>(collected.size()));
}

PyObject* input_read(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  Py_ssize_t size;
  if (call == nullptr || !parse_size(args, nargs, size)) return nullptr;
  return read_some(call, size, false);
}

PyObject* input_readline(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  Py_ssize_t size;
  if (call == nullptr || !parse_size(args, nargs, size)) return nullptr;
  return read_some(call, size, true);
}

PyObject* input_readlines(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  Py_ssize_t hint;
  if (call == nullptr || !parse_size(args, nargs, hint)) return nullptr;
  py_ref lines = py_ref::steal(PyList_New(0));
  if (!lines) return nullptr;
  Py_ssize_t total = 0;
  while (true) {
    py_ref line = py_ref::steal(read_some(call, -1, true));
    if (!line) return nullptr;
    Py_ssize_t n = PyBytes_GET_SIZE(line.get());
    if (n == 0) break;
    if (PyList_Append(lines.get(), line.get()) < 0) return nullptr;
    total += n;
    if (hint > 0 && total >= hint) break;
  }
  return lines.release();
}

PyObject* input_iternext(PyObject* self) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  if (call == nullptr) return nullptr;
  PyObject* line = read_some(call, -1, true);
  if (line == nullptr) return nullptr;
  if (PyBytes_GET_SIZE(line) == 0) {
    Py_DECREF(line);
    return nullptr;  // StopIteration
  }
  return line;
}

PyMethodDef input_methods[] = {
    {"read", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(input_read)), METH_FASTCALL,
     "read(size=-1) -> bytes"},
    {"readline", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(input_readline)), METH_FASTCALL,
     "readline(size=-1) -> bytes"},
    {"readlines", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(input_readlines)), METH_FASTCALL,
     "readlines(hint=-1) -> list of bytes"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

namespace {

void input_dealloc(PyObject* self) { free_instance(self); }

PyType_Slot input_slots[] = {
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(input_iternext)},
    {Py_tp_methods, input_methods},
    {Py_tp_dealloc, reinterpret_cast<void*>(input_dealloc)},
    {Py_tp_doc, const_cast<char*>("wsgi.input: the request body as a binary stream")},
    {0, nullptr}};

}  // namespace

PyType_Spec wsgi_input_spec = {"baton._baton.Input", sizeof(input_object), 0,
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, input_slots};

PyObject* wsgi_input_new(wsgi_call* call) {
  auto* o = PyObject_New(input_object, types.wsgi_input);
  if (o != nullptr) o->slot.init(call);
  return reinterpret_cast<PyObject*>(o);
}

call_slot& wsgi_input_slot(PyObject* input) { return reinterpret_cast<input_object*>(input)->slot; }

}  // namespace baton::bridge
