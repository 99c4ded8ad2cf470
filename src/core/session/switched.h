// A protocol switched to on a byte stream of its own, and what carries it:
// a WebSocket rides a whole connection after HTTP/1.1's 101, or one HTTP/2
// or HTTP/3 stream after an extended CONNECT (RFC 8441, RFC 9220). The
// protocol above (the WebSocket: its frames, pings, close handshake and
// app) is written once against byte_stream; each carrier (ws::protocol
// over a session, HTTP/2's stream, HTTP/3's stream) implements byte_stream
// and drives the protocol through
// switched_protocol. Which protocol a carrier gets is the server's to
// decide (session::protocol_host).
//
// Loop thread only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/net/output_queue.h"

namespace baton::session {

// What carries a switched protocol's bytes.
class byte_stream {
 public:
  // Bytes for the peer are queued here, then handed on by push().
  virtual net::output_queue& output() = 0;
  // Hands the output on toward the peer. False when the carrier is gone.
  virtual bool push() = 0;
  // Output the carrier holds unsent (for the app's output window).
  virtual uint64_t backlog() const = 0;
  // The protocol has finished both ways: once the output is out, the
  // carrier ends (a session lingers and closes; an HTTP/2 stream ends).
  virtual void finish() = 0;
  // The protocol gives up at once (a session closes; a stream is reset).
  virtual void abort() = 0;
  // The carrier should look again at what the protocol waits for.
  virtual void replan() = 0;
  virtual bool gone() const = 0;
  virtual int64_t now_ms() const = 0;
  virtual const char* peer_for_log() const = 0;

 protected:
  ~byte_stream() = default;
};

// What a carrier tells the protocol it carries.
class switched_protocol {
 public:
  virtual ~switched_protocol() = default;
  // The protocol's bytes flow from now on; `early` holds what the peer sent
  // before the switch was answered, `peer_gone` says it will send no more.
  virtual void start(const char* early, size_t length, bool peer_gone) = 0;
  // Bytes from the peer, read and not written to. The protocol takes all
  // of them (holding a copy of what its app is not ready for).
  virtual void feed(const char* data, size_t length) = 0;
  // Hands the output on (after a feed); ends the carrier once the protocol
  // is finished and its output is out.
  virtual void flush() = 0;
  // Bytes taken from the peer and not yet decoded (the app's queue is
  // full): an HTTP/2 stream gives back its window only for the rest.
  virtual size_t held() const = 0;
  // The peer went without closing the protocol's own way.
  virtual void peer_gone() = 0;
  // Whether to read from the peer now, and until when nothing needs doing.
  virtual bool wants_input() const = 0;
  virtual int64_t deadline() const = 0;
  virtual void on_deadline() = 0;
  // A graceful stop has begun.
  virtual void drain() = 0;
  // The carrier is going (closed, reset): let go of the app.
  virtual void on_close() = 0;
  // Frees buffers kept between messages; returns the bytes freed.
  virtual size_t release_idle_memory() = 0;
  // Both sides have closed: nothing more is read or written but the output.
  virtual bool finished() const = 0;
};

}  // namespace baton::session
