// The QUIC endpoint of one loop: every datagram its UDP sockets read comes
// here. A table maps each connection ID the server issued to the connection
// that owns it; a datagram goes to the connection its destination ID names,
// or, when it is a client's first Initial, makes a new one. A first packet
// in a version it does not speak is answered with Version Negotiation; a
// short-header packet for an ID of ours it does not know, with a Stateless
// Reset (stateless_replies.h: only under a master's steering, where a
// packet reaches the one loop that could own its ID); anything else is
// dropped.
//
// One a loop, owned by the server; loop thread only.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <ngtcp2/ngtcp2.h>

#include "core/loop/event_loop.h"
#include "core/net/cid_steering.h"
#include "core/net/datagram.h"
#include "core/net/quic_retry_mode.h"
#include "core/net/tls.h"
#include "core/quic/context.h"
#include "core/quic/address_tokens.h"
#include "core/quic/retry.h"
#include "core/quic/tls_server.h"

namespace baton::quic {

class connection;

class endpoint final : public net::datagram_sink, private loop::timer_handler {
 public:
  // Null with `error` saying why (the TLS context could not be made).
  // `ctx` (the loop's request gate and response framing) outlives this.
  // Every connection ID it issues begins with `prefix` when that is on
  // (net/cid_steering.h: the loop's socket in a steered group).
  // `reset_secret` (32 bytes, the same in every loop of the server: a
  // master's) derives the IDs' stateless reset tokens and the secret of the
  // tokens for clients' next connections (address_tokens.h); empty, the
  // process's own random one, which its loops share.
  // `retry` says when a new connection is asked to prove its address.
  static std::unique_ptr<endpoint> make(loop::event_loop& loop, const net::tls_context& tls, const context& ctx,
                                        const net::cid_prefix& prefix, const std::string& reset_secret,
                                        net::quic_retry_mode retry, std::string& error);
  ~endpoint();
  endpoint(const endpoint&) = delete;
  endpoint& operator=(const endpoint&) = delete;

  void on_datagram(const net::datagram& d) override;
  // A drain: new connections are dropped, each open one sends GOAWAY and
  // closes once its requests are done.
  void drain() override;
  // The server stops: every connection closes now (H3_NO_ERROR).
  void close_all() override;
  bool abandon_overdue(int64_t entered_before_ms) override;
  size_t release_idle_memory() override;

  // For the connections.
  loop::event_loop& loop() { return loop_; }
  const tls_server& tls() const { return *tls_; }
  // A fresh connection ID of the server's length, owned by `c`.
  void issue(ngtcp2_cid& cid, connection* c);
  // A fresh ID of the server's length and prefix, in no table yet.
  void fresh(ngtcp2_cid& cid) const;
  void retire(const ngtcp2_cid& cid);
  // The stateless reset token of `cid` (RFC 9000 section 10.3), derived
  // from this endpoint's secret.
  bool reset_token(const ngtcp2_cid& cid, uint8_t* token) const;
  // The tokens connections give their clients for the next connection.
  const address_tokens& tokens() const { return tokens_; }
  // A client's first Initial `d` that must be retried (retry.h): a Retry is sent.
  void retry(const net::datagram& d);
  // A connection closed: freed on the next turn, not inside its own call.
  void closed(connection* c);
  // A connection's handshake completed.
  void handshake_done() { --handshaking_; }
  size_t open_connections() const override { return live_.size(); }

  // The length of every connection ID this server issues.
  static constexpr size_t cid_length = net::server_cid_length;

 private:
  endpoint(loop::event_loop& loop, const context& ctx, const net::cid_prefix& prefix);
  void on_timer() override;  // frees the connections that closed
  void accept(const net::datagram& d);
  // A short-header packet whose ID is in no table.
  void stray(const net::datagram& d, const ngtcp2_version_cid& vc) const;
  void forget(connection* c);

  loop::event_loop& loop_;
  const context context_;
  const net::cid_prefix prefix_;
  net::quic_retry_mode retry_mode_ = net::quic_retry_mode::automatic;
  size_t handshaking_ = 0;  // connections accepted whose handshake has not completed
  std::unique_ptr<tls_server> tls_;
  std::array<uint8_t, 32> reset_secret_{};
  retry_tokens retry_;
  address_tokens tokens_;
  bool draining_ = false;
  std::unordered_map<std::string, connection*> by_id_;
  std::unordered_map<connection*, std::unique_ptr<connection>> live_;
  std::vector<connection*> dead_;
  loop::timer reaper_{this};
};

}  // namespace baton::quic
