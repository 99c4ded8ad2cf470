// The listeners: the sockets this server accepts on, and the policy over
// all of them. Each stream socket (TCP, a Unix socket) is a stream_listener
// (stream_listener.h), which accepts; what it accepts becomes a session in
// the registry, started on the protocol the succession names. The set
// pauses every listener while too many requests wait for the app (the
// admission asks), resumes them, closes them when a drain begins, or keeps
// them open for a reload in this process (take_kept()). Spread sockets
// (SO_REUSEPORT, one per loop of the --threads shape) or one socket shared
// by several loops (shared_listeners): a shared one is watched with
// exclusive wakes and gives up its turn after a few accepts, so a burst
// spreads over the loops rather than landing on whichever woke first.
//
// With HTTP/3, each TCP address has UDP sockets on its port: a
// datagram_listener (datagram_listener.h) each, in a vector of their own,
// handing datagrams to the QUIC endpoint rather than sessions to the
// registry; pause, resume and close walk them too.
//
// Loop thread only.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/loop/event_loop.h"
#include "core/net/datagram.h"
#include "core/server/datagram_listener.h"
#include "core/server/server_config.h"
#include "core/server/stream_listener.h"

namespace baton::server {

class session_registry;
class succession;

class listener_set {
 public:
  // `fds` are bound and listening. With `quic` (HTTP/3), the UDP sockets
  // among them (a master's, steered: net/cid_steering.h) are read for it;
  // with none among them, a UDP socket is bound beside each TCP one first,
  // and one that cannot be bound throws std::runtime_error before any of
  // `fds` is taken (the caller still owns them then).
  listener_set(const server_config& config, loop::event_loop& loop, session_registry& sessions,
               succession& next, const std::vector<int>& fds, net::datagram_sink* quic);
  listener_set(const listener_set&) = delete;
  listener_set& operator=(const listener_set&) = delete;

  // Serving starts: every listener is watched.
  void watch_all();
  // Too many requests wait (`waiting` of them): new connections wait in
  // the kernel's backlog instead of adding to the queue.
  void pause_for_queue(size_t waiting);
  void resume_for_queue();
  bool paused_for_queue() const { return paused_for_queue_; }
  // A drain: no more connections. The UDP sockets stay open while the
  // QUIC connections they carry finish (those take no new requests: GOAWAY).
  void close_all();
  // A reload in this process: the TCP sockets outlive this server,
  // unwatched; the UDP ones as in close_all().
  void keep_for_reload();
  // The end: the QUIC connections close (H3_NO_ERROR), then their sockets.
  void close_datagrams();
  // QUIC connections open (a drain waits for them as for sessions).
  size_t datagram_connections() const { return quic_ != nullptr ? quic_->open_connections() : 0; }
  // The app timeout for the QUIC connections' requests (datagram_sink).
  bool abandon_overdue_datagrams(int64_t entered_before_ms) {
    return quic_ != nullptr && quic_->abandon_overdue(entered_before_ms);
  }
  std::vector<int> take_kept() { return std::move(kept_); }

  // For the stream listeners.
  loop::event_loop& loop() { return loop_; }
  int accepts_per_wake() const;
  uint32_t watch_events() const;
  // A connection accepted on listener `index`: registered, and started.
  void accepted(int fd, const sockaddr_storage& peer, uint16_t index);

 private:
  void open_datagrams(const std::vector<int>& fds, net::datagram_sink& quic);

  const server_config& config_;
  loop::event_loop& loop_;
  session_registry& sessions_;
  succession& succession_;
  // Each is made once and never moves (the loop holds pointers to it).
  std::vector<std::unique_ptr<stream_listener>> streams_;
  std::vector<std::unique_ptr<datagram_listener>> datagrams_;
  net::datagram_sink* quic_ = nullptr;  // what the datagrams go to (null without HTTP/3)
  bool paused_for_queue_ = false;
  std::vector<int> kept_;
};

}  // namespace baton::server
