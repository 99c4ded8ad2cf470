// Tokens for a client's next connection (NEW_TOKEN, RFC 9000 section
// 8.1.3). Once a handshake completes the connection gives its client a
// token, sealed with a secret every loop and worker of the server shares
// (derived from the stateless reset secret the master hands out) and bound
// to the client's IP address. The first Initial of a later connection that
// carries it has its address proven at once, whichever loop it reaches: it
// is not asked for a Retry under an Initial flood (--quic-retry), and the
// handshake's first flight is not held to three times what the client sent.
// A token that does not verify (another server's, expired, from another
// address) counts for nothing: the Initial is taken as one without a token,
// and retried when Retry is on.
//
// Loop thread only (each endpoint holds its own copy of the secret).
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include "core/net/datagram.h"

namespace baton::quic {

class address_tokens {
 public:
  // The sealing secret, derived from the server's shared secret `shared`.
  // False when it cannot be.
  bool init(const std::array<uint8_t, 32>& shared);
  // A token for the client at `address`, made at `now_ns`, into `out` (at
  // least max_length bytes): its length, or 0 when none could be made.
  size_t make(const sockaddr* address, socklen_t length, uint64_t now_ns, uint8_t* out) const;
  // Whether the first Initial `hd` of `d` carries a token of ours for its
  // sender's address, still good at `now_ns`.
  bool verify(const net::datagram& d, const ngtcp2_pkt_hd& hd, uint64_t now_ns) const;
  // Whether an Initial carries a NEW_TOKEN token at all (one of ours by its
  // first byte, not yet checked).
  static bool carried(const ngtcp2_pkt_hd& hd);

  static constexpr size_t max_length = NGTCP2_CRYPTO_MAX_REGULAR_TOKENLEN;

 private:
  std::array<uint8_t, 32> secret_{};
};

}  // namespace baton::quic
