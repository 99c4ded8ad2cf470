// The bytes of a header name or value an app gives: what both interfaces
// accept for fields beside their own main rules (ASGI's header pairs and
// early-hint links, WSGI's early hints, which gunicorn takes as str or
// bytes). GIL held.
#pragma once

#include <string_view>

#include "bridge/py_compat.h"

namespace baton::bridge {

// bytes, bytearray, or a str of latin-1 characters (stored one byte per
// character: those bytes are its latin-1 encoding, no copy needed). False
// with a TypeError set for anything else. The view lives as long as `o`
// is not changed.
inline bool field_bytes(PyObject* o, std::string_view& out) {
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

}  // namespace baton::bridge
