// What a TLS connection settled on in its handshake, for the app (ASGI's
// tls extension) and the choice of protocol. No OpenSSL types: the exchange
// keeps a copy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace baton::net {

// The certificate a client sent (mutual TLS), verified; made once per
// connection and shared by its requests.
struct client_certificate {
  std::vector<std::string> chain_pem;  // leaf first
  std::string subject;                 // RFC 4514
};

struct tls_facts {
  uint16_t version = 0;       // 0x0303 for TLS 1.2, 0x0304 for 1.3
  uint16_t cipher_suite = 0;  // the IANA number
  bool h2 = false;            // ALPN chose h2
  std::shared_ptr<const client_certificate> client;  // null when the client sent none
};

}  // namespace baton::net
