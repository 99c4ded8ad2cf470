// What the _baton module holds: its types and its exception, made when the
// module is executed (multi-phase initialisation, PEP 489), as heap types
// (PEP 630), one set per module object. The module is made once per
// interpreter and imported in one interpreter only (it says so with
// Py_mod_multiple_interpreters), so the code that makes the objects finds
// the types in `types`, which the module's execution fills with borrowed
// pointers; the module's state holds the references and reports them to
// the collector.
//
// Free-threaded builds: the module declares Py_MOD_GIL_NOT_USED. The types
// are made once, before any thread serves, and read-only after.
#pragma once

#include "bridge/py_ref.h"

namespace baton::bridge {

struct bridge_types {
  // ASGI: the awaitables receive() and send() return, the callables
  // themselves, a request's coroutine, and the server.
  PyTypeObject* completed = nullptr;
  PyTypeObject* failed = nullptr;
  PyTypeObject* waiting = nullptr;
  PyTypeObject* receive = nullptr;
  PyTypeObject* send = nullptr;
  PyTypeObject* request_coroutine = nullptr;
  PyTypeObject* asgi_server = nullptr;
  // WSGI: wsgi.input, start_response, wsgi.file_wrapper and wsgi.early_hints.
  PyTypeObject* wsgi_input = nullptr;
  PyTypeObject* start_response = nullptr;
  PyTypeObject* file_wrapper = nullptr;
  PyTypeObject* early_hints = nullptr;
  // The metrics region (metrics.cc).
  PyTypeObject* metrics_region = nullptr;
  // The handle another thread stops one server with (stop_handle.cc).
  PyTypeObject* stop_handle = nullptr;
  // baton._baton.ClientDisconnected, the OSError a send() to a client that
  // has gone away raises, and asyncio.CancelledError.
  PyObject* client_disconnected = nullptr;
  PyObject* cancelled_error = nullptr;
};

// The executed module's types (borrowed). Filled before anything serves.
extern bridge_types types;

// Makes a heap type from `spec` for `module`, or null with an error set.
inline PyTypeObject* make_type(PyObject* module, PyType_Spec* spec, PyObject* base = nullptr) {
  return reinterpret_cast<PyTypeObject*>(PyType_FromModuleAndSpec(module, spec, base));
}

// The end of a heap type instance's dealloc: the memory, then the reference
// the instance held to its type.
inline void free_instance(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

}  // namespace baton::bridge
