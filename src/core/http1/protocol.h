// HTTP/1.1 on a session: reads and parses request heads, turns each into an
// exchange, feeds the exchange its body, and writes what the exchange's app
// side produces, in request order. It never blocks: everything it waits
// for (a head, body bytes, room in the socket, the app) is a state it
// returns to when the session says something changed.
//
// States:
//   reading  no request in flight; assembling the next head. The deadline
//            is the header-read timeout once a head has begun (or since
//            accept), the keep-alive timeout between requests, and the body
//            timeout while the unread rest of the last body is dropped.
//   active   an exchange is the current request: its body is fed to it (up
//            to the exchange's window; reading pauses past it) and its
//            output is written as the app publishes it. Bytes of a
//            pipelined next request wait in the session's input.
// When the last answer is out the session lingers (its own state). An
// answered 101 (the app switched protocols) hands the session on, with the
// bytes read after the request and the output still queued. A request
// that asks to switch (a WebSocket opening) is put to the server
// (session::protocol_host::offer_upgrade), which offers it to the app or
// refuses it, answered here without the app; the app's 101 hands the
// session, and the exchange with it, to the protocol the server names
// while the app goes on. HTTP/1 knows no other protocol by name.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/exchange/exchange.h"
#include "core/gate/request_gate.h"
#include "core/http1/chunked.h"
#include "core/http1/encoder.h"
#include "core/http1/parser.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"

namespace baton::http1 {

// What only HTTP/1 keeps; the limits every protocol keeps are the
// session's (session::http_settings).
struct settings {
  // A body up to this size is read whole before the app runs; of a larger
  // one no more than this is read before the app asks for it, and then it
  // flows through the exchange's window while the app reads it.
  size_t read_whole_body = size_t{64} * 1024;
  // Output queued past this stops the parsing of pipelined requests until
  // the socket drains (bounded memory against a client that does not read).
  size_t output_high_water = 1u << 20;
  // Pipelined bytes read ahead while a request is in flight.
  size_t read_ahead = size_t{64} * 1024;
};

// What the protocols of one loop share (the request gate: the limits, the
// host, the drain, the local answers, the clock, the counts) and what only
// HTTP/1 needs.
struct context {
  const gate::request_gate& gate;
  const settings& config;
  header* header_scratch;  // request_limits.max_headers entries, for the parser
  const encoder& wire;
  // When listeners advertise Alt-Svc, each has its own wire (by listener
  // index); empty: `wire` serves every connection.
  std::span<const encoder> listener_wires = {};

  const encoder& wire_for(uint16_t listener) const {
    return listener < listener_wires.size() ? listener_wires[listener] : wire;
  }
};

class protocol final : public session::protocol, public exchange::exchange_sink {
 public:
  protocol(context& ctx, session::session& s);
  ~protocol() override;

  // session::protocol
  void start() override;
  void on_readable() override;
  void on_writable() override;
  void on_deadline() override;
  plan current_plan() const override;
  void drain() override;
  void on_close() override;
  size_t release_idle_memory() override;
  int64_t in_app_since() const override {
    return current_.x != nullptr && current_.app == app_phase::inside ? current_.dispatch_ms : -1;
  }
  // Gives up on the current request's app (it overran the app timeout):
  // the client gets 504 if nothing of the answer went out, else the
  // connection closes; the app side's writes go nowhere from now on. One
  // request is in the app at a time: it is the one given up on.
  void abandon_app(int64_t entered_before_ms) override;

  // exchange::exchange_sink: the current exchange's app side published
  // output or consumed body, or is done (its output is published).
  void on_exchange_news(exchange::exchange* x) override;
  void on_app_done(exchange::exchange* x) override;

 private:
  enum class state : uint8_t { reading, active };

  // Where a request stands with its app; it only moves forward.
  enum class app_phase : uint8_t {
    before,  // not handed to the app yet (its body may be being read)
    inside,  // submitted: the app runs it
    done,    // its app side finished and its output was taken, or it was answered here without one
  };

  // The request in flight: its exchange, where its app stands, and its body.
  struct request_state {
    exchange::exchange* x = nullptr;  // one reference
    app_phase app = app_phase::before;
    bool continue_sent = false;
    bool response_started = false;    // some of x's response (past any interim one) went to the output
    bool body_done = true;
    uint64_t body_remaining = 0;      // length framing: bytes still to arrive
    uint64_t body_received = 0;       // chunked: decoded bytes so far (for max_body)
    chunked_decoder chunked;
    int64_t body_deadline_ms = 0;     // while the body is being read and reading is not paused
    int64_t body_budget_left_ms = 0;  // kept while paused by the window
    int64_t dispatch_ms = 0;
    // Lets go of the exchange (the caller releases or cancels it) and
    // forgets everything of the request.
    exchange::exchange* detach();
  };

  void read_into_input();
  bool receive_body_directly();
  void process(byte_buffer& input);
  parse_status start_exchange(byte_buffer& input);
  void begin_body(const request& parsed);
  void feed_body(byte_buffer& input);
  void feed_chunked(byte_buffer& input);
  void pause_if_window_full();
  void body_failed(int status, const char* reason);
  bool ready_to_dispatch() const;
  size_t body_window_for(const exchange::exchange& x) const;
  void dispatch(byte_buffer*& input);
  void take_output(bool flush_now);
  void finish_exchange();
  bool answer_locally();
  void advance();
  void reject(int status, const char* reason, std::string_view extra_fields = {});
  bool offer_upgrade();
  void switch_protocols();
  void flush_output();
  void after_last_answer();
  void send_continue();
  void end_of_input_in_process(bool head_incomplete, const byte_buffer& input);
  // The first bytes are HTTP/2's preface: true when the session went (or
  // will go, once more bytes show it) to HTTP/2.
  bool prior_knowledge(byte_buffer*& input);
  bool h2c_upgrade(byte_buffer*& input);
  void hand_off_to_http2(byte_buffer*& input, std::unique_ptr<session::protocol> next);

  const gate::request_gate& gate() const { return context_.gate; }

  context& context_;
  session::session& session_;
  const encoder& wire_;  // its listener's: the Alt-Svc it advertises
  state state_ = state::reading;
  parse_cursor cursor_;
  request_state current_;
  bool in_process_ = false;  // inside process(): news is taken, not acted on
  bool close_after_flush_ = false;
  uint64_t requests_served_ = 0;
  // The rest of a body its app left unread, read and dropped after the
  // answer so the connection serves the next request (bounded by the body
  // timeout).
  uint64_t discard_left_ = 0;
  int64_t discard_deadline_ms_ = 0;
  int64_t head_started_ms_ = 0;
  int64_t drain_close_ms_ = 0;  // draining: an idle connection closes at this time
  bool peer_trusted_ = false;   // a proxy whose forwarding headers count
  // A 101 whose exchange is done: the session goes to the protocol the
  // host gives for it once the answer is out.
  std::unique_ptr<session::protocol> upgrade_;
  bool handed_off_ = false;  // upgrade_ went to the session: nothing here reads or writes any more
};

}  // namespace baton::http1
