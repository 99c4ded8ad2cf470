#include "core/server/quic_endpoint.h"

#include <stdexcept>
#include <string>

#include "tls_stack_config.h"
#if BATON_HAS_QUIC
#include "core/quic/endpoint.h"
#endif

namespace baton::server {

std::unique_ptr<net::datagram_sink> make_quic_endpoint(const server_config& config, loop::event_loop& loop,
                                                       const gate::request_gate& gate,
                                                       const exchange::pseudo_framing& wire) {
  if (!config.http3) return nullptr;
#if BATON_HAS_QUIC
  if (config.tls == nullptr) throw std::runtime_error("HTTP/3 needs TLS (QUIC has no cleartext form)");
  std::string error;
  quic::context ctx{gate, wire, config.websocket.enabled};
  std::unique_ptr<quic::endpoint> made = quic::endpoint::make(loop, *config.tls, ctx, config.quic_cid,
                                                                 config.quic_reset_secret, config.quic_retry, error);
  if (made == nullptr) throw std::runtime_error("HTTP/3: " + error);
  return made;
#else
  (void)loop;
  (void)gate;
  (void)wire;
  throw std::runtime_error(std::string("HTTP/3 is not in this build: ") + BATON_QUIC_ABSENT_REASON);
#endif
}

}  // namespace baton::server
