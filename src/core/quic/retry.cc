#include "core/quic/retry.h"

#include <openssl/rand.h>
#include <sys/socket.h>

#include <ngtcp2/ngtcp2_crypto.h>

namespace baton::quic {
namespace {
// How long a Retry token is good for: one round trip and a retransmission
// or two, with room for a slow client.
constexpr uint64_t token_lifetime = 10 * NGTCP2_SECONDS;
}  // namespace

bool retry_tokens::init() { return RAND_bytes(secret_.data(), static_cast<int>(secret_.size())) == 1; }

bool retry_tokens::carries_retry_token(const ngtcp2_pkt_hd& hd) {
  return hd.type == NGTCP2_PKT_INITIAL && hd.tokenlen > 0 && hd.token[0] == NGTCP2_CRYPTO_TOKEN_MAGIC_RETRY2;
}

bool retry_tokens::send(const net::datagram& d, const ngtcp2_pkt_hd& hd, const ngtcp2_cid& retry_scid,
                        uint64_t now_ns) const {
  uint8_t token[NGTCP2_CRYPTO_MAX_RETRY_TOKENLEN2];
  ngtcp2_ssize token_length = ngtcp2_crypto_generate_retry_token2(
      token, secret_.data(), secret_.size(), hd.version, d.peer, d.peer_length, &retry_scid, &hd.dcid, now_ns);
  if (token_length < 0) return false;
  uint8_t packet[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
  ngtcp2_ssize n = ngtcp2_crypto_write_retry(packet, sizeof(packet), hd.version, &hd.scid, &retry_scid, &hd.dcid,
                                             token, static_cast<size_t>(token_length));
  if (n < 0) return false;
  return ::sendto(d.fd, packet, static_cast<size_t>(n), MSG_DONTWAIT, d.peer, d.peer_length) == n;
}

bool retry_tokens::verify(const net::datagram& d, const ngtcp2_pkt_hd& hd, ngtcp2_cid& original,
                          uint64_t now_ns) const {
  return ngtcp2_crypto_verify_retry_token2(&original, hd.token, hd.tokenlen, secret_.data(), secret_.size(),
                                           hd.version, d.peer, d.peer_length, &hd.dcid, token_lifetime,
                                           now_ns) == 0;
}

}  // namespace baton::quic
