// The PROXY protocol (HAProxy's proxy-protocol.txt), versions 1 (a text
// line) and 2 (binary), told apart by their first bytes: the header a TCP
// balancer sends before anything else on a connection, naming the client
// it accepted and the address the client connected to.
//
// The parser keeps no state between calls: it is given every byte received
// so far and says whether the header is complete, incomplete, or malformed.
// It never reads past the header's end, and it answers `need_more` only
// while every byte it was given can still belong to a header, so a caller
// may take all of those bytes off the socket (session/proxy_preface.h).
// What it buffers is bounded: a v1 line by the spec's 107 bytes, a v2
// header by max_v2_length (addresses and some TLVs; a longer one is refused).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace baton::net::proxy_protocol {

// The longest v1 line, CRLF included (the spec's worst case: UNKNOWN
// followed by the longest TCP6 fields).
constexpr size_t max_v1_length = 107;
// The longest v2 header taken: the 16-byte preamble, the largest address
// block (AF_UNIX, 216 bytes) and room for the TLVs balancers send (the
// unique id, TLS facts, a cloud's endpoint id). The spec allows 16 + 65535,
// which no balancer sends and no connection should make us hold.
constexpr size_t max_v2_length = 16 + 2048;

enum class status : uint8_t { need_more, done, error };

// An address as text (inet_ntop's form) and a port.
struct endpoint {
  char text[46] = {};
  uint8_t length = 0;
  uint16_t port = 0;
  std::string_view address() const { return {text, length}; }
};

struct result {
  status state = status::need_more;
  // done: the header's length in bytes (what follows is the connection's own).
  size_t consumed = 0;
  uint8_t version = 0;  // 1 or 2, once the first bytes tell
  // done: the header names no client (v1 UNKNOWN, v2 LOCAL, an unspecified
  // or Unix family): the connection's own addresses stand.
  bool keep_socket_addresses = false;
  endpoint source;       // the client
  endpoint destination;  // the address the client connected to
  // error: why, for a log line (a constant string).
  const char* reason = nullptr;
};

// Parses the header at the start of `bytes`. Any thread; no allocation.
result parse(std::string_view bytes);

}  // namespace baton::net::proxy_protocol
