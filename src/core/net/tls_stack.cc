#include "core/net/tls_stack.h"

#include <openssl/crypto.h>

#include "tls_stack_config.h"

#if BATON_HAS_QUIC
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#endif

namespace baton::net {

tls_stack describe_tls_stack() {
  tls_stack stack;
  stack.openssl_version = OpenSSL_version(OPENSSL_VERSION);
#if BATON_HAS_QUIC
  // Asked of the libraries themselves (not their headers), so the answer
  // proves they are linked in.
  stack.has_quic = true;
  stack.quic_libraries = std::string("ngtcp2 ") + ngtcp2_version(0)->version_str + ", nghttp3 " +
                         nghttp3_version(0)->version_str;
#else
  stack.quic_absent_reason = BATON_QUIC_ABSENT_REASON;
#endif
  return stack;
}

}  // namespace baton::net
