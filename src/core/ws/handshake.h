// The server's side of the WebSocket opening handshake (RFC 6455 section
// 4.2): whether a request asks for a WebSocket at all, whether it asks
// well enough to get one (else a 400, or a 426 that names the version the
// server speaks), the Sec-WebSocket-Accept value, the subprotocols offered,
// and permessage-deflate's negotiation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/head.h"
#include "core/ws/deflate.h"

namespace baton::ws {

struct opening {
  enum class verdict : uint8_t { not_websocket, valid, refused };
  verdict result = verdict::not_websocket;
  int status = 0;              // refused: 400, or 426 (Sec-WebSocket-Version: 13 goes with it)
  const char* reason = "";     // refused: a short phrase for the log and the answer
  std::string accept;          // valid: the Sec-WebSocket-Accept value
  std::vector<std::string_view> subprotocols;  // valid: offered, in order (views into the head)
  deflate_agreement deflate;                   // valid: what permessage-deflate agreed
  std::string extensions;                      // valid: the Sec-WebSocket-Extensions answer, or ""
};

// Over HTTP/1.1 a request asks for a WebSocket when it carries Upgrade:
// websocket. Such a request is valid when it is a GET over HTTP/1.1 with
// Connection naming upgrade, no body, a Sec-WebSocket-Key of 16 bytes in
// base64 and Sec-WebSocket-Version 13. Over HTTP/2 (RFC 8441) and HTTP/3
// (RFC 9220) it is an
// extended CONNECT with :protocol websocket, valid with
// Sec-WebSocket-Version 13 (no key: the answer is a 200, no accept value).
opening read_opening(const exchange::request_head& head, const deflate_settings& deflate);

// base64(SHA-1(key + the RFC's GUID)).
std::string accept_value(std::string_view key);

// Whether `text` is base64 for exactly 16 bytes (24 characters, "==" last).
bool key_is_sixteen_bytes(std::string_view text);

}  // namespace baton::ws
