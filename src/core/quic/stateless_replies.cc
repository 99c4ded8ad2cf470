#include "core/quic/stateless_replies.h"

#include <openssl/rand.h>
#include <sys/socket.h>

#include <algorithm>

#include <ngtcp2/ngtcp2_crypto.h>

namespace baton::quic {
namespace {

bool send_to_peer(const net::datagram& d, const uint8_t* packet, ngtcp2_ssize n) {
  return n > 0 && ::sendto(d.fd, packet, static_cast<size_t>(n), MSG_DONTWAIT, d.peer, d.peer_length) == n;
}

}  // namespace

bool send_version_negotiation(const net::datagram& d, const ngtcp2_version_cid& vc) {
  if (d.length < version_negotiation_trigger_bytes) return false;
  const uint32_t versions[] = {NGTCP2_PROTO_VER_V1};
  uint8_t unused = 0;
  RAND_bytes(&unused, 1);
  uint8_t packet[256];
  // The client's source ID is the answer's destination, and its destination ours.
  ngtcp2_ssize n = ngtcp2_pkt_write_version_negotiation(packet, sizeof(packet), unused, vc.scid, vc.scidlen, vc.dcid,
                                                        vc.dcidlen, versions, std::size(versions));
  return send_to_peer(d, packet, n);
}

bool send_stateless_reset(const net::datagram& d, const ngtcp2_cid& dcid, const std::array<uint8_t, 32>& secret) {
  if (d.length < stateless_reset_trigger_bytes) return false;
  ngtcp2_stateless_reset_token token;
  if (ngtcp2_crypto_generate_stateless_reset_token(token.data, secret.data(), secret.size(), &dcid) != 0) return false;
  // At most 43 bytes (as long as a short packet of ours with a small
  // payload), and one byte shorter than the trigger.
  const size_t total = std::min<size_t>(d.length - 1, 43);
  uint8_t random[64];
  const size_t random_length = total - NGTCP2_STATELESS_RESET_TOKENLEN;
  RAND_bytes(random, static_cast<int>(random_length));
  uint8_t packet[64];
  ngtcp2_ssize n = ngtcp2_pkt_write_stateless_reset2(packet, sizeof(packet), &token, random, random_length);
  return send_to_peer(d, packet, n);
}

}  // namespace baton::quic
