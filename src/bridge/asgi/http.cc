// The HTTP scope and its messages: the scope built from the exchange's head
// (a WebSocket's too: websocket.cc has its messages), receive()'s
// http.request and http.disconnect events, and send()'s http.response.start,
// http.response.body, http.response.pathsend and http.response.trailers
// (early_hint.cc has http.response.early_hint).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bridge/asgi/awaitables.h"
#include "bridge/asgi/runner.h"
#include "bridge/field_bytes.h"
#include "bridge/names.h"
#include "bridge/py_compat.h"
#include "core/exchange/fields.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::bridge {
namespace {

// ASGI path: percent-decoded, then UTF-8 (undecodable bytes replaced).
PyObject* decode_path(std::string_view path) {
  if (path.find('%') == std::string_view::npos) {
    return PyUnicode_DecodeUTF8(path.data(), static_cast<Py_ssize_t>(path.size()), "replace");
  }
  std::string decoded = util::percent_decoded(path);
  return PyUnicode_DecodeUTF8(decoded.data(), static_cast<Py_ssize_t>(decoded.size()), "replace");
}

// "200 OK" and the like, formatted once for the process (its first use, by
// whichever thread: a function-local static is made once, the others wait),
// and read-only after: the loops of --threads share it.
std::string_view status_line(int status) {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> made(1000);
    for (int code = 100; code < 1000; ++code) made[code] = std::to_string(code) + " " + exchange::status_reason(code);
    return made;
  }();
  return lines[static_cast<size_t>(status)];
}

bool set_new(PyObject* dict, PyObject* key, PyObject* value_new_ref) {
  if (value_new_ref == nullptr) return false;
  int rc = PyDict_SetItem(dict, key, value_new_ref);
  Py_DECREF(value_new_ref);
  return rc == 0;
}

// The names requests commonly carry, lowercased and made once (GIL held):
// every scope's headers share them instead of holding copies, which an open
// WebSocket keeps for as long as it lives.
class common_names {
 public:
  static constexpr size_t longest = 32;

  common_names() {
    static const char* const known[] = {
        "host", "connection", "upgrade", "user-agent", "accept", "accept-encoding", "accept-language",
        "accept-charset", "cache-control", "pragma", "content-type", "content-length", "content-encoding",
        "transfer-encoding", "cookie", "origin", "referer", "authorization", "if-none-match",
        "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range", "expect", "te", "dnt",
        "via", "forwarded", "keep-alive", "priority", "x-forwarded-for", "x-forwarded-proto",
        "x-forwarded-host", "x-forwarded-port", "x-real-ip", "x-request-id", "x-requested-with",
        "x-csrftoken", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        "sec-websocket-protocol", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user",
        "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform", "upgrade-insecure-requests",
        "access-control-request-method", "access-control-request-headers"};
    for (const char* name : known) {
      size_t n = std::strlen(name);
      PyObject* bytes = PyBytes_FromStringAndSize(name, static_cast<Py_ssize_t>(n));
      if (bytes == nullptr) {  // then that name is made per request, as others are
        PyErr_Clear();
        continue;
      }
      by_length_[n].push_back(bytes);  // kept for the life of the process (each is at most `longest`)
    }
  }
  // A new reference to the shared name equal to `lower`, or null.
  PyObject* find(const char* lower, size_t n) const {
    if (n > longest) return nullptr;
    for (PyObject* name : by_length_[n]) {
      if (std::memcmp(PyBytes_AS_STRING(name), lower, n) == 0) {
        Py_INCREF(name);
        return name;
      }
    }
    return nullptr;
  }

 private:
  std::vector<PyObject*> by_length_[longest + 1];
};

PyObject* lowercase_name(std::string_view name) {
  static const common_names common;
  char lower[common_names::longest];
  bool small = name.size() <= sizeof lower;
  PyObject* made = small ? nullptr : PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(name.size()));
  if (!small && made == nullptr) return nullptr;
  char* p = small ? lower : PyBytes_AS_STRING(made);
  for (size_t k = 0; k < name.size(); ++k) {
    char c = name[k];
    p[k] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  if (!small) return made;
  PyObject* shared = common.find(lower, name.size());
  return shared != nullptr ? shared : PyBytes_FromStringAndSize(lower, static_cast<Py_ssize_t>(name.size()));
}

