// One received datagram, as a datagram listener hands it on: the bytes (in
// the listener's buffer, valid only during the call), who sent it, the
// address it came to, and the socket to answer on. A QUIC endpoint is the
// sink; the listener knows no protocol.
//
// Loop thread only.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>

namespace baton::net {

struct datagram {
  const uint8_t* data = nullptr;
  size_t length = 0;
  const sockaddr* peer = nullptr;
  socklen_t peer_length = 0;
  const sockaddr* local = nullptr;
  socklen_t local_length = 0;
  int fd = -1;  // the socket it came in on, which replies leave from
  uint8_t ecn = 0;  // its ECN codepoint (the IP header's two low TOS bits: RFC 3168)
};

// Its owner may hold it as a sink (the server, which knows no QUIC type).
class datagram_sink {
 public:
  virtual ~datagram_sink() = default;
  virtual void on_datagram(const datagram& d) = 0;
  // A drain: no new connections; those open finish what they carry
  // (QUIC: HTTP/3's GOAWAY).
  virtual void drain() {}
  // The sockets are closing: whatever the sink keeps that answers through
  // them ends now (QUIC: every connection closes).
  virtual void close_all() {}
  // Connections still open (a drain is over when none is).
  virtual size_t open_connections() const { return 0; }
  // The app timeout: requests inside their apps since before
  // `entered_before_ms` are given up on (a 504, or a reset once their
  // answer began). True when there was one.
  virtual bool abandon_overdue(int64_t entered_before_ms) {
    (void)entered_before_ms;
    return false;
  }
  // Buffers kept between messages (a WebSocket's) given back; the bytes freed.
  virtual size_t release_idle_memory() { return 0; }
};

}  // namespace baton::net
