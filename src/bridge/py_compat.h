// What differs between the CPython versions baton builds for (3.10 to 3.13),
// in one place. CPython 3.13 took the generator helpers for StopIteration's
// value out of its public headers, and 3.13 gave the optional attribute
// lookup a public name; 3.12 made the raised exception one object. These
// wrappers use the public API where it exists.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h>
#endif

#include <vector>

#include "bridge/py_ref.h"

namespace baton::bridge {

// A PyMemberDef's type and flag for a read-only Py_ssize_t: public names
// since 3.12, structmember.h's before.
#if PY_VERSION_HEX >= 0x030C0000
constexpr int member_type_ssize = Py_T_PYSSIZET;
constexpr int member_read_only = Py_READONLY;
#else
constexpr int member_type_ssize = T_PYSSIZET;
constexpr int member_read_only = READONLY;
#endif

// Raises StopIteration carrying `value` (borrowed), as a generator's return
// does. The value is wrapped in an instance first, so a tuple or an
// exception is carried as itself rather than taken as the constructor's
// arguments.
inline void set_stop_iteration_value(PyObject* value) {
  if (value == Py_None) {
    PyErr_SetNone(PyExc_StopIteration);
    return;
  }
  PyObject* stop = PyObject_CallOneArg(PyExc_StopIteration, value);
  if (stop == nullptr) return;
  PyErr_SetObject(PyExc_StopIteration, stop);
  Py_DECREF(stop);
}

// With StopIteration set: clears it and returns its value (a new reference;
// None when it carries none). Returns null, leaving the error set, when the
// error is not a StopIteration.
inline PyObject* take_stop_iteration_value() {
  if (!PyErr_ExceptionMatches(PyExc_StopIteration)) return nullptr;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  PyObject* result = Py_None;
  if (value != nullptr && PyObject_TypeCheck(value, reinterpret_cast<PyTypeObject*>(PyExc_StopIteration))) {
    result = reinterpret_cast<PyStopIterationObject*>(value)->value;
    if (result == nullptr) result = Py_None;
  }
  Py_INCREF(result);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return result;
}

// The exception being raised, taken (normalised, its traceback attached),
// so that it can be raised again later; null when none is set.
inline PyObject* take_raised_exception() {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (type == nullptr) return nullptr;
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr && value != nullptr) PyException_SetTraceback(value, traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return value;
#endif
}

// Raises `exception` (borrowed), as taken by take_raised_exception().
inline void raise_exception(PyObject* exception) {
#if PY_VERSION_HEX >= 0x030C0000
  Py_INCREF(exception);
  PyErr_SetRaisedException(exception);
#else
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception)), exception);
#endif
}

// Strong references out of containers another thread may change (on a
// free-threaded build a borrowed one can be freed under the caller): the
// 3.13 API where it exists, and its equivalent under the GIL before.
// dict_get_ref: 1 and *result set, 0 and *result null (missing), -1 with an error.
inline int dict_get_ref(PyObject* dict, PyObject* key, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyDict_GetItemRef(dict, key, result);
#else
  *result = PyDict_GetItemWithError(dict, key);
  if (*result != nullptr) {
    Py_INCREF(*result);
    return 1;
  }
  return PyErr_Occurred() ? -1 : 0;
#endif
}

inline int dict_get_ref_string(PyObject* dict, const char* key, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyDict_GetItemStringRef(dict, key, result);
#else
  PyObject* name = PyUnicode_FromString(key);
  if (name == nullptr) {
    *result = nullptr;
    return -1;
  }
  int found = dict_get_ref(dict, name, result);
  Py_DECREF(name);
  return found;
#endif
}

// setdefault: 0 (inserted `value`) or 1 (the key was there), *result the
// value now in the dict as a new reference; -1 with an error.
inline int dict_set_default_ref(PyObject* dict, PyObject* key, PyObject* value, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyDict_SetDefaultRef(dict, key, value, result);
#else
  PyObject* existing = PyDict_SetDefault(dict, key, value);
  if (existing == nullptr) {
    *result = nullptr;
    return -1;
  }
  Py_INCREF(existing);
  *result = existing;
  return existing == value ? 0 : 1;
#endif
}

// dict[key] as a strong reference: null when the key is missing (no error
// set) or on an error (set).
inline py_ref dict_item(PyObject* dict, PyObject* key) {
  PyObject* value = nullptr;
  dict_get_ref(dict, key, &value);
  return py_ref::steal(value);
}

