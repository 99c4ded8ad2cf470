// The first protocol of every connection when --proxy-protocol is on: reads
// the PROXY header (net/proxy_protocol.h) a TCP balancer sends before
// anything else, so before TLS and before HTTP/1 or HTTP/2, then hands the
// session to the protocol that would otherwise have come first, with the
// header's client and destination standing for the socket's addresses.
//
// Only a trusted peer (--forwarded-allow-ips, Unix sockets as for the
// forwarding headers) may send one, checked against the socket's own peer:
// that is the balancer. A connection from any other peer, a malformed or
// truncated header, no header at all, or one not whole within the
// header-read timeout: the connection closes with one log line naming the
// peer and the reason.
//
// The header is taken off the socket without reading past its end: each
// read peeks, the parser says how much is header, and only that much is
// consumed. The next protocol (a TLS handshake reading straight from the
// socket, HTTP/1 looking for HTTP/2's preface) then starts exactly as it
// would on a connection without the header. A header that trickles in is
// kept here between reads (at most 2 KiB, net/proxy_protocol.h).
#pragma once

#include <memory>
#include <string>

#include "core/exchange/forwarded.h"
#include "core/net/proxy_protocol.h"
#include "core/session/session.h"

namespace baton::session {

// Who makes the protocol that follows the header.
class preface_host {
 public:
  // The protocol a connection starts with when it has no PROXY header.
  virtual std::unique_ptr<protocol> first_protocol(session& s) = 0;
  // The connection closes for its header (the reason is logged already).
  virtual void proxy_header_refused() {}

 protected:
  ~preface_host() = default;
};

class proxy_preface final : public protocol {
 public:
  // `trust`: who may send a header; `timeout_ms`: how long the whole header
  // may take (the header-read timeout); `drain_grace_ms`: how long a header
  // under way may still take once a drain begins.
  proxy_preface(session& s, preface_host& host, const exchange::proxy_settings& trust, int timeout_ms,
                int drain_grace_ms)
      : s_(s), host_(host), trust_(trust), timeout_ms_(timeout_ms), drain_grace_ms_(drain_grace_ms) {}

  void start() override;
  void on_readable() override;
  void on_writable() override {}
  void on_deadline() override;
  // Reading stays wanted once done, as the TLS handshake's (the protocol
  // after it reads at once).
  plan current_plan() const override { return {true, done_ ? INT64_MAX : deadline_}; }
  void drain() override;
  void on_close() override {}
  size_t release_idle_memory() override { return 0; }

 private:
  bool peer_trusted() const;
  // Takes `n` bytes the last peek saw off the socket.
  bool consume(size_t n);
  void finish(const net::proxy_protocol::result& header);
  void refuse(const char* reason);

  session& s_;
  preface_host& host_;
  const exchange::proxy_settings& trust_;
  int timeout_ms_;
  int drain_grace_ms_;
  int64_t deadline_ = INT64_MAX;
  bool done_ = false;
  std::string received_;  // the header's bytes taken so far, when it came in pieces
};

}  // namespace baton::session
