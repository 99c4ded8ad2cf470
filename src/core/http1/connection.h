// One HTTP/1.1 connection: reads and parses request heads, turns each into a
// stream, feeds the stream its body, and writes what the stream's app side
// produces, in request order. It never blocks: everything it waits for (a
// head, body bytes, room in the socket, the app) is a state it returns to
// when the loop says something changed.
//
// States:
//   reading    no request in flight; assembling the next head. The timer is
//              the header-read timeout once a head has begun (or since
//              accept), the keep-alive timeout between requests.
//   active     a stream is the current request: its body is fed to it (up to
//              the stream's window; reading pauses past it) and its output is
//              written as the app publishes it. Bytes of a pipelined next
//              request wait in the connection's own buffer.
//   lingering  an error answer was sent and the write side shut; input is
//              read and dropped for a short while so the client sees the
//              answer rather than a reset.
//   closed     the socket is closed; the server deletes the connection
//              between passes.
// Whatever the state, output that the socket would not take waits in out_,
// watched with EPOLLOUT, under the write timeout.
//
// A connection lives on the loop thread and owns its socket. Idle, it owns
// no buffer: input is received into the server's shared receive buffer, and
// only bytes that must wait (a partial head, a pipelined request) are copied
// into a buffer of its own, freed again when it empties.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstdint>

#include "core/http1/chunked.h"
#include "core/http1/forwarded.h"
#include "core/http1/local_routes.h"
#include "core/http1/parser.h"
#include "core/http1/stream.h"
#include "core/loop/event_loop.h"
#include "core/net/output_queue.h"
#include "core/net/transport.h"
#include "core/util/byte_buffer.h"

namespace baton::http1 {

struct connection_settings {
  limits request_limits;
  int keep_alive_timeout_ms = 5000;
  int header_read_timeout_ms = 10000;
  int body_read_timeout_ms = 60000;  // the whole body, not per read
  int write_timeout_ms = 30000;
  int linger_ms = 2000;
  // A drain gives an idle keep-alive connection this long to send the
  // request that may already be on its way.
  int drain_idle_grace_ms = 1000;
  // A body up to this size is read whole before the app runs; of a larger
  // one no more than this is read before the app asks for it, and then it
  // flows through the stream's window while the app reads it.
  size_t read_whole_body = size_t{64} * 1024;
  // Output queued past this stops the parsing of pipelined requests until
  // the socket drains (bounded memory against a client that does not read).
  size_t output_high_water = 1u << 20;
  // Pipelined bytes read ahead while a request is in flight.
  size_t read_ahead = size_t{64} * 1024;
  stream_settings streams;
  proxy_settings proxy;
  size_t body_window() const { return streams.body_window; }
};

// What a connection needs from the server that owns it.
class connection_host {
 public:
  // A fresh stream for a request (one reference: the caller's).
  virtual stream* new_stream() = 0;
  // Hands a stream to the application (runs it now, or queues it).
  virtual void submit(stream* s) = 0;
  // The connection has closed its socket; the host deletes it between passes.
  virtual void connection_closed(connection* c, bool was_lingering) = 0;
  // The connection has sent its last answer and only waits for the client
  // to close (a drain need not wait for it).
  virtual void connection_lingering(connection* c) = 0;
  // A response is complete (its app side is done, or the core answered it);
  // called before the connection lets go of `s`.
  virtual void request_done(stream* s) { (void)s; }

 protected:
  ~connection_host() = default;
};

// The loop's shared receive buffer, lent to one connection at a time.
struct receive_buffer {
  byte_buffer bytes;
  bool lent = false;
};

struct connection_context {
  loop::event_loop& loop;
  const connection_settings& settings;
  connection_host& host;
  receive_buffer& shared_input;
  header* header_scratch;  // request_limits.max_headers entries, for the parser
  std::atomic<bool>& draining;
  const local_routes* local = nullptr;  // health path and static files, answered without the app
  const bool* refusing = nullptr;       // draining with the listeners open: new requests get 503
  bool timing = false;                  // streams record when they started (the access log)
  net::output_queue::spares* output_spares = nullptr;  // the loop's parked output storage
};

class connection final : public loop::io_handler, public loop::timer_handler {
 public:
  // Takes the socket `fd` (non-blocking) and closes it when done.
  connection(connection_context& context, int fd, const sockaddr_storage& peer, uint16_t listener = 0);
  // Runs over `io` instead of a socket of its own (tests); `io` must outlive it.
  connection(connection_context& context, net::transport& io, const peer_info& peer);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  void start();
  void on_io(uint32_t events) override;
  void on_timer() override;

