// The first protocol of a TLS connection: drives the handshake as the
// socket allows, under a deadline (a client that stalls mid-handshake holds
// one slot only so long, as one that trickles its request head does), then
// hands the session to the protocol ALPN chose. A failed handshake closes
// the connection with a log line naming the client and OpenSSL's reason. A
// drain lets a handshake under way finish within a short grace: the client
// connected before the drain, and its request is still answered.
#pragma once

#include <memory>

#include "core/net/tls.h"
#include "core/session/session.h"

namespace baton::session {

// Who makes the protocol that follows the handshake.
class handshake_host {
 public:
  virtual std::unique_ptr<protocol> after_handshake(session& s, const net::tls_facts& facts) = 0;
  // A handshake failed or did not finish in time (the connection closes).
  virtual void handshake_failed() {}

 protected:
  ~handshake_host() = default;
};

class tls_handshake final : public protocol {
 public:
  // `drain_grace_ms`: how long a handshake under way may still take once a
  // drain begins (then the protocol after it answers with Connection: close).
  tls_handshake(session& s, net::tls_transport& io, handshake_host& host, int timeout_ms, int drain_grace_ms)
      : s_(s), io_(io), host_(host), timeout_ms_(timeout_ms), drain_grace_ms_(drain_grace_ms) {}

  void start() override;
  void on_readable() override { advance(); }
  void on_writable() override { advance(); }
  void on_deadline() override;
  // Reading stays wanted once done: the protocol after it reads at once, and
  // dropping the interest for the one pass between would cost two epoll_ctl.
  plan current_plan() const override { return {true, done_ ? INT64_MAX : deadline_}; }
  void drain() override;
  void on_close() override {}
  size_t release_idle_memory() override { return 0; }

 private:
  void advance();

  session& s_;
  net::tls_transport& io_;
  handshake_host& host_;
  int timeout_ms_;
  int drain_grace_ms_;
  int64_t deadline_ = INT64_MAX;
  bool done_ = false;
};

}  // namespace baton::session