// A value from sys (sys.stderr), as a new reference; null and no error when missing.
inline PyObject* sys_attribute(const char* name) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject* sys = PyImport_ImportModule("sys");
  if (sys == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* value = PyObject_GetAttrString(sys, name);
  Py_DECREF(sys);
  if (value == nullptr) PyErr_Clear();
  return value;
#else
  PyObject* value = PySys_GetObject(name);
  Py_XINCREF(value);
  return value;
#endif
}

// Critical sections (3.13): a walk over an object another thread may
// change holds the object's own lock on a free-threaded build, and nothing
// under the GIL; before 3.13 there is only the GIL.
#ifndef Py_BEGIN_CRITICAL_SECTION
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

// A copy of `src` (a dict of str keys) whose table takes `entries` keys
// without growing: a copy of it (PyDict_Copy clones a dense table whole)
// is as large, so keys set on the copy later do not resize it. CPython
// sizes a merge into an empty dict for one and a half times the keys it
// gets, so `src` is padded to half of `entries` with placeholder keys,
// merged, and the placeholders deleted. The table keeps str keys' compact
// kind (CPython's own presizing call makes the general kind, half as large
// again: past what the allocator's thread cache serves, so each copy of
// it cost a slow malloc and free). Only the table's size rides on this;
// the dict is the same whatever CPython does.
inline PyObject* dict_with_room(PyObject* src, Py_ssize_t entries) {
  PyObject* padded = PyDict_Copy(src);
  if (padded == nullptr) return nullptr;
  std::vector<PyObject*> pads;
  bool ok = true;
  for (Py_ssize_t i = 0; ok && PyDict_Size(padded) < entries / 2 + 1; ++i) {
    PyObject* key = PyUnicode_FromFormat("\x01room%zd", i);
    ok = key != nullptr && PyDict_SetItem(padded, key, Py_None) == 0;
    if (key != nullptr) pads.push_back(key);
  }
  PyObject* out = ok ? PyDict_New() : nullptr;
  if (out != nullptr && PyDict_Update(out, padded) != 0) Py_CLEAR(out);
  for (PyObject* key : pads) {
    if (out != nullptr && PyDict_DelItem(out, key) != 0) Py_CLEAR(out);
    Py_DECREF(key);
  }
  Py_DECREF(padded);
  return out;
}

// Whether `o` has exactly `count` references, all known to the caller, so
// that it may be reused for another request without anyone else seeing
// it. Under the GIL the reference count says so. Without it the count is
// split into the owning thread's and everyone else's, and only an object
// this thread owns, with no reference from another thread, has an exact
// one (the test CPython's own PyUnstable_Object_IsUniquelyReferenced makes).
inline bool referenced_exactly(PyObject* o, Py_ssize_t count) {
#ifdef Py_GIL_DISABLED
  return _Py_IsOwnedByCurrentThread(o) &&
         static_cast<Py_ssize_t>(_Py_atomic_load_uint32_relaxed(&o->ob_ref_local)) == count &&
         _Py_atomic_load_ssize_relaxed(&o->ob_ref_shared) == 0;
#else
  return Py_REFCNT(o) == count;
#endif
}

// Whether the interpreter runs with a GIL now: always before 3.13; on a
// free-threaded build, unless something (an extension that did not declare
// it can run without it, PYTHON_GIL=1) has turned it back on.
inline bool gil_enabled() {
#ifdef Py_GIL_DISABLED
  PyObject* result = nullptr;
  PyObject* sys = PyImport_ImportModule("sys");
  if (sys != nullptr) {
    result = PyObject_CallMethod(sys, "_is_gil_enabled", nullptr);
    Py_DECREF(sys);
  }
  bool enabled = result == nullptr || result == Py_True;
  Py_XDECREF(result);
  PyErr_Clear();
  return enabled;
#else
  return true;
#endif
}

// getattr(o, name) that is not an error when the attribute is missing:
// 1 and *result set, 0 and *result null (missing), -1 with an error.
inline int get_optional_attr(PyObject* o, PyObject* name, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyObject_GetOptionalAttr(o, name, result);
#else
  return _PyObject_LookupAttr(o, name, result);
#endif
}

}  // namespace baton::bridge
