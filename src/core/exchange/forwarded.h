// Proxy headers: who the client really is, when a trusted proxy says so.
//
// A request that arrives from a trusted peer (an address in the allow list,
// or a Unix socket, which only a local proxy can reach) may carry
// X-Forwarded-For, X-Forwarded-Proto, X-Forwarded-Port or RFC 7239's
// Forwarded; from anyone else they are ignored, so a client cannot claim to
// be someone it is not. The client is the rightmost address in the chain
// that is not itself a trusted proxy (each proxy appends the address it saw),
// as uvicorn takes it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/head.h"

namespace baton::exchange {

class address_list {
 public:
  // Comma-separated IPv4/IPv6 addresses and CIDR networks, or "*" for any.
  // Returns false (with `error` set) when an entry is not one.
  bool parse(std::string_view text, std::string& error);
  bool contains(std::string_view address) const;
  // The same for an address already parsed (AF_INET or AF_INET6 bytes).
  bool contains(const uint8_t bytes[16], int family) const;
  bool any() const { return any_; }

 private:
  struct network {
    uint8_t bytes[16] = {};
    int family = 0;
    int prefix = 0;
  };
  std::vector<network> networks_;
  bool any_ = false;
};

struct proxy_settings {
  bool enabled = true;
  address_list trusted;      // default: 127.0.0.1
  bool trust_unix = true;    // a Unix-socket peer is a local proxy

  // Whether a peer at `address` (empty: a Unix socket) is a proxy whose
  // word on the client counts.
  bool trusts(std::string_view address) const { return address.empty() ? trust_unix : trusted.contains(address); }
};

// What the proxy headers say; empty fields mean "not given".
struct forwarded_facts {
  std::string_view client;  // an address
  uint16_t client_port = 0;
  std::string_view proto;   // "http" or "https" (also ws/wss)
  std::string_view port;    // the port the client connected to
};

// Reads the proxy headers of `head` (its views stay those of head).
void read_forwarded(const request_head& head, const proxy_settings& proxy, forwarded_facts& out);

}  // namespace baton::exchange