// The request's fields, names lowercased, as (name, value) bytes pairs.
py_ref header_list(const exchange::request_head& head) {
  py_ref headers = py_ref::steal(PyList_New(static_cast<Py_ssize_t>(head.field_count)));
  if (!headers) return {};
  for (size_t i = 0; i < head.field_count; ++i) {
    const exchange::field& h = head.fields[i];
    PyObject* name = lowercase_name(h.name);
    if (name == nullptr) return {};
    PyObject* value = PyBytes_FromStringAndSize(h.value.data(), static_cast<Py_ssize_t>(h.value.size()));
    PyObject* pair = value != nullptr ? PyTuple_Pack(2, name, value) : nullptr;
    Py_DECREF(name);
    Py_XDECREF(value);
    if (pair == nullptr) return {};
    // Two bytes objects cannot be part of a cycle: the collector need not
    // look at the pair (it would untrack it itself, after looking once).
    PyObject_GC_UnTrack(pair);
    PyList_SET_ITEM(headers.get(), static_cast<Py_ssize_t>(i), pair);
  }
  return headers;
}

// The subprotocols a WebSocket opening offers, in order, as str.
PyObject* subprotocol_list(const exchange::request_head& head) {
  py_ref list = py_ref::steal(PyList_New(0));
  if (!list) return nullptr;
  bool ok = true;
  for (size_t i = 0; ok && i < head.field_count; ++i) {
    if (!util::equals_ignore_case(head.fields[i].name, "sec-websocket-protocol")) continue;
    util::for_each_list_element(head.fields[i].value, [&](std::string_view p) {
      py_ref item = py_ref::steal(PyUnicode_DecodeLatin1(p.data(), static_cast<Py_ssize_t>(p.size()), nullptr));
      ok = item && PyList_Append(list.get(), item.get()) == 0;
      return ok;
    });
  }
  return ok ? list.release() : nullptr;
}

}  // namespace

// path, raw_path and query_string. The path as the app sees it includes the
// root path (as uvicorn gives it). ASGI's path for the forms that have none:
// "*" (OPTIONS) and the authority itself (CONNECT), as the target gives them.
bool asgi_runner::set_target(PyObject* d, const exchange::request_head& head) {
  std::string_view path = head.form == exchange::target_form::asterisk    ? std::string_view("*")
                          : head.form == exchange::target_form::authority ? head.target
                                                                       : head.path;
  bool ok;
  if (!root_path_.empty()) {
    std::string full = root_path_;
    full.append(path);
    ok = set_new(d, names.path, decode_path(full));
  } else {
    ok = set_new(d, names.path, decode_path(path));
  }
  ok = ok && set_new(d, names.raw_path, PyBytes_FromStringAndSize(path.data(), static_cast<Py_ssize_t>(path.size())));
  return ok && set_new(d, names.query_string,
                       PyBytes_FromStringAndSize(head.query.data(), static_cast<Py_ssize_t>(head.query.size())));
}

bool asgi_runner::set_client(PyObject* d, const exchange::peer_info& peer) {
  if (peer.address.empty()) return PyDict_SetItem(d, names.client, Py_None) == 0;
  if (!last_address_ || peer.address != last_address_text_) {
    last_address_ =
        py_ref::steal(PyUnicode_DecodeLatin1(peer.address.data(), static_cast<Py_ssize_t>(peer.address.size()), nullptr));
    last_address_text_.assign(peer.address);
  }
  py_ref port = py_ref::steal(PyLong_FromLong(peer.port));
  PyObject* client = last_address_ && port ? PyTuple_Pack(2, last_address_.get(), port.get()) : nullptr;
  if (client != nullptr) PyObject_GC_UnTrack(client);  // a str and an int: no cycle
  return set_new(d, names.client, client);
}

