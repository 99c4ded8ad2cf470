// The WebSocket messages of ASGI (spec 2.5), over the exchange's message
// channel: receive()'s websocket.connect, websocket.receive and
// websocket.disconnect; send()'s websocket.accept, websocket.send,
// websocket.close, and the denial response (websocket.http.response.*).
// Frames, pings, compression and the close handshake are the core's
// (src/core/ws); here a message is a whole str or bytes.
#include <cstring>
#include <string>

#include "bridge/app_error_log.h"
#include "bridge/asgi/awaitables.h"
#include "bridge/asgi/runner.h"
#include "bridge/names.h"
#include "bridge/py_compat.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

using phase = asgi_request::ws_phase;
using exchange::message_kind;

PyObject* protocol_error(asgi_request* r, const char* what) {
  r->protocol_error = true;
  PyErr_SetString(PyExc_RuntimeError, what);
  return nullptr;
}

PyObject* gone(const char* why) {
  PyErr_SetString(types.client_disconnected, why);
  return nullptr;
}

}  // namespace

// --- receive ------------------------------------------------------------------------

PyObject* asgi_runner::websocket_disconnect(asgi_request* r) {
  r->phase = phase::ended;
  if (!r->close_reason) r->close_reason = py_ref::borrow(names.empty);
  return Py_BuildValue("{O:O,O:i,O:O}", names.type, names.ws_disconnect, names.code, r->close_code, names.reason,
                       r->close_reason.get());
}

PyObject* asgi_runner::websocket_event(asgi_request* r, bool& ready) {
  exchange::exchange& s = *r->s;
  let_go_of_written(r);
  ready = true;
  switch (r->phase) {
    case phase::connecting:
      r->phase = phase::handshake;
      Py_INCREF(websocket_connect_.get());
      return websocket_connect_.get();
    case phase::handshake:
    case phase::denial:
      // No message can come before the accept; only the client's leaving.
      if (s.cancelled() || s.client_finished()) return websocket_disconnect(r);
      ready = false;
      return nullptr;
    case phase::ended:
      return websocket_disconnect(r);
    case phase::open:
    case phase::closed:
      break;
  }
  exchange::client_message m;
  switch (s.try_read_message(m)) {
    case exchange::exchange::read_status::pending:
      ready = false;
      return nullptr;
    case exchange::exchange::read_status::end:
    case exchange::exchange::read_status::error:
      return websocket_disconnect(r);  // the connection went without a close: 1006
    case exchange::exchange::read_status::data:
      break;
  }
  PyObject* event = websocket_message(r, m);
  s.consume_message();
  return event;
}

namespace {

// A text the core saw to be all ASCII becomes a str by a copy; any other
// (checked to be UTF-8 by the core) is decoded.
PyObject* text_object(const exchange::client_message& m) {
  auto size = static_cast<Py_ssize_t>(m.payload.size());
  if (!m.ascii) return PyUnicode_DecodeUTF8(m.payload.data(), size, "strict");
  PyObject* text = PyUnicode_New(size, 127);
  if (text != nullptr) std::memcpy(PyUnicode_1BYTE_DATA(text), m.payload.data(), m.payload.size());
  return text;
}

}  // namespace

PyObject* asgi_runner::websocket_message(asgi_request* r, const exchange::client_message& m) {
  std::string_view payload = m.payload;
  auto size = static_cast<Py_ssize_t>(payload.size());
  switch (m.kind) {
    case message_kind::text: {
      py_ref text = py_ref::steal(text_object(m));
      if (!text) return nullptr;
      return Py_BuildValue("{O:O,O:O}", names.type, names.ws_receive, names.text, text.get());
    }
    case message_kind::binary: {
      py_ref bytes = py_ref::steal(PyBytes_FromStringAndSize(payload.data(), size));
      if (!bytes) return nullptr;
      return Py_BuildValue("{O:O,O:O}", names.type, names.ws_receive, names.bytes, bytes.get());
    }
    case message_kind::close:
      break;
  }
  // The client's close (1005: it sent no code), or the server's own.
  r->close_code = 1005;
  r->close_reason = py_ref::borrow(names.empty);
  if (payload.size() >= 2) {
    r->close_code = (static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]);
    r->close_reason = py_ref::steal(PyUnicode_DecodeUTF8(payload.data() + 2, size - 2, "replace"));
    if (!r->close_reason) return nullptr;
  }
  return websocket_disconnect(r);
}

