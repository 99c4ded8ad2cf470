#include "core/server/succession.h"

#include <string>

#include "core/metrics/record.h"

namespace baton::server {

std::unique_ptr<session::protocol> succession::opening(session::session& s) {
  if (!config_.proxy_protocol) return first_protocol(s);
  session::preface_host& host = *this;
  return std::make_unique<session::proxy_preface>(s, host, config_.requests.proxy,
                                                  config_.requests.header_read_timeout_ms,
                                                  config_.requests.drain_idle_grace_ms);
}

std::unique_ptr<session::protocol> succession::first_protocol(session::session& s) {
  if (s.tls() != nullptr) {
    session::handshake_host& host = *this;
    return std::make_unique<session::tls_handshake>(s, *s.tls(), host, config_.requests.header_read_timeout_ms,
                                                    config_.requests.drain_idle_grace_ms);
  }
  if (config_.http == http_versions::http2_only) return std::make_unique<http2::protocol>(http2_, s);
  return std::make_unique<http1::protocol>(http1_, s);
}

void succession::proxy_header_refused() { metrics::rejected(config_.metrics, metrics::rejection::proxy_header); }

void succession::handshake_failed() { metrics::rejected(config_.metrics, metrics::rejection::tls_handshake); }

std::unique_ptr<session::protocol> succession::after_handshake(session::session& s, const net::tls_facts& facts) {
  if (facts.h2 || config_.http == http_versions::http2_only) return std::make_unique<http2::protocol>(http2_, s);
  return std::make_unique<http1::protocol>(http1_, s);
}

// An HTTP/1 connection that turned out to speak HTTP/2 (h2c with prior
// knowledge), when HTTP/2 is served.
std::unique_ptr<session::protocol> succession::http2_for(session::session& s) {
  if (config_.http == http_versions::http1_only) return nullptr;
  return std::make_unique<http2::protocol>(http2_, s);
}

std::unique_ptr<session::protocol> succession::http2_upgrade(session::session& s, std::string_view settings,
                                                             const exchange::request_head& h) {
  if (config_.http != http_versions::automatic) return nullptr;
  auto p = std::make_unique<http2::protocol>(http2_, s);
  p->expect_upgrade(std::string(settings), h);
  return p;
}

// An HTTP/1.1 request with an Upgrade field: a WebSocket opening, when the
// app serves them.
session::upgrade_verdict succession::offer_upgrade(exchange::exchange& x) {
  if (!config_.websocket.enabled) return {};
  return ws::offer_opening(x, config_.websocket, ws_wire_);
}

int succession::upgrade_answer_timeout_ms() const {
  return config_.websocket.enabled ? config_.websocket.handshake_timeout_ms : 0;
}

// A 101 the app finished for a WebSocket: the session goes on as one.
std::unique_ptr<session::protocol> succession::upgrade(session::session& s, exchange::exchange& x) {
  if (!x.upgrade().websocket() || !x.switched()) return nullptr;
  return std::make_unique<ws::protocol>(ws_, s, x);
}

// An extended CONNECT's 200 the app finished for a WebSocket (RFC 8441):
// its HTTP/2 stream goes on as one.
std::unique_ptr<session::switched_protocol> succession::switched_on(session::byte_stream& carrier,
                                                                   exchange::exchange& x) {
  if (!x.upgrade().websocket() || !x.switched()) return nullptr;
  return std::make_unique<ws::endpoint>(ws_, carrier, x);
}

}  // namespace baton::server
