// One listening stream socket (TCP, or a Unix socket): each wake accepts as
// many connections as its set allows and hands each to the set. It stops
// being watched for a moment when the process is out of descriptors
// (retried after accept_pause_ms), and while its set pauses accepting.
//
// Loop thread only.
#pragma once

#include <cstdint>

#include "core/loop/event_loop.h"

namespace baton::server {

class listener_set;

class stream_listener final : private loop::io_handler, private loop::timer_handler {
 public:
  // `fd` is bound and listening; it is made non-blocking here.
  stream_listener(listener_set& set, int fd, uint16_t index);
  // Closes the socket if it is still this listener's.
  ~stream_listener();
  stream_listener(const stream_listener&) = delete;
  stream_listener& operator=(const stream_listener&) = delete;

  bool open() const { return fd_ >= 0; }
  bool paused() const { return paused_; }
  // Watched by the loop from now on (accepting), or no longer (paused).
  void watch();
  void pause();
  // Unwatched, and the socket closed; or handed to the caller (a reload
  // that keeps it), or -1 when it is closed already.
  void close();
  int release();

 private:
  void on_io(uint32_t events) override;  // readable: connections wait
  void on_timer() override;             // the pause after running out of descriptors is over
  void stop_watching();

  listener_set& set_;
  int fd_;
  uint16_t index_;  // the sessions' listener number (which port a request came in on)
  bool paused_ = true;  // not watched: not started, out of descriptors, or the set paused it
  // TCP_NODELAY on each accepted TCP connection: Linux gives an accepted
  // socket its listener's options, so it is set once on the listener and
  // checked on the first connection; set on each (a syscall a connection)
  // only where that check fails.
  enum class nodelay : uint8_t { unchecked, inherited, set_each };
  nodelay nodelay_ = nodelay::set_each;
  loop::timer retry_{this};
};

}  // namespace baton::server
