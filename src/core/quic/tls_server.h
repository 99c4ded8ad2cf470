// The TLS side of QUIC: one SSL_CTX a server, made from the server's TCP
// tls_context (the same certificate, chain and key, nothing read again),
// TLS 1.3 only and ALPN "h3", and the SSL object of each connection wired
// to ngtcp2's OpenSSL crypto layer (ngtcp2_crypto_ossl).
//
// Made and used on the loop thread; the SSL_CTX is never changed once made.
#pragma once

#include <openssl/ssl.h>

#include <memory>
#include <string>

#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_ossl.h>

#include "core/net/tls.h"

namespace baton::quic {

class tls_server {
 public:
  // Null with `error` saying why (OpenSSL's reason).
  static std::unique_ptr<tls_server> make(const net::tls_context& tcp, std::string& error);
  ~tls_server();
  tls_server(const tls_server&) = delete;
  tls_server& operator=(const tls_server&) = delete;

  SSL_CTX* native() const { return ctx_; }

 private:
  tls_server() = default;
  SSL_CTX* ctx_ = nullptr;
};

// One connection's TLS: the SSL object and ngtcp2's context over it. The
// SSL's app data is `ref`, through which the crypto layer finds the
// ngtcp2_conn; `ref` must outlive this.
class tls_session {
 public:
  tls_session() = default;
  ~tls_session();
  tls_session(const tls_session&) = delete;
  tls_session& operator=(const tls_session&) = delete;

  // False with `error` set when OpenSSL or ngtcp2 refuses.
  bool start(const tls_server& server, ngtcp2_crypto_conn_ref* ref, std::string& error);
  ngtcp2_crypto_ossl_ctx* native() const { return ctx_; }
  // The cipher suite the handshake settled on (its IANA number), or 0.
  uint16_t cipher_suite() const;

 private:
  SSL* ssl_ = nullptr;
  ngtcp2_crypto_ossl_ctx* ctx_ = nullptr;
};

}  // namespace baton::quic
