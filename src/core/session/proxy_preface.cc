#include "core/session/proxy_preface.h"

#include <sys/socket.h>

#include <cstring>

#include "core/util/log.h"

namespace baton::session {

namespace pp = net::proxy_protocol;

void proxy_preface::start() {
  deadline_ = s_.now_ms() + timeout_ms_;
  // The balancer is the socket's peer: it alone is checked here. Once its
  // header is taken, the client it names is the peer for everything after,
  // the trust check of forwarding headers included: those headers were
  // written by whoever spoke HTTP to the balancer, which is that client, so
  // they are believed only when it is a trusted proxy itself.
  if (!peer_trusted()) {
    refuse("the peer is not trusted to send a PROXY header (--forwarded-allow-ips)");
    return;
  }
  on_readable();  // a balancer sends the header with the connect: no need to wait a pass
}

bool proxy_preface::peer_trusted() const {
  return trust_.trusts(s_.peer().address);
}

// Peeks at what the socket holds behind the bytes already taken, and takes
// only what the parser says belongs to the header.
void proxy_preface::on_readable() {
  if (done_) return;
  char window[pp::max_v2_length];
  size_t have = received_.size();
  std::memcpy(window, received_.data(), have);
  received r = sort_receive(::recv(s_.io().fd(), window + have, sizeof window - have, MSG_PEEK));
  if (r.status == receive_status::again) return;
  if (r.status == receive_status::failed) {
    s_.close_now();
    return;
  }
  if (r.status == receive_status::end) {
    // A peer that connects and leaves without a byte (a TCP health check)
    // sent nothing to refuse.
    if (have == 0) s_.close_now();
    else refuse("the connection ended within its PROXY header");
    return;
  }
  size_t seen = have + r.bytes;
  pp::result header = pp::parse(std::string_view(window, seen));
  switch (header.state) {
    case pp::status::error:
      refuse(header.reason);
      return;
    case pp::status::need_more:
      // Every byte seen can still be header (the parser's promise).
      if (consume(r.bytes)) received_.append(window + have, r.bytes);
      return;
    case pp::status::done:
      if (consume(header.consumed - have)) finish(header);
      return;
  }
}

bool proxy_preface::consume(size_t n) {
  char discard[pp::max_v2_length];
  // Bytes a peek has seen are in the socket's queue: this takes them all.
  if (n == 0 || ::recv(s_.io().fd(), discard, n, 0) == static_cast<ssize_t>(n)) return true;
  refuse("the socket would not give up the PROXY header it showed");
  return false;
}

void proxy_preface::finish(const pp::result& header) {
  done_ = true;
  received_ = std::string();
  if (!header.keep_socket_addresses) {
    s_.set_proxied(header.source.address(), header.source.port, header.destination.address(),
                   header.destination.port);
  }
  s_.hand_to(host_.first_protocol(s_));
}

void proxy_preface::refuse(const char* reason) {
  log::write(log::level::info, "closing a connection from %s: %s", s_.peer_for_log(), reason);
  done_ = true;
  host_.proxy_header_refused();
  s_.close_now();
}

void proxy_preface::drain() {
  int64_t grace = s_.now_ms() + drain_grace_ms_;
  if (grace < deadline_) deadline_ = grace;
}

void proxy_preface::on_deadline() {
  refuse(received_.empty() ? "no PROXY header within the header-read timeout"
                           : "the PROXY header was not whole within the header-read timeout");
}

}  // namespace baton::session
