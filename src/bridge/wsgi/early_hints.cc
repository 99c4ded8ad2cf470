// environ["wsgi.early_hints"](headers): a 103 Early Hints response (RFC
// 8297) sent at once, ahead of the final one, as gunicorn offers it, so an
// app written for gunicorn runs unchanged: `headers` is a list of (name,
// value) pairs, str or bytes, usually Link fields; it may be called any
// number of times before the response's head goes out (the first body
// bytes), and returns None. After that, or to an HTTP/1.0 client, it sends
// nothing, as gunicorn does. A malformed field raises ValueError (gunicorn
// raises its own InvalidHeader errors) and nothing of that call is sent.
//
// The response goes to the loop as other output does: on the loop thread
// itself (inline) it is written before the call returns; from a pool thread
// it is handed over and the loop writes it on its next pass.
#include <cstddef>

#include "bridge/field_bytes.h"
#include "bridge/py_compat.h"
#include "bridge/wsgi/call_slot.h"
#include "bridge/wsgi/wsgi.h"

namespace baton::bridge {
namespace {

struct early_hints_object {
  PyObject_HEAD
  call_slot slot;  // an app's thread may hold the object (call_slot.h)
};

// Optional whitespace around a value is not part of it (RFC 9110 section
// 5.5); HTTP/2 clients refuse a value that keeps it.
std::string_view trimmed(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  return value;
}

// One (name, value) pair onto the interim response. False with a Python
// error set when it is malformed.
bool add_hint(exchange::exchange& s, PyObject* item) {
  py_ref pair = py_ref::steal(PySequence_Fast(item, "each early hint must be a (name, value) pair"));
  if (!pair) return false;
  bool well_formed = false, added = false;
  // A list pair is the app's own: read under its lock on a free-threaded build.
  Py_BEGIN_CRITICAL_SECTION(pair.get());
  std::string_view name, value;
  well_formed = PySequence_Fast_GET_SIZE(pair.get()) == 2 &&
                field_bytes(PySequence_Fast_GET_ITEM(pair.get(), 0), name) &&
                field_bytes(PySequence_Fast_GET_ITEM(pair.get(), 1), value);
  added = well_formed && s.add_interim_field(name, trimmed(value));
  Py_END_CRITICAL_SECTION();
  if (!well_formed) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "each early hint must be a (name, value) pair");
    return false;
  }
  if (!added) {
    PyErr_Format(PyExc_ValueError, "invalid early hint header %R", item);
    return false;
  }
  return true;
}

PyObject* early_hints_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"headers", nullptr};
  PyObject* headers = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:early_hints", const_cast<char**>(keywords), &headers)) {
    return nullptr;
  }
  call_use use(reinterpret_cast<early_hints_object*>(self)->slot, PyExc_RuntimeError, "wsgi.early_hints");
  wsgi_call* call = use.get();
  if (call == nullptr) return nullptr;
  if (PyBytes_Check(headers) || PyUnicode_Check(headers)) {
    PyErr_SetString(PyExc_TypeError, "early_hints takes a list of (name, value) pairs");
    return nullptr;
  }
  exchange::exchange& s = *call->s;
  py_ref iterator = py_ref::steal(PyObject_GetIter(headers));
  if (!iterator) return nullptr;
  s.begin_interim();
  size_t count = 0;
  while (py_ref item = py_ref::steal(PyIter_Next(iterator.get()))) {
    if (!add_hint(s, item.get())) return nullptr;
    ++count;
  }
  if (PyErr_Occurred()) return nullptr;
  if (count > 0 && !s.response_committed()) s.send_interim(103);
  Py_RETURN_NONE;
}

void early_hints_dealloc(PyObject* self) { free_instance(self); }

PyType_Slot early_hints_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(early_hints_call)},
    {Py_tp_dealloc, reinterpret_cast<void*>(early_hints_dealloc)},
    {Py_tp_doc, const_cast<char*>("early_hints(headers): send a 103 Early Hints response with these "
                                  "(name, value) fields now, before the response starts")},
    {0, nullptr}};

}  // namespace

PyType_Spec early_hints_spec = {"baton._baton.EarlyHints", sizeof(early_hints_object), 0,
                                Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, early_hints_slots};

PyObject* early_hints_new(wsgi_call* call) {
  auto* o = PyObject_New(early_hints_object, types.early_hints);
  if (o == nullptr) return nullptr;
  o->slot.init(call);
  return reinterpret_cast<PyObject*>(o);
}

call_slot& early_hints_slot(PyObject* self) { return reinterpret_cast<early_hints_object*>(self)->slot; }

}  // namespace baton::bridge
