// Logging the Python exception that is set, through the app's logger, with
// the request it happened in (method, target and client), for both the WSGI
// and the ASGI bridge. Needs the GIL; clears the error.
#pragma once

#include <string>

#include "bridge/py_ref.h"
#include "core/exchange/exchange.h"
#include "core/util/log.h"

namespace baton::bridge {

// `logger`: callable(message: str, exc: BaseException | None), or null.
inline void log_app_exception(PyObject* logger, const char* message, const exchange::exchange* s) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (value != nullptr && traceback != nullptr) PyException_SetTraceback(value, traceback);
  py_ref t = py_ref::steal(type), v = py_ref::steal(value), tb = py_ref::steal(traceback);
  py_ref msg;
  if (s != nullptr) {
    const exchange::request_head& head = s->head();
    exchange::peer_info peer = s->peer();
    std::string target(head.target.substr(0, 200));
    std::string method(head.method.substr(0, 32));
    std::string client = peer.address.empty() ? std::string("unix socket")
                                              : std::string(peer.address) + ":" + std::to_string(peer.port);
    msg = py_ref::steal(PyUnicode_FromFormat("%s (%s %s from %s)", message, method.c_str(), target.c_str(),
                                             client.c_str()));
  } else {
    msg = py_ref::steal(PyUnicode_FromString(message));
  }
  if (logger != nullptr && msg) {
    py_ref res = py_ref::steal(PyObject_CallFunctionObjArgs(logger, msg.get(), v ? v.get() : Py_None, nullptr));
    if (res) return;
  }
  PyErr_Clear();
  log::write(log::level::error, "%s (and the error could not be logged)", message);
}

}  // namespace baton::bridge
