// The TLS library the core links: the headers it was compiled with are the
// library's own, and, where OpenSSL has the QUIC TLS API, ngtcp2's crypto
// layer stands on it (RFC 9001's Initial secret derived through it, and a
// server-side SSL configured for QUIC).
#include "core/net/tls_stack.h"

#include <gtest/gtest.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/ssl.h>

#include <array>
#include <cstdint>
#include <memory>

#include "tls_stack_config.h"

#if BATON_HAS_QUIC
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_ossl.h>
#endif

namespace baton::net {
namespace {

TEST(tls_stack, names_the_openssl_linked_which_is_the_one_its_headers_came_from) {
  const tls_stack stack = describe_tls_stack();
  EXPECT_EQ(stack.openssl_version, OpenSSL_version(OPENSSL_VERSION));
  EXPECT_EQ(OpenSSL_version_num(), static_cast<unsigned long>(OPENSSL_VERSION_NUMBER));
  EXPECT_EQ(stack.has_quic, BATON_HAS_QUIC != 0);
  EXPECT_EQ(stack.quic_absent_reason.empty(), stack.has_quic);
  EXPECT_EQ(stack.quic_libraries.empty(), !stack.has_quic);
}

#if BATON_HAS_QUIC

struct ssl_ctx_free {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
struct ssl_free {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

TEST(tls_stack, quic_needs_openssl_3_5_or_newer) {
  EXPECT_GE(OpenSSL_version_num(), 0x30500000UL);
  EXPECT_EQ(describe_tls_stack().quic_libraries,
            std::string("ngtcp2 ") + NGTCP2_VERSION + ", nghttp3 " + NGHTTP3_VERSION);
}

// RFC 9001, Appendix A.1: the Initial secret of the client's first packet
// to the connection ID 0x8394c8f03e515708, under QUIC v1's salt.
TEST(tls_stack, ngtcp2_crypto_derives_rfc_9001s_initial_secret_through_openssl) {
  ASSERT_EQ(ngtcp2_crypto_ossl_init(), 0);
  const std::array<uint8_t, 20> salt = {0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
                                        0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};
  const std::array<uint8_t, 8> dcid = {0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08};
  const std::array<uint8_t, 32> expected = {0x7d, 0xb5, 0xdf, 0x06, 0xe7, 0xa6, 0x9e, 0x43, 0x24, 0x96, 0xad,
                                            0xed, 0xb0, 0x08, 0x51, 0x92, 0x35, 0x95, 0x22, 0x15, 0x96, 0xae,
                                            0x2a, 0xe9, 0xfb, 0x81, 0x15, 0xc1, 0xe9, 0xed, 0x0a, 0x44};
  ngtcp2_crypto_md md;
  ngtcp2_crypto_md_init(&md, const_cast<EVP_MD*>(EVP_sha256()));
  ASSERT_EQ(ngtcp2_crypto_md_hashlen(&md), expected.size());
  std::array<uint8_t, 32> secret{};
  ASSERT_EQ(ngtcp2_crypto_hkdf_extract(secret.data(), &md, dcid.data(), dcid.size(), salt.data(), salt.size()), 0);
  EXPECT_EQ(secret, expected);
}

// A server-side SSL of a TLS 1.3-only context, handed to ngtcp2's crypto
// layer: it installs its QUIC TLS callbacks (SSL_set_quic_tls_cbs) and
// takes the SSL into a per-connection context, as a QUIC listener will for
// each connection.
TEST(tls_stack, an_ngtcp2_server_crypto_context_takes_an_openssl_server_session) {
  ASSERT_EQ(ngtcp2_crypto_ossl_init(), 0);
  std::unique_ptr<SSL_CTX, ssl_ctx_free> ctx(SSL_CTX_new(TLS_server_method()));
  ASSERT_NE(ctx, nullptr);
  ASSERT_EQ(SSL_CTX_set_min_proto_version(ctx.get(), TLS1_3_VERSION), 1);
  ASSERT_EQ(SSL_CTX_set_max_proto_version(ctx.get(), TLS1_3_VERSION), 1);
  std::unique_ptr<SSL, ssl_free> ssl(SSL_new(ctx.get()));
  ASSERT_NE(ssl, nullptr);
  ngtcp2_crypto_conn_ref conn_ref{[](ngtcp2_crypto_conn_ref*) -> ngtcp2_conn* { return nullptr; }, nullptr};
  SSL_set_app_data(ssl.get(), &conn_ref);
  EXPECT_EQ(ngtcp2_crypto_ossl_configure_server_session(ssl.get()), 0);
  ngtcp2_crypto_ossl_ctx* quic_ctx = nullptr;
  ASSERT_EQ(ngtcp2_crypto_ossl_ctx_new(&quic_ctx, ssl.get()), 0);
  EXPECT_EQ(ngtcp2_crypto_ossl_ctx_get_ssl(quic_ctx), ssl.get());
  EXPECT_TRUE(SSL_is_server(ssl.get()));
  ngtcp2_crypto_ossl_ctx_del(quic_ctx);
  SSL_set_app_data(ssl.get(), nullptr);
}

#endif

}  // namespace
}  // namespace baton::net
