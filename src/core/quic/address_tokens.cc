#include "core/quic/address_tokens.h"

#include <openssl/evp.h>

#include <cstring>

#include <ngtcp2/ngtcp2_crypto.h>

namespace baton::quic {
namespace {
// How long a token is good for: a client coming back within the hour
// skips the Retry (ngtcp2's own examples keep them an hour too).
constexpr uint64_t token_lifetime = 3600 * NGTCP2_SECONDS;
// Keeps the tokens' secret apart from the reset tokens' it comes from.
constexpr char label[] = "baton quic address tokens";
}  // namespace

bool address_tokens::init(const std::array<uint8_t, 32>& shared) {
  unsigned char material[sizeof(label) - 1 + 32];
  std::memcpy(material, label, sizeof(label) - 1);
  std::memcpy(material + sizeof(label) - 1, shared.data(), shared.size());
  unsigned int length = 0;
  return EVP_Digest(material, sizeof(material), secret_.data(), &length, EVP_sha256(), nullptr) == 1 &&
         length == secret_.size();
}

size_t address_tokens::make(const sockaddr* address, socklen_t length, uint64_t now_ns, uint8_t* out) const {
  ngtcp2_ssize n = ngtcp2_crypto_generate_regular_token(out, secret_.data(), secret_.size(), address, length, now_ns);
  return n > 0 ? static_cast<size_t>(n) : 0;
}

bool address_tokens::verify(const net::datagram& d, const ngtcp2_pkt_hd& hd, uint64_t now_ns) const {
  return ngtcp2_crypto_verify_regular_token(hd.token, hd.tokenlen, secret_.data(), secret_.size(), d.peer,
                                            d.peer_length, token_lifetime, now_ns) == 0;
}

bool address_tokens::carried(const ngtcp2_pkt_hd& hd) {
  return hd.type == NGTCP2_PKT_INITIAL && hd.tokenlen > 0 && hd.token[0] == NGTCP2_CRYPTO_TOKEN_MAGIC_REGULAR;
}

}  // namespace baton::quic
