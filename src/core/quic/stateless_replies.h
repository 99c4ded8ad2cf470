// The answers a QUIC endpoint sends with no connection behind them, besides
// Retry (retry.h):
//
// - Version Negotiation (RFC 9000 section 6): a client's first packet in a
//   version ngtcp2 does not speak is answered with the versions it does, so
//   the client tries again in one of them rather than waiting out a timeout.
//   Only for a datagram of a full Initial's size (1200 bytes), as the RFC
//   asks: a smaller one could make the server amplify a forged source's
//   traffic.
// - Stateless Reset (RFC 9000 section 10.3): a short-header packet for a
//   connection this loop does not have (its worker died and a successor
//   reads the socket; the connection closed) is answered with the reset
//   token the connection ID was issued with, derived from the server's
//   secret, so the client learns at once that the connection is gone. The
//   reset is shorter than the packet that caused it, so two endpoints
//   cannot bounce resets between them for ever.
//
// Loop thread only (each call writes one datagram with sendto).
#pragma once

#include <array>
#include <cstdint>

#include <ngtcp2/ngtcp2.h>

#include "core/net/datagram.h"

namespace baton::quic {

// The smallest datagram a Version Negotiation answers.
constexpr size_t version_negotiation_trigger_bytes = 1200;
// The smallest packet a Stateless Reset answers: a reset is at least 21
// bytes (RFC 9000 section 10.3) and always shorter than its trigger, and a
// trigger this short may itself be a reset.
constexpr size_t stateless_reset_trigger_bytes = 42;

// `vc` is what ngtcp2_pkt_decode_version_cid read from `d` when it found
// the version unsupported. False when nothing was sent.
bool send_version_negotiation(const net::datagram& d, const ngtcp2_version_cid& vc);

// The reset for `dcid` (the unknown connection's ID in `d`), with the token
// `secret` derives for it. False when nothing was sent (`d` too short).
bool send_stateless_reset(const net::datagram& d, const ngtcp2_cid& dcid, const std::array<uint8_t, 32>& secret);

}  // namespace baton::quic