  // The current stream's app side published output or consumed body
  // (called from the server's inbox handler, or directly for inline apps).
  void on_stream_news(stream* s);
  // The current stream's app side is done (its output is published).
  void on_app_done(stream* s);

  // Graceful shutdown: a busy connection closes after its current response
  // (which says Connection: close); an idle one after a short grace for a
  // request already on its way.
  void drain();
  void close_now();
  bool closed() const { return state_ == state::closed; }
  bool lingering() const { return state_ == state::lingering; }
  // The epoll events the connection asks for now (tests and probes).
  uint32_t interest() const { return interest_; }
  peer_info peer() const { return {std::string_view(peer_text_, peer_text_length_), peer_port_, listener_}; }
  // Since when (loop clock, ms) the current request has been inside the
  // app, or -1.
  int64_t in_app_since() const { return current_ != nullptr && dispatched_ && !app_done_ ? dispatch_ms_ : -1; }
  // Gives up on the current request's app (it overran the app timeout):
  // the client gets 504 if nothing of the answer went out, else the
  // connection closes; the app side's writes go nowhere from now on.
  void abandon_app();

  // Intrusive list links, owned by the server's registry.
  connection* prev = nullptr;
  connection* next = nullptr;

 private:
  enum class state : uint8_t { reading, active, lingering, closed };

  void on_readable();
  bool receive_body_directly();
  void on_writable();
  void process(byte_buffer& input);
  parse_status start_stream(byte_buffer& input);
  void feed_body(byte_buffer& input);
  void body_failed(int status, const char* reason);
  bool ready_to_dispatch() const;
  size_t body_window_for(const stream& s) const;
  void dispatch(byte_buffer*& input);
  void take_output(bool flush_now);
  void finish_stream();
  bool answer_locally();
  void advance();
  void reject(int status, const char* reason);
  void flush_output();
  void start_lingering();
  void update_interest();
  void update_timer();
  int64_t current_deadline() const;
  void send_continue();

 public:
  // Frees the buffers of a connection waiting for its next request;
  // returns the bytes of storage freed.
  size_t release_idle_memory();

 private:

  void set_peer(const peer_info& peer);
  void decide_trust();

  connection_context& context_;
  net::socket_transport socket_;
  net::transport* io_;
  state state_ = state::reading;
  uint32_t interest_ = 0;  // the epoll mask registered now
  byte_buffer in_;         // bytes that must wait: a partial head, pipelined requests
  net::output_queue out_;
  parse_cursor cursor_;
  stream* current_ = nullptr;  // the request in flight (one reference)
  bool in_process_ = false;    // inside process(): news is taken, not acted on
  bool eof_ = false;           // the client will send nothing more
  bool close_after_flush_ = false;
  bool write_blocked_ = false;
  bool dispatched_ = false;    // current_ has been submitted to the app
  bool app_done_ = false;      // current_'s app side finished and its output was taken
  bool continue_sent_ = false;
  bool response_started_ = false;  // some of current_'s response went to out_
  uint64_t requests_served_ = 0;

  // The request body being fed to current_.
  uint64_t body_remaining_ = 0;  // length framing: bytes still to arrive
  uint64_t body_received_ = 0;   // chunked: decoded bytes so far (for max_body)
  chunked_decoder chunked_;
  bool body_done_ = true;
  // The rest of a body its app left unread, read and dropped after the
  // answer so the connection serves the next request (bounded by the body
  // timeout).
  uint64_t discard_left_ = 0;

  // Deadlines.
  loop::timer timer_{this};
  int64_t head_started_ms_ = 0;
  int64_t write_progress_ms_ = 0;
  int64_t linger_started_ms_ = 0;
  int64_t body_deadline_ms_ = 0;     // while the body is being read and reading is not paused
  int64_t body_budget_left_ms_ = 0;  // kept while paused by the window
  int64_t dispatch_ms_ = 0;
  int64_t drain_close_ms_ = 0;  // draining: an idle connection closes at this time

  char peer_text_[46] = {};
  uint8_t peer_text_length_ = 0;
  uint16_t peer_port_ = 0;
  uint16_t listener_ = 0;
  bool peer_trusted_ = false;  // a proxy whose forwarding headers count
};

}  // namespace baton::http1