// --- send ---------------------------------------------------------------------------

PyObject* asgi_runner::send_websocket(asgi_request* r, PyObject* type, PyObject* message) {
  if (!PyUnicode_Check(type)) {
    r->protocol_error = true;
    PyErr_Format(PyExc_ValueError, "unexpected ASGI message type %R for a WebSocket", type);
    return nullptr;
  }
  switch (r->phase) {
    case phase::connecting:
    case phase::handshake:
      if (same_text(type, names.ws_accept)) return websocket_accept(r, message);
      if (same_text(type, names.ws_close)) return websocket_close(r, message);
      if (same_text(type, names.ws_response_start)) {
        PyObject* done = send_start(r, message);
        if (done != nullptr) r->phase = phase::denial;
        return done;
      }
      if (same_text(type, names.ws_send)) return protocol_error(r, "websocket.send before websocket.accept");
      break;
    case phase::denial:
      if (same_text(type, names.ws_response_body)) {
        PyObject* done = send_body(r, message);
        if (r->response_complete) r->phase = phase::ended;
        return done;
      }
      break;
    case phase::open:
      if (same_text(type, names.ws_send)) return websocket_send(r, message);
      if (same_text(type, names.ws_close)) return websocket_close(r, message);
      if (same_text(type, names.ws_accept)) return protocol_error(r, "websocket.accept sent twice");
      break;
    case phase::closed:
    case phase::ended:
      if (same_text(type, names.ws_send) || same_text(type, names.ws_close)) return gone("the WebSocket is closed");
      break;
  }
  r->protocol_error = true;
  PyErr_Format(PyExc_ValueError, "unexpected ASGI message type %R for a WebSocket at this point", type);
  return nullptr;
}

// The 101: the core's fields, the subprotocol the app chose, its headers.
PyObject* asgi_runner::websocket_accept(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  s.begin_switch_response();
  py_ref subprotocol_held = dict_item(message, names.subprotocol);
  PyObject* subprotocol = subprotocol_held.get();
  if (subprotocol != nullptr && subprotocol != Py_None) {
    Py_ssize_t n = 0;
    const char* text = PyUnicode_Check(subprotocol) ? PyUnicode_AsUTF8AndSize(subprotocol, &n) : nullptr;
    if (text == nullptr) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "websocket.accept's subprotocol must be a str");
      r->protocol_error = true;
      return nullptr;
    }
    if (!s.add_header("sec-websocket-protocol", std::string_view(text, static_cast<size_t>(n)))) {
      r->protocol_error = true;
      PyErr_Format(PyExc_ValueError, "invalid subprotocol %R", subprotocol);
      return nullptr;
    }
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  if (!add_app_headers(r, message, false)) return nullptr;
  s.finish();  // the switch: messages flow from now on
  r->response_started = true;
  r->response_complete = true;
  r->phase = phase::open;
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

