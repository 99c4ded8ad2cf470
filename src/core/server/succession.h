// Succession: which protocol follows which, decided in this one place. A
// connection begins with the PROXY header when --proxy-protocol is on, then
// TLS when serving it, then the HTTP the settings allow: HTTP/1.1, or HTTP/2
// chosen by ALPN, by the client's preface (h2c with prior knowledge), or by
// `Upgrade: h2c`. A request that asks to switch (an HTTP/1.1 Upgrade, an
// HTTP/2 extended CONNECT) is offered to the app as a WebSocket when the app
// serves them, and the app's 101 (or 200) hands the connection (or the
// stream) to the WebSocket protocol.
//
// The protocols never name each other; each asks its host, and the server
// passes the question here. Loop thread only.
#pragma once

#include <memory>
#include <string_view>

#include "core/http1/protocol.h"
#include "core/http2/protocol.h"
#include "core/server/server_config.h"
#include "core/session/protocol_host.h"
#include "core/session/proxy_preface.h"
#include "core/session/tls_handshake.h"
#include "core/ws/protocol.h"

namespace baton::server {

class succession final : private session::handshake_host, private session::preface_host {
 public:
  succession(const server_config& config, http1::context& http1, http2::context& http2, ws::context& websocket,
             ws::wire& websocket_wire)
      : config_(config), http1_(http1), http2_(http2), ws_(websocket), ws_wire_(websocket_wire) {}
  succession(const succession&) = delete;
  succession& operator=(const succession&) = delete;

  // What a new connection speaks first: the PROXY header, or what follows it.
  std::unique_ptr<session::protocol> opening(session::session& s);

  // The protocols' questions (session/protocol_host.h says what each means).
  session::upgrade_verdict offer_upgrade(exchange::exchange& x);
  int upgrade_answer_timeout_ms() const;
  std::unique_ptr<session::protocol> upgrade(session::session& s, exchange::exchange& x);
  std::unique_ptr<session::switched_protocol> switched_on(session::byte_stream& carrier, exchange::exchange& x);
  std::unique_ptr<session::protocol> http2_for(session::session& s);
  std::unique_ptr<session::protocol> http2_upgrade(session::session& s, std::string_view settings,
                                                   const exchange::request_head& h);

 private:
  // After the PROXY header (or without one): TLS, or the first HTTP.
  std::unique_ptr<session::protocol> first_protocol(session::session& s) override;
  void proxy_header_refused() override;
  // ALPN chose: h2, or HTTP/1.1 (also for a client that named neither).
  std::unique_ptr<session::protocol> after_handshake(session::session& s, const net::tls_facts& facts) override;
  void handshake_failed() override;

  const server_config& config_;
  http1::context& http1_;
  http2::context& http2_;
  ws::context& ws_;
  ws::wire& ws_wire_;
};

}  // namespace baton::server