// What a trusted proxy said: the scheme and the port the client used.
bool asgi_runner::set_scheme_and_server(PyObject* d, exchange::exchange& s, bool websocket) {
  bool ok = true;
  if (s.scheme() == "https") ok = PyDict_SetItem(d, names.scheme, websocket ? names.wss : names.https) == 0;
  uint16_t listener = s.peer().listener < servers_.size() ? s.peer().listener : 0;
  if (ok && listener != 0) ok = PyDict_SetItem(d, names.server, servers_[listener].get()) == 0;
  // A PROXY header named the address the client connected to.
  exchange::peer_info peer = s.peer();
  if (!ok || (s.forwarded_port().empty() && peer.server_address.empty())) return ok;
  py_ref host;
  if (!peer.server_address.empty()) {
    host = py_ref::steal(PyUnicode_DecodeLatin1(peer.server_address.data(),
                                                static_cast<Py_ssize_t>(peer.server_address.size()), nullptr));
    if (!host) return false;
  } else if (server_hosts_[listener]) {
    host = py_ref::borrow(server_hosts_[listener].get());
  } else {
    return true;  // a Unix socket's scope names no server to give a port to
  }
  uint64_t port = peer.server_port;
  if (!s.forwarded_port().empty()) util::parse_decimal(s.forwarded_port(), port);
  py_ref port_obj = py_ref::steal(PyLong_FromUnsignedLongLong(port));
  ok = port_obj && set_new(d, names.server, PyTuple_Pack(2, host.get(), port_obj.get()));
  return ok;
}

// ASGI's TLS extension. A client certificate, verified in the handshake,
// is there only with --ssl-cert-reqs; a failed verification fails the
// handshake, so client_cert_error is always None.
bool asgi_runner::add_tls_extension(PyObject* extensions, const net::tls_facts& tls) {
  py_ref chain = py_ref::steal(PyList_New(0));
  if (!chain) return false;
  py_ref name = py_ref::borrow(Py_None);
  if (tls.client) {
    for (const std::string& pem : tls.client->chain_pem) {
      py_ref text = py_ref::steal(PyUnicode_DecodeASCII(pem.data(), static_cast<Py_ssize_t>(pem.size()), "replace"));
      if (!text || PyList_Append(chain.get(), text.get()) != 0) return false;
    }
    name = py_ref::steal(PyUnicode_DecodeUTF8(tls.client->subject.data(),
                                              static_cast<Py_ssize_t>(tls.client->subject.size()), "replace"));
    if (!name) return false;
  }
  py_ref info = py_ref::steal(Py_BuildValue("{s:O,s:O,s:O,s:O,s:H,s:H}", "server_cert", server_cert_.get(),
                                            "client_cert_chain", chain.get(), "client_cert_name", name.get(),
                                            "client_cert_error", Py_None, "tls_version", tls.version,
                                            "cipher_suite", tls.cipher_suite));
  // The key interned at import: interning it here, on two loops of
  // --threads at once, is a race of CPython 3.13t's own.
  return info && PyDict_SetItem(extensions, names.tls, info.get()) == 0;
}

// The scope of an HTTP request, or of a WebSocket opening the core offers
// to switch: the same keys, less the method and plus the subprotocols.
py_ref asgi_runner::build_scope(exchange::exchange& s) {
  const exchange::request_head& head = s.head();
  bool websocket = s.upgrade().websocket();
  const scope_templates& t = websocket ? websocket_templates_ : http_templates_;
  py_ref scope = py_ref::steal(PyDict_Copy(t.scope.get()));
  if (!scope) return {};
  PyObject* d = scope.get();
  bool ok = PyDict_SetItem(d, names.http_version, head.version_major == 1 ? (head.version_minor == 1 ? names.v1_1 : names.v1_0) : head.version_major == 2 ? names.v2 : names.v3) == 0 &&
            (websocket || set_new(d, names.method, method_text(head.method))) && set_target(d, head);
  py_ref headers = ok ? header_list(head) : py_ref();
  ok = headers && PyDict_SetItem(d, names.headers, headers.get()) == 0 && set_client(d, s.peer());
  // Small dicts an app might change: fresh for every request (copies).
  ok = ok && set_new(d, names.asgi, PyDict_Copy(t.asgi.get()));
  ok = ok && set_new(d, names.extensions, PyDict_Copy(t.extensions.get()));
  if (ok && s.tls() != nullptr) ok = add_tls_extension(dict_item(d, names.extensions).get(), *s.tls());
  if (ok && state_) ok = set_new(d, names.state, PyDict_Copy(state_.get()));
  ok = ok && set_scheme_and_server(d, s, websocket);
  if (ok && websocket) ok = set_new(d, names.subprotocols, subprotocol_list(head));
  if (!ok) return {};
  return scope;
}

