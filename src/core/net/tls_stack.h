// Which TLS library the core was built with, for the command line and the
// tests: the OpenSSL linked (the static 3.5 `make openssl` builds, or the
// system's) and whether QUIC is available, which needs OpenSSL's QUIC TLS
// API (3.5 and newer) under ngtcp2 and nghttp3. Settled at build time
// (meson.build); reading it is free of side effects and safe from any thread.
#pragma once

#include <string>

namespace baton::net {

struct tls_stack {
  std::string openssl_version;     // OpenSSL_version(OPENSSL_VERSION) of the library linked
  bool has_quic = false;           // ngtcp2, its OpenSSL crypto layer and nghttp3 are built in
  std::string quic_libraries;      // "ngtcp2 1.25.0, nghttp3 1.18.0", empty without QUIC
  std::string quic_absent_reason;  // one line, empty with QUIC
};

tls_stack describe_tls_stack();

}  // namespace baton::net
