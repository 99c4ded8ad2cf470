// start_response(status, headers, exc_info=None) and the write() callable.
#include <cstddef>

#include "bridge/wsgi/call_slot.h"
#include "bridge/wsgi/foreign_wait.h"
#include "bridge/wsgi/wsgi.h"
#include "bridge/py_compat.h"
#include "core/exchange/fields.h"

namespace baton::bridge {
namespace {

struct start_response_object {
  PyObject_HEAD
  vectorcallfunc vectorcall;  // called without building an argument tuple
  call_slot slot;  // an app's thread may hold the object (call_slot.h)
  PyObject* write;  // the bound write() callable, made once per object
};

call_use live_call(PyObject* self) {
  return {reinterpret_cast<start_response_object*>(self)->slot, PyExc_RuntimeError, "start_response"};
}

// A str whose characters all fit in latin-1 is stored one byte per
// character, and those bytes are its latin-1 encoding: no copy needed.
bool latin1_view(PyObject* s, std::string_view& out, const char* what) {
  if (!PyUnicode_Check(s)) {
    PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what, Py_TYPE(s)->tp_name);
    return false;
  }
  if (PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND) {
    PyErr_Format(PyExc_ValueError, "%s is not latin-1: %R", what, s);
    return false;
  }
  out = {static_cast<const char*>(PyUnicode_DATA(s)), static_cast<size_t>(PyUnicode_GET_LENGTH(s))};
  return true;
}

PyObject* write_callable(PyObject* self, PyObject* data) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  if (call == nullptr) return nullptr;
  if (!PyBytes_Check(data)) {
    PyErr_Format(PyExc_TypeError, "write() takes bytes, not %.100s", Py_TYPE(data)->tp_name);
    return nullptr;
  }
  if (!wsgi_prepare_head(*call)) return nullptr;
  // May wait for a slow client (the GIL released while it does, so the
  // app's other threads run meanwhile). `data` stays alive: the caller holds it.
  bool ok = wsgi_send(*call, PyBytes_AS_STRING(data), static_cast<size_t>(PyBytes_GET_SIZE(data))) &&
            wsgi_flush(*call);
  if (!ok) {
    PyErr_SetString(PyExc_OSError, "client disconnected");
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef write_def = {"write", write_callable, METH_O, "write(data: bytes): send part of the body"};

PyObject* start(PyObject* self, PyObject* status, PyObject* headers, PyObject* exc_info) {
  call_use use = live_call(self);
  wsgi_call* call = use.get();
  if (call == nullptr) return nullptr;
  if (exc_info != Py_None) {
    if (call->s->response_committed()) {
      // PEP 3333: too late to change the answer; re-raise the app's error.
      PyObject* value = PyTuple_Check(exc_info) && PyTuple_GET_SIZE(exc_info) == 3 ? PyTuple_GET_ITEM(exc_info, 1)
                                                                                 : nullptr;
      if (value == nullptr || !PyExceptionInstance_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "exc_info must be a (type, exception, traceback) tuple");
        return nullptr;
      }
      PyObject* tb = PyTuple_GET_ITEM(exc_info, 2);
      if (tb != Py_None && PyException_SetTraceback(value, tb) < 0) return nullptr;
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(value)), value);
      return nullptr;
    }
  } else if (call->started) {
    PyErr_SetString(PyExc_RuntimeError, "start_response called a second time without exc_info");
    return nullptr;
  }
  if (!PyUnicode_Check(status)) {
    PyErr_Format(PyExc_TypeError, "status must be str, not %.100s", Py_TYPE(status)->tp_name);
    return nullptr;
  }
  if (!PyList_Check(headers)) {
    PyErr_Format(PyExc_TypeError, "headers must be a list, not %.100s", Py_TYPE(headers)->tp_name);
    return nullptr;
  }
  call->status = py_ref::borrow(status);
  call->headers = py_ref::borrow(headers);
  call->started = true;
  call->head_prepared = false;
  // Checked now, inside the app's own call, so a bad status or header raises
  // where the app made it, with the app's frames in the traceback.
  if (!wsgi_prepare_head(*call)) return nullptr;
  auto* o = reinterpret_cast<start_response_object*>(self);
  if (o->write == nullptr) {
    o->write = PyCFunction_New(&write_def, self);
    if (o->write == nullptr) return nullptr;
  }
  Py_INCREF(o->write);
  return o->write;
}

PyObject* start_response_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"status", "headers", "exc_info", nullptr};
  PyObject* status = nullptr;
  PyObject* headers = nullptr;
  PyObject* exc_info = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:start_response", const_cast<char**>(keywords), &status,
                                   &headers, &exc_info)) {
    return nullptr;
  }
  return start(self, status, headers, exc_info);
}

// The common call, start_response(status, headers[, exc_info]) with
// positional arguments, without an argument tuple; keywords take the
// general path.
PyObject* start_response_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (kwnames == nullptr && (nargs == 2 || nargs == 3)) {
    return start(self, args[0], args[1], nargs == 3 ? args[2] : Py_None);
  }
  py_ref tuple = py_ref::steal(PyTuple_New(nargs));
  if (!tuple) return nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(tuple.get(), i, args[i]);
  }
  py_ref kwargs;
  if (kwnames != nullptr) {
    kwargs = py_ref::steal(PyDict_New());
    if (!kwargs) return nullptr;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); ++i) {
      if (PyDict_SetItem(kwargs.get(), PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) return nullptr;
    }
  }
  return start_response_call(self, tuple.get(), kwargs.get());
}