PyObject* asgi_runner::disconnect_event() {
  Py_INCREF(disconnect_.get());
  return disconnect_.get();
}

// The next event for receive(), if there is one now (`ready`).

PyObject* asgi_runner::next_event(asgi_request* r, bool& ready) {
  exchange::exchange& s = *r->s;
  ready = true;
  if (s.cancelled()) return disconnect_event();
  if (r->request_complete) {
    // After the body, receive() waits for the client to go away; the end of
    // the response, or a client that half-closed, counts as gone.
    if (r->response_complete || s.client_finished()) return disconnect_event();
    ready = false;
    return nullptr;
  }
  std::string_view view;
  switch (s.try_read(view)) {
    case exchange::exchange::read_status::pending:
      ready = false;
      return nullptr;
    case exchange::exchange::read_status::error:
      return disconnect_event();
    case exchange::exchange::read_status::end:
      r->request_complete = true;
      return Py_BuildValue("{O:O,O:y#,O:O}", names.type, names.http_request, names.body, "", Py_ssize_t{0},
                           names.more_body, Py_False);
    case exchange::exchange::read_status::data:
      break;
  }
  py_ref body = py_ref::steal(PyBytes_FromStringAndSize(view.data(), static_cast<Py_ssize_t>(view.size())));
  if (!body) return nullptr;
  s.consume(view.size());
  std::string_view next;
  bool more = true;
  if (s.body_ended() && s.body_buffered() == 0) {
    more = s.try_read(next) != exchange::exchange::read_status::end;
  }
  if (!more) r->request_complete = true;
  return Py_BuildValue("{O:O,O:O,O:O}", names.type, names.http_request, names.body, body.get(), names.more_body,
                       more ? Py_True : Py_False);
}

PyObject* asgi_runner::event_for(asgi_request* r, bool& ready) {
  return r->websocket ? websocket_event(r, ready) : next_event(r, ready);
}

PyObject* asgi_runner::resolved(PyObject* value_new_ref) { return make_completed(value_new_ref); }

PyObject* asgi_runner::receive(asgi_request* r, uint64_t generation) {
  if (r->s == nullptr || r->generation != generation) {
    PyErr_SetString(PyExc_RuntimeError, "receive() used after its request ended");
    return nullptr;
  }
  if (r->receive_future) {
    PyErr_SetString(PyExc_RuntimeError, "receive() called while an earlier receive() is still waiting");
    return nullptr;
  }
  bool ready = false;
  PyObject* event = event_for(r, ready);
  if (ready) return event != nullptr ? resolved(event) : nullptr;
  if (PyErr_Occurred()) return nullptr;
  return pending_future(r->receive_future);
}

