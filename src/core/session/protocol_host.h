// What every HTTP protocol on a session needs from the server that owns it,
// and the limits and timeouts they all keep for a connection's requests.
// The protocols are siblings: none includes another. Which protocol follows
// which (ALPN, HTTP/2's preface, an Upgrade, a WebSocket's 101) is the
// server's to decide, through this interface.
//
// Loop thread only.
#pragma once

#include <memory>
#include <string_view>

#include "core/exchange/exchange.h"
#include "core/exchange/forwarded.h"
#include "core/exchange/request_limits.h"
#include "core/session/session.h"
#include "core/session/switched.h"

namespace baton::session {

struct http_settings {
  exchange::request_limits request_limits;
  int keep_alive_timeout_ms = 5000;
  int header_read_timeout_ms = 10000;
  int body_read_timeout_ms = 60000;  // the whole body, not per read
  // A drain gives an idle keep-alive connection this long to send the
  // request that may already be on its way.
  int drain_idle_grace_ms = 1000;
  exchange::exchange_settings exchanges;
  exchange::proxy_settings proxy;
};

// The server's answer to a request that asks to switch protocols.
struct upgrade_verdict {
  enum class kind : uint8_t {
    not_offered,  // served as a plain request (nothing to switch to, or not asked for one the server knows)
    offered,      // the exchange carries the offer; the app's answer decides
    refused,      // malformed: answered with `status` without the app
  };
  kind result = kind::not_offered;
  int status = 0;
  const char* reason = "";
  std::string_view extra_fields;  // for the refusal, as HTTP/1 lines ("name: value\r\n")
};

class protocol_host {
 public:
  // A fresh exchange for a request (one reference: the caller's).
  virtual exchange::exchange* new_exchange() = 0;
  // Hands an exchange to the application (runs it now, or queues it).
  virtual void submit(exchange::exchange* x) = 0;
  // A response is complete (its app side is done, or the core answered it);
  // called before the protocol lets go of `x`.
  virtual void request_done(exchange::exchange* x) { (void)x; }
  // A request asked to switch protocols (an Upgrade field): whether the
  // switch is offered to its app, and on what terms (set on `x`).
  virtual upgrade_verdict offer_upgrade(exchange::exchange& x) {
    (void)x;
    return {};
  }
  // How long an offered switch waits for its app's answer (0: no limit).
  virtual int upgrade_answer_timeout_ms() const { return 0; }
  // The app accepted the switch offered on `x` and its answer went out: the
  // protocol the session continues with, or null to close the connection.
  virtual std::unique_ptr<protocol> upgrade(session& s, exchange::exchange& x) {
    (void)s;
    (void)x;
    return nullptr;
  }
  // The app accepted the switch offered on `x`, which has a carrier of its
  // own (an HTTP/2 stream, after an extended CONNECT): the protocol that
  // rides it, or null (the stream is reset).
  virtual std::unique_ptr<switched_protocol> switched_on(byte_stream& carrier, exchange::exchange& x) {
    (void)carrier;
    (void)x;
    return nullptr;
  }
  // The connection began with HTTP/2's preface (h2c with prior knowledge):
  // the protocol it goes on in, or null when HTTP/2 is not served.
  virtual std::unique_ptr<protocol> http2_for(session& s) {
    (void)s;
    return nullptr;
  }
  // A request asked for h2c by `Upgrade` (RFC 7540 3.2): the protocol that
  // answers it as stream 1 after the 101 (`settings`: its HTTP2-Settings
  // decoded), or null when HTTP/2 is not served (it is answered as HTTP/1.1).
  virtual std::unique_ptr<protocol> http2_upgrade(session& /*s*/, std::string_view /*settings*/,
                                                  const exchange::request_head& /*h*/) {
    return nullptr;
  }

 protected:
  ~protocol_host() = default;
};

}  // namespace baton::session
