// A move-only owner of one strong PyObject reference. Every PyObject the
// bridge stores lives in one of these; borrowed pointers are never stored.
// Constructing, resetting or destroying one needs the GIL.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <utility>

namespace baton::bridge {

class py_ref {
 public:
  py_ref() = default;
  // Takes ownership of a new reference (which may be null).
  static py_ref steal(PyObject* o) { return py_ref(o); }
  // Adds a reference to a borrowed one.
  static py_ref borrow(PyObject* o) {
    Py_XINCREF(o);
    return py_ref(o);
  }
  py_ref(const py_ref&) = delete;
  py_ref& operator=(const py_ref&) = delete;
  py_ref(py_ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  py_ref& operator=(py_ref&& other) noexcept {
    if (this != &other) {
      PyObject* old = object_;
      object_ = std::exchange(other.object_, nullptr);
      Py_XDECREF(old);
    }
    return *this;
  }
  ~py_ref() { Py_XDECREF(object_); }

  PyObject* get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  // Gives the reference to the caller.
  PyObject* release() { return std::exchange(object_, nullptr); }
  void reset() {
    PyObject* old = std::exchange(object_, nullptr);
    Py_XDECREF(old);
  }

 private:
  explicit py_ref(PyObject* o) : object_(o) {}
  PyObject* object_ = nullptr;
};

}  // namespace baton::bridge
