// What differs between the CPython versions baton builds for (3.10 to 3.13),
// in one place. CPython 3.13 took the generator helpers for StopIteration's
// value out of its public headers, and 3.13 gave the optional attribute
// lookup a public name; 3.12 made the raised exception one object. These
// wrappers use the public API where it exists.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace baton::bridge {

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