void start_response_dealloc(PyObject* self) {
  auto* o = reinterpret_cast<start_response_object*>(self);
  PyObject_GC_UnTrack(self);
  Py_CLEAR(o->write);
  free_instance(self);
}

int start_response_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(reinterpret_cast<start_response_object*>(self)->write);
  return 0;
}

int start_response_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<start_response_object*>(self)->write);
  return 0;
}

// A heap type names its vectorcall slot through this member.
PyMemberDef start_response_members[] = {
    {const_cast<char*>("__vectorcalloffset__"), member_type_ssize,
     static_cast<Py_ssize_t>(offsetof(start_response_object, vectorcall)), member_read_only, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyType_Slot start_response_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(start_response_call)},
    {Py_tp_members, start_response_members},
    {Py_tp_dealloc, reinterpret_cast<void*>(start_response_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(start_response_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(start_response_clear)},
    {Py_tp_doc, const_cast<char*>("start_response(status, headers, exc_info=None) -> write")},
    {0, nullptr}};

}  // namespace

PyType_Spec start_response_spec = {
    "baton._baton.StartResponse", sizeof(start_response_object), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    start_response_slots};

PyObject* start_response_new(wsgi_call* call) {
  auto* o = PyObject_GC_New(start_response_object, types.start_response);
  if (o == nullptr) return nullptr;
  o->vectorcall = start_response_vectorcall;
  o->slot.init(call);
  o->write = nullptr;
  PyObject_GC_Track(o);
  return reinterpret_cast<PyObject*>(o);
}

bool start_response_reusable(PyObject* self) {
  // Held by the handler's cache, and by its own write() callable if it made
  // one (that callable holds a reference back): nobody else kept either.
  auto* o = reinterpret_cast<start_response_object*>(self);
  if (o->write == nullptr) return referenced_exactly(self, 1);
  return referenced_exactly(self, 2) && referenced_exactly(o->write, 1);
}

call_slot& start_response_slot(PyObject* self) { return reinterpret_cast<start_response_object*>(self)->slot; }

namespace {

// The memo of the thread running this call, when this is that thread.
field_memo* memo_here(const wsgi_call& call) {
  return call.memo != nullptr && call.memo->owned_here() ? call.memo : nullptr;
}

bool add_app_header(wsgi_call& call, field_memo* memo, PyObject* item) {
  if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
    PyErr_Format(PyExc_TypeError, "each header must be a (name, value) tuple, got %R", item);
    return false;
  }
  PyObject* name_text = PyTuple_GET_ITEM(item, 0);
  PyObject* value_text = PyTuple_GET_ITEM(item, 1);
  std::string_view name, value;
  if (!latin1_view(name_text, name, "header name") || !latin1_view(value_text, value, "header value")) return false;
  bool known = memo != nullptr && memo->known(name_text, field_memo::name) && memo->known(value_text, field_memo::value);
  bool valid = known || (exchange::valid_field_name(name) && exchange::valid_field_value(value));
  if (!valid || !call.s->add_valid_header(name, value)) {
    PyErr_Format(PyExc_ValueError, "invalid response header %R", item);
    return false;
  }
  if (!known && memo != nullptr) {
    memo->remember(name_text, field_memo::name);
    memo->remember(value_text, field_memo::value);
  }
  return true;
}

}  // namespace

bool wsgi_prepare_head(wsgi_call& call) {
  if (call.head_prepared) return true;
  if (!call.started) {
    PyErr_SetString(PyExc_RuntimeError, "the application produced a body before calling start_response");
    return false;
  }
  std::string_view status;
  if (!latin1_view(call.status.get(), status, "status")) return false;
  field_memo* memo = memo_here(call);
  int code = memo != nullptr ? memo->known_status(call.status.get()) : 0;
  if (code == 0) {
    code = exchange::parse_status_code(status);
    if (code == 0 || status.size() < 5) {
      PyErr_Format(PyExc_ValueError, "invalid status line %R", call.status.get());
      return false;
    }
    if (code < 200) {
      // An interim status would leave the client waiting for a final one.
      PyErr_Format(PyExc_ValueError, "a WSGI status must be final (200 or more), got %R", call.status.get());
      return false;
    }
    if (memo != nullptr) memo->remember_status(call.status.get(), code);
  }
  call.status_code = code;
  call.s->begin_response(code, status);
  // The app's list, walked under its own lock on a free-threaded build
  // (a thread of the app could change it meanwhile); the fields are copied.
  bool ok = true;
  PyObject* headers = call.headers.get();
  Py_BEGIN_CRITICAL_SECTION(headers);
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(headers); ++i) {
    ok = add_app_header(call, memo, PyList_GET_ITEM(headers, i));
  }
  Py_END_CRITICAL_SECTION();
  call.head_prepared = ok;
  return ok;
}

bool wsgi_send(wsgi_call& call, const char* data, size_t length, bool external) {
  exchange::exchange::send_status state = exchange::exchange::send_status::pending;
  wsgi_wait_until(call, *call.s, [&] {
    state = external ? call.s->try_send_external(data, length) : call.s->try_send(data, length);
    return state != exchange::exchange::send_status::pending;
  });
  return state == exchange::exchange::send_status::accepted;
}

void wsgi_wait_sent(wsgi_call& call) {
  wsgi_wait_until(call, *call.s, [&] { return call.s->external_sent(); });
}

bool wsgi_flush(wsgi_call& call) {
  call.s->flush();
  return !call.s->cancelled();
}

}  // namespace baton::bridge