// The message's "headers" (pairs of bytes), onto the response begun, or as
// its trailers.
bool asgi_runner::add_app_headers(asgi_request* r, PyObject* message, bool trailers) {
  exchange::exchange& s = *r->s;
  py_ref headers_held = dict_item(message, names.headers);
  PyObject* headers = headers_held.get();
  if (headers == nullptr || headers == Py_None) return !PyErr_Occurred();
  py_ref iterator = py_ref::steal(PyObject_GetIter(headers));
  if (!iterator) return false;
  while (py_ref item = py_ref::steal(PyIter_Next(iterator.get()))) {
    py_ref pair = py_ref::steal(PySequence_Fast(item.get(), "each header must be a (name, value) pair"));
    if (!pair) return false;
    // A list pair is the app's own: read (and its bytes copied) under its
    // lock on a free-threaded build.
    std::string_view name, value;
    bool well_formed = false, added = false;
    Py_BEGIN_CRITICAL_SECTION(pair.get());
    well_formed = PySequence_Fast_GET_SIZE(pair.get()) == 2 &&
                  field_bytes(PySequence_Fast_GET_ITEM(pair.get(), 0), name) &&
                  field_bytes(PySequence_Fast_GET_ITEM(pair.get(), 1), value);
    added = well_formed && (trailers ? s.add_trailer(name, value) : s.add_header(name, value));
    Py_END_CRITICAL_SECTION();
    if (!well_formed) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "each header must be a (name, value) pair");
      r->protocol_error = true;
      return false;
    }
    if (!added) {
      r->protocol_error = true;
      PyErr_Format(PyExc_ValueError, trailers ? "invalid response trailer %R" : "invalid response header %R",
                   item.get());
      return false;
    }
  }
  return !PyErr_Occurred();
}

PyObject* asgi_runner::send_start(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  if (r->response_started) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.start sent twice");
    return nullptr;
  }
  py_ref status_obj_held = dict_item(message, names.status);
  PyObject* status_obj = status_obj_held.get();
  if (status_obj == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "http.response.start without a status");
    r->protocol_error = true;
    return nullptr;
  }
  long status = PyLong_AsLong(status_obj);
  if (status == -1 && PyErr_Occurred()) return nullptr;
  if (status < 200 || status > 999) {
    r->protocol_error = true;
    PyErr_Format(PyExc_ValueError, "invalid response status %ld", status);
    return nullptr;
  }
  s.begin_response(static_cast<int>(status), status_line(static_cast<int>(status)));
  if (!add_app_headers(r, message, false)) return nullptr;
  if (!r->websocket) {
    py_ref trailers_held = dict_item(message, names.trailers);
    PyObject* trailers = trailers_held.get();
    if (trailers == nullptr && PyErr_Occurred()) return nullptr;
    r->trailers_expected = trailers != nullptr && PyObject_IsTrue(trailers) == 1;
  }
  r->response_started = true;
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

PyObject* asgi_runner::send_body(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  if (!r->response_started) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.body sent before http.response.start");
    return nullptr;
  }
  if (r->response_complete || r->body_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.body sent after the response body was complete");
    return nullptr;
  }
  py_ref body_held = dict_item(message, names.body);
  PyObject* body = body_held.get();
  if (body == nullptr && PyErr_Occurred()) return nullptr;
  py_ref more_obj_held = dict_item(message, names.more_body);
  PyObject* more_obj = more_obj_held.get();
  if (more_obj == nullptr && PyErr_Occurred()) return nullptr;
  bool more = more_obj != nullptr && PyObject_IsTrue(more_obj) == 1;
  Py_buffer view{};
  bool has_view = false;
  if (body != nullptr && body != Py_None) {
    if (PyObject_GetBuffer(body, &view, PyBUF_SIMPLE) < 0) return nullptr;
    has_view = true;
  }
  exchange::exchange::send_status sent = exchange::exchange::send_status::accepted;
  if (has_view && view.len > 0) {
    sent = s.send_past_window(static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
  }
  if (has_view) PyBuffer_Release(&view);
  if (sent == exchange::exchange::send_status::gone) {
    PyErr_SetString(types.client_disconnected, "the client disconnected");
    return nullptr;
  }
  if (!more) {
    end_of_body(r);
  } else {
    s.flush();  // a streamed piece goes out now
  }
  // Past the window (the body was taken whole), send() returns once the
  // loop has drained it to half.
  if (!s.credit_or_wake_me()) return pending_future(r->send_future);
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

// http.response.pathsend: the file goes out with sendfile.

PyObject* asgi_runner::send_pathsend(asgi_request* r, PyObject* message) {
  exchange::exchange& s = *r->s;
  if (!r->response_started || r->response_complete || r->body_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.pathsend outside a started, unfinished response");
    return nullptr;
  }
  py_ref path_held = dict_item(message, names.path);
  PyObject* path = path_held.get();
  if (path == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "http.response.pathsend without a path");
    return nullptr;
  }
  PyObject* raw_path = nullptr;
  if (!PyUnicode_FSConverter(path, &raw_path)) return nullptr;
  py_ref encoded = py_ref::steal(raw_path);
  int fd = ::open(PyBytes_AS_STRING(encoded.get()), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    PyErr_Format(PyExc_ValueError, "http.response.pathsend: %R is not a regular file", path);
    return nullptr;
  }
  if (!s.has_content_length() && !r->trailers_expected) {  // with trailers, HTTP/1 frames it in chunks
    char text[24];
    int n = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(st.st_size));
    s.add_header("content-length", std::string_view(text, static_cast<size_t>(n)));
  }
  if (s.send_file(fd, 0, static_cast<uint64_t>(st.st_size)) == exchange::exchange::send_status::gone) {
    PyErr_SetString(types.client_disconnected, "the client disconnected");
    return nullptr;
  }
  end_of_body(r);
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

