// What every protocol tells the application about a request, as data: the
// request head (method, target, fields, version) and who sent it. A
// protocol fills a request_head with views into its own buffer; the
// exchange then owns a copy (exchange::reset_for), so the views the app
// sees live as long as the request does.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/net/tls_facts.h"

namespace baton::exchange {

struct field {
  std::string_view name;
  std::string_view value;
};

// The form of the request-target (RFC 9112 section 3.2; an HTTP/2 request
// maps to the same forms: :path is origin-form, CONNECT authority-form).
enum class target_form : uint8_t { origin, absolute, authority, asterisk };

struct request_head {
  std::string_view method;
  std::string_view target;  // the raw request-target, as sent
  std::string_view path;    // the path part of the target (absolute-form: after the authority)
  std::string_view query;   // after '?', without it; empty if none
  // The target's host [":" port] when the target names one (absolute-form,
  // HTTP/2's :authority); empty otherwise.
  std::string_view authority;
  // The protocol an extended CONNECT asks the stream to become (RFC 8441's
  // :protocol, over HTTP/2: "websocket"); empty for every other request.
  std::string_view protocol;
  target_form form = target_form::origin;
  uint8_t version_major = 1;
  uint8_t version_minor = 1;
  // The client allows further requests on its connection after this one
  // (HTTP/1: keep-alive, by version and Connection).
  bool persistent = true;
  bool expect_continue = false;  // the client waits for 100 Continue before it sends the body
  bool is_head = false;
  bool upgrade = false;  // the client asks to switch protocols (Connection: upgrade)
  bool upgrade_field = false;  // the request names protocols to switch to (an Upgrade field)
  // The body's length when the request gives it; -1 when the body ends
  // wherever the stream of it ends (HTTP/1 chunked, HTTP/2 without a
  // content-length). 0 with no body at all.
  int64_t content_length = 0;
  // The fields in the order sent. For a target that names its host the
  // Host field's value is that host, so code that reads Host sees the host
  // the target names.
  const field* fields = nullptr;
  size_t field_count = 0;

  bool has_body() const { return content_length != 0; }
  bool length_known() const { return content_length >= 0; }
  // The first field of that name (any case), or empty.
  std::string_view find(std::string_view name) const;
  bool has(std::string_view name) const;
};

struct peer_info {
  std::string_view address;  // textual IP, or "" for a Unix socket
  uint16_t port = 0;
  uint16_t listener = 0;  // which of the server's listening sockets accepted the connection
  const net::tls_facts* tls = nullptr;  // the connection's TLS, or null for plain TCP
  // The address the client connected to, when a PROXY header named it;
  // "" otherwise (the listener's own address stands).
  std::string_view server_address = {};
  uint16_t server_port = 0;
};

}  // namespace baton::exchange