PyObject* asgi_runner::websocket_send(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  py_ref bytes_held = dict_item(message, names.bytes);
  PyObject* bytes = bytes_held.get();
  if (bytes == nullptr && PyErr_Occurred()) return nullptr;
  py_ref text_held = dict_item(message, names.text);
  PyObject* text = text_held.get();
  if (text == nullptr && PyErr_Occurred()) return nullptr;
  let_go_of_written(r);
  // A bytes or a str (immutable, its UTF-8 kept in the object) may be
  // queued where it is, the object kept until it is written.
  exchange::in_place_payload keep{&r->in_flight_unsent};
  PyObject* payload = nullptr;
  exchange::exchange::send_status sent;
  if (bytes != nullptr && bytes != Py_None && PyBytes_Check(bytes)) {
    payload = bytes;
    sent = s.send_message(message_kind::binary, PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)),
                          &keep);
  } else if (bytes != nullptr && bytes != Py_None) {
    Py_buffer view{};  // a bytearray or memoryview: copied
    if (PyObject_GetBuffer(bytes, &view, PyBUF_SIMPLE) < 0) return nullptr;
    sent = s.send_message(message_kind::binary, static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
    PyBuffer_Release(&view);
  } else if (text != nullptr && text != Py_None && PyUnicode_Check(text)) {
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(text, &n);
    if (utf8 == nullptr) return nullptr;
    payload = text;
    sent = s.send_message(message_kind::text, utf8, static_cast<size_t>(n), &keep);
  } else {
    r->protocol_error = true;
    PyErr_SetString(PyExc_ValueError, "websocket.send needs bytes or text");
    return nullptr;
  }
  if (keep.taken) r->in_flight.push_back(py_ref::borrow(payload));
  if (sent == exchange::exchange::send_status::gone) return gone("the WebSocket is closed");
  // Past the window, send() returns once the loop has drained it to half.
  if (!s.credit_or_wake_me()) return pending_future(r->send_future);
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

// Before the accept, a close refuses the handshake with 403 (the spec's
// answer); after it, the close goes to the client, whose own is awaited.
PyObject* asgi_runner::websocket_close(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  if (r->phase != phase::open) {
    s.fail(403);
    r->response_started = true;
    r->response_complete = true;
    r->phase = phase::ended;
    Py_INCREF(Py_None);
    return resolved(Py_None);
  }
  long code = 1000;
  py_ref code_obj_held = dict_item(message, names.code);
  PyObject* code_obj = code_obj_held.get();
  if (code_obj != nullptr && code_obj != Py_None) {
    code = PyLong_AsLong(code_obj);
    if (code == -1 && PyErr_Occurred()) return nullptr;
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  std::string_view reason;
  py_ref reason_obj_held = dict_item(message, names.reason);
  PyObject* reason_obj = reason_obj_held.get();
  if (reason_obj != nullptr && reason_obj != Py_None) {
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_Check(reason_obj) ? PyUnicode_AsUTF8AndSize(reason_obj, &n) : nullptr;
    if (utf8 == nullptr) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "websocket.close's reason must be a str");
      return nullptr;
    }
    reason = std::string_view(utf8, static_cast<size_t>(n));
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  if (!(code >= 1000 && code <= 1003) && !(code >= 1007 && code <= 1014) && !(code >= 3000 && code <= 4999)) {
    r->protocol_error = true;
    PyErr_Format(PyExc_ValueError, "websocket.close with code %ld, which no endpoint may send", code);
    return nullptr;
  }
  std::string payload = exchange::close_payload(static_cast<uint16_t>(code), reason);
  if (s.send_message(message_kind::close, payload.data(), payload.size()) == exchange::exchange::send_status::gone) {
    return gone("the WebSocket is closed");
  }
  r->phase = phase::closed;
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

// --- the end ------------------------------------------------------------------------

// The app returned or raised. Before the accept, the handshake is refused
// (403, or 500 if it raised; an unfinished denial closes the connection);
// after it, a raise closes with 1011, and a return leaves the close to the
// core (1000).
void asgi_runner::finish_websocket(asgi_request* r, PyObject* error) {
  exchange::exchange& s = *r->s;
  bool raised = error != nullptr && !s.cancelled() &&
                !(PyObject_TypeCheck(error, reinterpret_cast<PyTypeObject*>(types.client_disconnected)) &&
                  r->phase >= phase::open);
  if (raised) {
    Py_INCREF(error);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error)), error);
    log_exception(r->phase == phase::open ? "the ASGI application raised inside its WebSocket"
                                          : "the ASGI application raised before accepting its WebSocket",
                  &s);
  }
  switch (r->phase) {
    case phase::connecting:
    case phase::handshake:
      if (!raised && !s.cancelled()) {
        log::write(log::level::info, "the ASGI application neither accepted nor refused a WebSocket: 403");
      }
      s.fail(raised ? 500 : 403, true);
      break;
    case phase::denial:
      s.fail(500, true);  // the response began and did not end: the connection closes
      break;
    case phase::open:
      if (raised || r->protocol_error) {
        std::string payload = exchange::close_payload(1011, "");
        s.send_message(message_kind::close, payload.data(), payload.size());
      }
      break;
    case phase::closed:
    case phase::ended:
      break;
  }
}

}  // namespace baton::bridge