// The last of the body went: the response is complete, unless its start
// asked for trailers, which are then awaited.
void asgi_runner::end_of_body(asgi_request* r) {
  if (r->trailers_expected) {
    r->body_complete = true;
    r->s->flush();
    return;
  }
  r->s->finish();
  r->response_complete = true;
  // A task listening for the disconnect learns the response is over.
  if (r->receive_future) settle(r->receive_future, disconnect_event());
}

// http.response.trailers: fields after the body, in one message or several
// (more_trailers). HTTP/1 sends them after a chunked body, HTTP/2 in a last
// HEADERS frame.
PyObject* asgi_runner::send_trailers(asgi_request* r, PyObject* message) {
  if (!r->body_complete || r->response_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError,
                    r->response_complete  ? "http.response.trailers sent after the response was complete"
                    : r->trailers_expected ? "http.response.trailers sent before the response body was complete"
                                           : "http.response.trailers without trailers: True in http.response.start");
    return nullptr;
  }
  if (!add_app_headers(r, message, true)) return nullptr;
  py_ref more_obj_held = dict_item(message, names.more_trailers);
  PyObject* more_obj = more_obj_held.get();
  if (more_obj == nullptr && PyErr_Occurred()) return nullptr;
  if (more_obj == nullptr || PyObject_IsTrue(more_obj) != 1) {
    r->trailers_expected = false;
    end_of_body(r);
  }
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

PyObject* asgi_runner::send(asgi_request* r, uint64_t generation, PyObject* message) {
  if (r->s == nullptr || r->generation != generation) {
    PyErr_SetString(PyExc_RuntimeError, "send() used after its request ended");
    return nullptr;
  }
  if (!PyDict_Check(message)) {
    PyErr_Format(PyExc_TypeError, "send() takes a dict, not %.100s", Py_TYPE(message)->tp_name);
    return nullptr;
  }
  if (r->send_future) {
    PyErr_SetString(PyExc_RuntimeError, "send() called while an earlier send() is still waiting");
    return nullptr;
  }
  if (r->s->cancelled()) {
    PyErr_SetString(types.client_disconnected, "the client disconnected");
    return nullptr;
  }
  py_ref type_held = dict_item(message, names.type);
  PyObject* type = type_held.get();
  if (type == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "an ASGI message needs a type");
    return nullptr;
  }
  if (r->websocket) return send_websocket(r, type, message);
  if (PyUnicode_Check(type)) {
    if (same_text(type, names.response_body)) return send_body(r, message);
    if (same_text(type, names.response_start)) return send_start(r, message);
    if (same_text(type, names.response_pathsend)) return send_pathsend(r, message);
    if (same_text(type, names.response_trailers)) return send_trailers(r, message);
    if (same_text(type, names.response_early_hint)) return send_early_hint(r, message);
  }
  r->protocol_error = true;
  PyErr_Format(PyExc_ValueError, "unexpected ASGI message type %R for an HTTP request", type);
  return nullptr;
}

// The app returned (`error` null) or raised. Whatever is still owed to the
// client is settled here: a 500 if nothing was sent, a closed connection if
// the response is incomplete or the app broke the protocol.

}  // namespace baton::bridge
