#include "core/quic/tls_server.h"

#include <openssl/err.h>

namespace baton::quic {
namespace {

std::string openssl_reason(const char* what) {
  unsigned long code = ERR_get_error();
  char text[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  ERR_clear_error();
  return std::string(what) + ": " + text;
}

// HTTP/3 is the only protocol QUIC carries here; a client that offers no
// "h3" is refused in the handshake (no_application_protocol).
int select_h3(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_length, const unsigned char* offered,
              unsigned int offered_length, void* /*arg*/) {
  static const unsigned char ours[] = {2, 'h', '3'};
  unsigned char* chosen = nullptr;
  if (SSL_select_next_proto(&chosen, out_length, ours, sizeof(ours), offered, offered_length) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_ALERT_FATAL;
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

// The crypto layer's global set-up (its OpenSSL objects), once a process.
bool init_crypto_once() {
  static const bool ok = ngtcp2_crypto_ossl_init() == 0;
  return ok;
}

}  // namespace

std::unique_ptr<tls_server> tls_server::make(const net::tls_context& tcp, std::string& error) {
  if (!init_crypto_once()) {
    error = "ngtcp2's OpenSSL crypto layer could not start";
    return nullptr;
  }
  std::unique_ptr<tls_server> made(new tls_server());
  made->ctx_ = SSL_CTX_new(TLS_server_method());
  if (made->ctx_ == nullptr) {
    error = openssl_reason("SSL_CTX_new");
    return nullptr;
  }
  SSL_CTX* ctx = made->ctx_;
  SSL_CTX* source = tcp.native();
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_PRIORITIZE_CHACHA | SSL_OP_NO_ANTI_REPLAY);
  if (SSL_CTX_set_ciphersuites(ctx, net::tls13_ciphersuites) != 1) {
    error = openssl_reason("TLS 1.3's suites for QUIC");
    return nullptr;
  }
  SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
  SSL_CTX_set_alpn_select_cb(ctx, select_h3, nullptr);
  X509* certificate = SSL_CTX_get0_certificate(source);
  EVP_PKEY* key = SSL_CTX_get0_privatekey(source);
  if (certificate == nullptr || key == nullptr || SSL_CTX_use_certificate(ctx, certificate) != 1 ||
      SSL_CTX_use_PrivateKey(ctx, key) != 1) {
    error = openssl_reason("the TLS certificate and key for QUIC");
    return nullptr;
  }
  STACK_OF(X509)* chain = nullptr;
  if (SSL_CTX_get0_chain_certs(source, &chain) == 1 && chain != nullptr && SSL_CTX_set1_chain(ctx, chain) != 1) {
    error = openssl_reason("the certificate chain for QUIC");
    return nullptr;
  }
  return made;
}

tls_server::~tls_server() {
  if (ctx_ != nullptr) SSL_CTX_free(ctx_);
}

uint16_t tls_session::cipher_suite() const {
  const SSL_CIPHER* cipher = ssl_ != nullptr ? SSL_get_current_cipher(ssl_) : nullptr;
  return cipher != nullptr ? SSL_CIPHER_get_protocol_id(cipher) : 0;
}

tls_session::~tls_session() {
  // The crypto context points at the SSL object: it goes first.
  if (ctx_ != nullptr) ngtcp2_crypto_ossl_ctx_del(ctx_);
  if (ssl_ != nullptr) SSL_free(ssl_);
}

bool tls_session::start(const tls_server& server, ngtcp2_crypto_conn_ref* ref, std::string& error) {
  ssl_ = SSL_new(server.native());
  if (ssl_ == nullptr) {
    error = openssl_reason("SSL_new");
    return false;
  }
  if (ngtcp2_crypto_ossl_ctx_new(&ctx_, nullptr) != 0) {
    error = "ngtcp2_crypto_ossl_ctx_new failed";
    return false;
  }
  ngtcp2_crypto_ossl_ctx_set_ssl(ctx_, ssl_);
  if (ngtcp2_crypto_ossl_configure_server_session(ssl_) != 0) {
    error = openssl_reason("ngtcp2_crypto_ossl_configure_server_session");
    return false;
  }
  SSL_set_app_data(ssl_, ref);
  SSL_set_accept_state(ssl_);
  return true;
}

}  // namespace baton::quic
