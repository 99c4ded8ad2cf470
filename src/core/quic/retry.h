// Address validation with Retry (RFC 9000 section 8.1.2). ngtcp2 asks for it
// when a client's first Initial does not begin its ClientHello (a hello too
// large for one packet, post-quantum key shares, whose later part arrived
// first): the server then keeps no state, answers with a Retry carrying a
// token bound to the client's address and the IDs, and the client starts
// again with the token, which proves it owns the address. Tokens are
// sealed with a secret of this loop's, made at start, and live briefly.
//
// Loop thread only.
#pragma once

#include <array>
#include <cstdint>

#include <ngtcp2/ngtcp2.h>

#include "core/net/datagram.h"

namespace baton::quic {

class retry_tokens {
 public:
  // False when no random secret could be drawn.
  bool init();
  // Sends a Retry for the Initial `hd` of `d`, with `retry_scid` as the
  // server's new ID. False when it could not be made (nothing is sent).
  bool send(const net::datagram& d, const ngtcp2_pkt_hd& hd, const ngtcp2_cid& retry_scid,
            uint64_t now_ns) const;
  // An Initial that carries a Retry token of ours: its original
  // destination ID (the one the client first chose) into `original`, or
  // false when the token is not ours, expired, or for another address.
  bool verify(const net::datagram& d, const ngtcp2_pkt_hd& hd, ngtcp2_cid& original, uint64_t now_ns) const;
  // Whether an Initial carries a Retry token at all.
  static bool carries_retry_token(const ngtcp2_pkt_hd& hd);

 private:
  std::array<uint8_t, 32> secret_{};
};

}  // namespace baton::quic
