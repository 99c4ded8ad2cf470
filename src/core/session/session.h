// A session is one accepted connection: its socket (behind a transport),
// the bytes that must wait (a partial message, a pipelined request), the
// output the socket would not take yet, one timer, and the close. What
// the bytes mean is its protocol's: HTTP/1 first, and another protocol
// after a handoff (a WebSocket after a 101), which takes the session over
// with the bytes already read and the output still queued.
//
// States:
//   open       the protocol runs: it reads, writes through the session, and
//              says what it waits for (plan()), from which the session
//              sets its interest and its timer in one place.
//   lingering  the last answer went out and the write side is shut; input
//              is read and dropped for a short while so the client sees the
//              answer rather than a reset. The protocol is done.
//   closed     the socket is closed; the server deletes the session between
//              passes.
// Whatever the state, output that the socket would not take waits in
// output(), watched for writability, under the write timeout.
//
// A session lives on the loop thread and owns its socket. Idle, it owns no
// buffer: input is received into the loop's shared receive buffer, and only
// bytes that must wait are copied into input(), freed again when it empties.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <memory>

#include "core/exchange/head.h"
#include "core/loop/event_loop.h"
#include "core/net/output_queue.h"
#include "core/net/tls.h"
#include "core/net/transport.h"
#include "core/session/receive_buffer.h"
#include "core/session/received.h"
#include "core/util/byte_buffer.h"

namespace baton::session {

class session;

struct session_settings {
  int write_timeout_ms = 30000;
  int linger_ms = 2000;
};

// What a session needs from the server that owns it.
class session_host {
 public:
  // The session has closed its socket; the host deletes it between passes.
  virtual void session_closed(session* s, bool was_lingering) = 0;
  // The session has sent its last answer and only waits for the client to
  // close (a drain need not wait for it).
  virtual void session_lingering(session* s) = 0;

 protected:
  ~session_host() = default;
};

struct session_context {
  loop::event_loop& loop;
  const session_settings& settings;
  session_host& host;
  receive_buffer& shared_input;
  net::output_queue::spares* output_spares = nullptr;  // the loop's parked output storage
};

// A protocol runs on one session at a time. Every call comes from the
// session on the loop thread, and after each the session applies plan().
class protocol {
 public:
  protocol() = default;
  // A protocol is one connection's: it is never copied.
  protocol(const protocol&) = delete;
  protocol& operator=(const protocol&) = delete;
  virtual ~protocol() = default;
  // The session is this protocol's from now on (after accept, or a handoff
  // with the bytes already read waiting in the session's input()).
  virtual void start() = 0;
  // The socket is readable, or at its end.
  virtual void on_readable() = 0;
  // The socket took output again after it had refused some.
  virtual void on_writable() = 0;
  // The deadline of the last plan() has passed.
  virtual void on_deadline() = 0;
  // What the protocol waits for now: input, and until when (INT64_MAX: no
  // deadline). One place per state, so interest and timer always agree.
  struct plan {
    bool read = false;
    int64_t deadline = INT64_MAX;
  };
  virtual plan current_plan() const = 0;
  // A graceful stop has begun.
  virtual void drain() = 0;
  // The session is closing (the client left, or the server stops): let go
  // of whatever is in flight. The session calls it once.
  virtual void on_close() = 0;
  // Frees buffers kept between messages; returns the bytes freed.
  virtual size_t release_idle_memory() = 0;
  // Since when (loop clock, ms) the request in flight longest has been
  // inside the app, or -1; and giving up on those that entered it before
  // `entered_before_ms` (the app timeout).
  virtual int64_t in_app_since() const { return -1; }
  virtual void abandon_app(int64_t entered_before_ms) { (void)entered_before_ms; }
};

class session final : public loop::io_handler, public loop::timer_handler {
 public:
  // Takes the socket `fd` (non-blocking) and closes it when done. With
  // `tls`, the socket carries TLS under that context (the first protocol
  // is then the handshake).
  session(session_context& context, int fd, const sockaddr_storage& peer, uint16_t listener = 0,
          net::tls_context* tls = nullptr);
  // Runs over `io` instead of a socket of its own (tests); `io` must outlive it.
  session(session_context& context, net::transport& io, const exchange::peer_info& peer);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  // Watches the socket and starts its first protocol.
  void start(std::unique_ptr<protocol> first);
  // Hands the session to `next` together with what input() holds and the
  // output still queued. It takes over on this pass, after the current
  // protocol's call has returned, and is started then.
  void hand_to(std::unique_ptr<protocol> next);
  protocol* current_protocol() const { return protocol_.get(); }

