// A thread's own copy of the WSGI environ template, which keeps under a few
// keys the value the thread's last request had: the method, the protocol,
// the client's address and port (the same for every request of a
// keep-alive connection), and the wsgi.input and wsgi.early_hints objects
// (reused while the app keeps no reference to them). Each request's environ
// is a copy of it, so a value equal to the last one comes with the copy's
// memcpy; setting it in the copy again cost a PyDict_SetItem, some 150
// instructions of a hello's 9 800 each.
//
// Owned by one thread (wsgi_thread_state), which alone changes it; every
// call needs the GIL. Invariant: a kept value is the template's value under
// its key, so a kept object's references are the template's, the keeper's,
// and anyone else's.
#pragma once

#include "bridge/py_compat.h"
#include "bridge/py_ref.h"

namespace baton::bridge {

class environ_template {
 public:
  enum slot { request_method, server_protocol, remote_addr, remote_port, input, early_hints, slot_count };

  // Makes the thread's copy of `handler_template` on first use. False with
  // a Python error set.
  bool ready(PyObject* handler_template) {
    if (dict_) return true;
    dict_ = py_ref::steal(PyDict_Copy(handler_template));
    return static_cast<bool>(dict_);
  }

  // Makes `value` (a new reference, stolen; null with an error set fails)
  // the template's value under `key`, unless it is already. False with a
  // Python error set; the template and the kept value are unchanged then.
  bool keep(slot s, PyObject* key, PyObject* value) {
    if (value == nullptr) return false;
    if (value == kept_[s].get()) {
      Py_DECREF(value);
      return true;
    }
    py_ref owned = py_ref::steal(value);
    if (PyDict_SetItem(dict_.get(), key, value) < 0) return false;
    kept_[s] = std::move(owned);
    return true;
  }

  // The value kept under `s` (borrowed), or null before the first.
  PyObject* kept(slot s) const { return kept_[s].get(); }

  // A kept object nobody else refers to (the app dropped every reference
  // it had, the environs holding it are gone): safe to give the next
  // request.
  bool unshared(slot s) const { return kept_[s] && referenced_exactly(kept_[s].get(), 2); }

  // A request's environ: a new dict, or null with a Python error set.
  py_ref copy() const { return py_ref::steal(PyDict_Copy(dict_.get())); }

  void clear() {
    for (py_ref& k : kept_) k.reset();
    dict_.reset();
  }

 private:
  py_ref dict_;
  py_ref kept_[slot_count];
};

}  // namespace baton::bridge
