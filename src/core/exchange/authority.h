// The syntax of a request's host: the Host field's value and the authority
// of an absolute-form target (RFC 9112 section 3.2, RFC 3986 section 3.2).
//
// Syntax only: nothing is resolved, normalised or copied. A host that passes
// is either an IP-literal in brackets (IPv6 or IPvFuture) or a reg-name,
// which also covers dotted IPv4 addresses and IDNA's xn-- labels.
#pragma once

#include <string_view>

namespace baton::exchange {

struct host_and_port {
  std::string_view host;  // as sent, brackets included for an IP-literal; may be empty
  std::string_view port;  // the digits after ':', possibly none; empty if there was no ':'
  bool has_port = false;
};

// Splits `text` as uri-host [ ":" port ], filling `out` with views into it.
// Returns false, leaving `out` unspecified, when `text` is not of that shape
// (userinfo included: '@' belongs to no part of it). An empty `text` is a
// valid, empty host, as RFC 9112 allows for the Host field.
bool parse_host_and_port(std::string_view text, host_and_port& out);

}  // namespace baton::exchange