  void on_io(uint32_t events) override;
  void on_timer() override;

  // ------------------------------------------------ for the protocol
  net::transport& io() { return *io_; }
  net::tls_transport* tls() { return tls_.get(); }
  session_context& context() { return context_; }
  loop::event_loop& loop() { return context_.loop; }
  int64_t now_ms() const { return context_.loop.now_ms(); }
  // One read from the connection into `into`, its result sorted (received.h).
  received receive(char* into, size_t length) { return sort_receive(io_->receive(into, length)); }
  // Bytes that must wait for the protocol (it appends and consumes).
  byte_buffer& input() { return in_; }
  // One read's buffer: the loop's shared one when `may_share` and no other
  // read holds it, else `fallback` (receive_buffer.h). Given back when the
  // lease ends, or by keep_unread().
  receive_lease lend_receive_buffer(byte_buffer& fallback, bool may_share = true) {
    return receive_lease(context_.shared_input, fallback, may_share, lease_);
  }
  // When `input` is the shared buffer this session's read holds, what is
  // left of it moves into input() and the buffer goes back; `input` then
  // points at input(). Before the app runs, and before a handoff.
  void keep_unread(byte_buffer*& input) {
    if (lease_ != nullptr && lease_->shared() && input == &lease_->bytes()) input = &lease_->keep_unread(in_);
  }
  net::output_queue& output() { return out_; }
  bool eof() const { return eof_; }
  void set_eof() { eof_ = true; }
  // Writes what output() holds, as far as the socket takes it. False when
  // the write failed and the session closed.
  bool flush();
  bool write_blocked() const { return write_blocked_; }
  // Sets interest and timer from the protocol's plan (and the write timeout).
  void update();
  // The last answer is queued: once it has gone out, half-close and linger
  // (or close at once when the client has finished too).
  void start_lingering();
  void close_now();
  bool closed() const { return state_ == state::closed; }
  bool lingering() const { return state_ == state::lingering; }
  // The events watched now (tests and probes).
  uint32_t interest() const { return interest_; }
  exchange::peer_info peer() const {
    return {std::string_view(peer_text_, peer_text_length_), peer_port_, listener_, tls_ ? &tls_->facts() : nullptr,
            std::string_view(server_text_, server_text_length_), server_port_};
  }
  // A trusted PROXY header named the client and the address it connected
  // to: from now on they stand for the socket's (the access log, the app,
  // the trust check of forwarding headers). Before the first request.
  void set_proxied(std::string_view client, uint16_t client_port, std::string_view server, uint16_t server_port);
  // "unix socket" for a peer with no address, for log lines.
  const char* peer_for_log() const { return peer_text_length_ != 0 ? peer_text_ : "unix socket"; }

  // ------------------------------------------------ for the server
  void drain();
  size_t release_idle_memory();
  int64_t in_app_since() const { return protocol_ ? protocol_->in_app_since() : -1; }
  void abandon_app(int64_t entered_before_ms) {
    if (protocol_) protocol_->abandon_app(entered_before_ms);
    update();
  }

  // Intrusive list links, owned by the server's registry.
  session* prev = nullptr;
  session* next = nullptr;

 private:
  enum class state : uint8_t { open, lingering, closed };

  void set_peer(const exchange::peer_info& peer);
  void read_and_drop();
  // The transport holds input the socket will not announce (TLS records
  // already read) and the protocol wants input.
  bool input_waiting();
  // Takes a handoff asked for while a protocol call was under way.
  void take_handoff();

  session_context& context_;
  net::socket_transport socket_;
  std::unique_ptr<net::tls_transport> tls_;
  net::transport* io_;
  std::unique_ptr<protocol> protocol_;
  std::unique_ptr<protocol> next_;  // a handoff not taken yet
  state state_ = state::open;
  uint32_t interest_ = 0;
  byte_buffer in_;
  receive_lease* lease_ = nullptr;  // the innermost read's lease, while one is under way
  net::output_queue out_;
  bool eof_ = false;
  bool write_blocked_ = false;
  loop::timer timer_{this};
  int64_t write_progress_ms_ = 0;
  int64_t linger_started_ms_ = 0;

  char peer_text_[46] = {};
  uint8_t peer_text_length_ = 0;
  uint16_t peer_port_ = 0;
  uint16_t listener_ = 0;
  char server_text_[46] = {};  // from a PROXY header only
  uint8_t server_text_length_ = 0;
  uint16_t server_port_ = 0;
};

}  // namespace baton::session
