// The request part of an exchange: the head (an owned copy of the bytes the
// protocol parsed, with every view re-pointed into it) and who sent it (the
// connection's peer and TLS, or whom a trusted proxy names).
//
// Threads. The loop side writes it before dispatch (assign, set_client,
// keep_exact); from dispatch on it is fixed, and the app side reads it
// without a lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/exchange/forwarded.h"
#include "core/exchange/head.h"
#include "core/net/tls_facts.h"
#include "core/util/byte_buffer.h"

namespace baton::exchange {

class request {
 public:
  // Loop side: makes this the request whose head is `parsed`, whose views
  // all point into raw[0, raw_length) (or are constants): copies those
  // bytes and re-points every view into the copy.
  void assign(const request_head& parsed, const char* raw, size_t raw_length);
  // Loop side: the same without a copy, for a protocol that built the head
  // in a buffer of its own (HTTP/2): `bytes` (which the views point into)
  // and `fields` (parsed.fields) are taken as they are, and given the
  // request's old storage in exchange.
  void adopt(const request_head& parsed, byte_buffer& bytes, std::vector<field>& fields);
  // Loop side: the client. `proxy`: the peer is a trusted proxy; its
  // forwarding headers decide peer(), scheme() and forwarded_port().
  void set_client(const peer_info& peer, const proxy_settings* proxy);
  // Loop side: the head kept in storage of its own size from now on (a
  // WebSocket holds it for as long as it is open).
  void keep_exact();

  const request_head& head() const { return head_; }
  // The client: the connection's peer, or whom a trusted proxy names.
  peer_info peer() const {
    return {std::string_view(peer_address_, peer_address_length_), peer_port_, listener_, nullptr,
            std::string_view(server_address_, server_address_length_), server_port_};
  }
  // "https" when the connection is secure or a trusted proxy says the client used it; "http" otherwise.
  std::string_view scheme() const { return https_ ? "https" : "http"; }
  // What the connection's TLS settled on, or null when it is plain TCP
  // (whatever a proxy says).
  const net::tls_facts* tls() const { return secure_ ? &tls_ : nullptr; }
  // The port the client connected to, when a trusted proxy says; "" otherwise.
  std::string_view forwarded_port() const { return {forwarded_port_, forwarded_port_length_}; }
  size_t storage_bytes() const { return head_bytes_.capacity() + fields_.capacity() * sizeof(field); }

 private:
  byte_buffer head_bytes_;  // a copy of the raw head; head_'s views point into it
  std::vector<field> fields_;
  request_head head_;
  char peer_address_[48] = {};
  size_t peer_address_length_ = 0;
  uint16_t peer_port_ = 0;
  uint16_t listener_ = 0;
  char server_address_[46] = {};  // what a PROXY header named; empty without one
  uint8_t server_address_length_ = 0;
  uint16_t server_port_ = 0;
  bool https_ = false;
  bool secure_ = false;  // the connection is TLS (tls_ holds what it settled on)
  net::tls_facts tls_;
  char forwarded_port_[6] = {};
  size_t forwarded_port_length_ = 0;
};

}  // namespace baton::exchange
