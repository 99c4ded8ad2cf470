// When a QUIC endpoint answers a new connection's first Initial with a Retry
// (RFC 9000 section 8.1.2; the server's --quic-retry): a client so asked
// proves it owns its address by coming back with the token, a round trip
// more, and until it does the server keeps no state for it.
//
// - automatic: once retry_past_handshakes connections are in their
//   handshake on one loop (what an Initial flood from forged addresses
//   leaves: connections that never finish), and while they are;
// - always: every new connection;
// - off: only where ngtcp2 needs one (a ClientHello that does not begin in
//   the first Initial).
#pragma once

#include <cstddef>
#include <cstdint>

namespace baton::net {

enum class quic_retry_mode : uint8_t { automatic, always, off };

// A real client finishes its handshake in a round trip or two; this many at
// once on one loop is thousands of new connections a second, or a flood.
constexpr size_t retry_past_handshakes = 256;

}  // namespace baton::net
