// HTTP/2 on a session, with nghttp2 doing the framing, HPACK and the
// protocol's rules. Each stream is an exchange: its HEADERS become the
// exchange's request head, its DATA the exchange's body, and the exchange's
// response (its head as data, then the body's bytes) becomes the
// stream's HEADERS and DATA. Streams of one connection run concurrently
// (the pool's threads for WSGI, tasks for ASGI).
//
// Flow control. The connection's receive window is given back as DATA
// arrives; a stream's only as its app consumes the body, so the stream's
// window is its exchange's body window: a slow app holds back its own
// stream, never the connection. Going out, DATA is framed from a stream's
// output only while the session's own output is under a high-water mark,
// so a client that does not read costs bounded memory; a stream whose
// window the client keeps at zero is reset after the write timeout.
//
// Request rules. nghttp2 checks HTTP's rules on frames (RFC 9113 8.1-8.3:
// pseudo-fields, connection-specific fields, a body against its
// content-length) and resets a stream that breaks them; baton checks the
// same ones itself where they decide what reaches an app, so no app sees
// a malformed request even if the library's checks were off, and each
// reset is logged with the client and the stream. On top of them, its own:
// --max-headers fields (431), `host` agreeing with `:authority` and no
// userinfo in it (400), cookie fields joined into one (8.2.3), and CONNECT,
// which is answered 501 before the app (local::local_routes).
//
// The attack classes (each has a test that sends it): rapid reset
// (our reset bucket ends the connection, and a stream reset in
// the same read as its HEADERS never reaches the app, as streams are
// dispatched after each read), CONTINUATION floods (nghttp2 bounds their
// count; the header list size bounds their bytes), HPACK bombs (the
// decoded list is counted as it is decoded and the stream refused with 431
// past the limit), floods of PING, SETTINGS, PRIORITY, WINDOW_UPDATE and
// empty DATA frames (a token bucket; past it GOAWAY ENHANCE_YOUR_CALM),
// and a client that stops reading (the session's write timeout).
//
// States: a connection is open while it reads frames; a drain sends GOAWAY
// with the last stream taken, finishes the streams below it, then closes.
// With no stream open it closes after the keep-alive timeout (the header
// timeout before its first request).
#pragma once

#include <nghttp2/nghttp2.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/gate/request_gate.h"
#include "core/exchange/pseudo_head.h"
#include "core/http2/response_head.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"
#include "core/session/switched.h"

namespace baton::http2 {

struct settings {
  uint32_t max_concurrent_streams = 100;
  uint32_t max_header_list_size = 32768;       // decoded bytes (RFC 9113 6.5.2's measure); past it, 431
  uint32_t initial_window_size = 256 * 1024;   // a stream's receive window: request body bytes ahead of its app
  size_t output_high_water = size_t{256} * 1024;       // framed output the session may hold before framing more
  // Frames that make work without being requests (PING, SETTINGS,
  // PRIORITY, WINDOW_UPDATE, empty DATA): a bucket of this many, refilled
  // at this rate per second.
  uint32_t control_frame_burst = 1000;
  uint32_t control_frames_per_second = 200;
  // Streams a client may reset (CVE-2023-44487, rapid reset): our own
  // bucket, as above; past it GOAWAY ENHANCE_YOUR_CALM. nghttp2's own limit
  // (which can only say INTERNAL_ERROR) stays behind it at its default.
  uint32_t reset_burst = 200;
  uint32_t resets_per_second = 100;
  // Streams of one connection inside the app at once (0: no limit). With a
  // pool of threads, the rest wait on their connection, not in the pool: a
  // client that opens many streams (and maybe never reads their answers)
  // takes part of the pool, never all of it.
  uint32_t max_streams_in_app = 0;
};

// What the protocols of one loop share (the request gate: the limits, the
// host, the drain, the local answers, the clock, the counts) and what only
// HTTP/2 needs.
struct context {
  const gate::request_gate& gate;
  const settings& config;
  const http2::framing& response_wire;
  int write_timeout_ms = 30000;
  // The Alt-Svc each listener advertises (by listener index; "" for none);
  // empty: none.
  std::span<const std::string> alt_svc = {};
  // RFC 8441: SETTINGS_ENABLE_CONNECT_PROTOCOL is sent, and an extended
  // CONNECT is offered to the host as a switch (a WebSocket on its stream).
  bool extended_connect = false;
};

class protocol final : public session::protocol, public exchange::exchange_sink {
 public:
  protocol(context& ctx, session::session& s);
  ~protocol() override { on_close(); }

  // session::protocol
  void start() override;
  void on_readable() override;
  void on_writable() override {
    session_.flush();
    send();
  }
  void on_deadline() override;
  plan current_plan() const override;
  void drain() override;
  void on_close() override;
  size_t release_idle_memory() override;
  int64_t in_app_since() const override;
  void abandon_app(int64_t entered_before_ms) override;

  // exchange::exchange_sink
  void on_exchange_news(exchange::exchange* x) override;
  void on_app_done(exchange::exchange* x) override;

  // Before start(): the session comes from HTTP/1.1 by `Upgrade: h2c`;
  // `settings` is its HTTP2-Settings field decoded, `h` the request (without
  // a body) that is answered as stream 1.
  void expect_upgrade(std::string settings, const exchange::request_head& h);

  // Streams open now (tests and probes).
  size_t open_streams() const { return stream_count_; }

 private:
  struct stream;
  struct stream_carrier;
  friend struct callbacks;

  // nghttp2's callbacks, as members.
  int begin_frame(const nghttp2_frame_hd& hd);
  void judge_data_length(const nghttp2_frame_hd& hd);
  void after_read();
  int begin_headers(const nghttp2_frame* frame);
  int header(const nghttp2_frame* frame, std::string_view name, std::string_view value);
  int frame_received(const nghttp2_frame* frame);
  int data_chunk(int32_t id, const uint8_t* data, size_t length);
  int frame_sent(const nghttp2_frame* frame);
  int stream_closed(int32_t id, uint32_t error_code);
  ssize_t read_body(int32_t id, size_t length, uint32_t* flags);
  int send_data(const nghttp2_frame& frame, const uint8_t* frame_head, size_t length);

  stream* find(int32_t id) const;
  // A stream HTTP/2 has closed while its app still runs (stream::lingering).
  stream* find_lingering(const exchange::exchange* x) const;
  stream* open_stream(int32_t id);
  void add_field(stream& s, std::string_view name, std::string_view value);
  bool start_upgraded_stream();
  void start_stream(stream& s, bool body_ends);
  void end_body(stream& s);
  // The client's end of input: a body not yet whole can never be.
  void end_cut_bodies();
  void dispatch_ready();
  bool answer_locally(stream& s);
  bool at_app_limit() const {
    return context_.config.max_streams_in_app != 0 && in_app_ >= context_.config.max_streams_in_app;
  }
  void start_app(stream& s);
  void start_held();
  bool take_output(stream& s);
  bool submit_interim(stream& s);
  void give_back_window(stream& s);
  bool submit_trailers(stream& s);
  void send();
  void finish_if_done();
  bool count_control_frame();
  bool count_reset();
  void calm_down(const char* what);
  void log_library_reset(int32_t id);
  void refuse(stream& s, int status, const char* reason);
  void reset_malformed(stream& s, const char* reason);
  void reset_for_length(stream& s, const char* longer_or_shorter);
  void reset_stream(stream& s, uint32_t code);
  void check_stalls();
  void give_up_on_app(stream& s);
  void free_stream(stream* s);

  // Streams that switched protocols (switched_streams.cc).
  bool offer_switch(stream& s);
  void switch_stream(stream& s);
  void feed_switched(stream& s, const uint8_t* data, size_t length);
  void give_back_switched_window(stream& s);
  bool push_switched(stream& s);
  void finish_switched(stream& s);
  void abort_switched(stream& s);
  int64_t switched_deadline() const;
  void switched_deadlines(int64_t now);

  const gate::request_gate& gate() const { return context_.gate; }

  context& context_;
  session::session& session_;
  std::string_view alt_svc_;  // its listener's (context::alt_svc), or empty
  nghttp2_session* h2_ = nullptr;
  stream* streams_ = nullptr;  // every stream object, linked
  size_t stream_count_ = 0;
  std::vector<int32_t> ready_;  // streams whose head is complete, dispatched after the read
  struct upgrade_request {
    std::string settings;
    bool is_head = false;
    std::vector<std::pair<std::string, std::string>> fields;
  };
  std::unique_ptr<upgrade_request> upgrade_;  // until start()
  std::deque<int32_t> held_;    // streams ready for the app, waiting for one of this connection's to finish
  uint32_t in_app_ = 0;         // streams whose app has not finished
  int32_t highest_stream_id_ = -1;  // the highest the client opened (-1: none; +2 is then 1)
  std::vector<std::pair<int32_t, int32_t>> skipped_;  // ids the client jumped over
  exchange::pseudo_limits head_limits_;
  encoded_head head_scratch_;  // a response head's name-value pairs while it is submitted
  exchange::field_list interim_scratch_;  // interim responses taken from an exchange, while they are submitted
  net::output_queue payload_scratch_;  // a DATA frame, header and payload, on its way to the session's output
  size_t record_payload_ = 0;          // a DATA payload's most when the transport writes records (TLS), else 0
  bool peer_trusted_ = false;
  bool draining_ = false;
  bool closing_ = false;  // nghttp2 is done or failed: what is queued goes out, then the session ends
  bool in_send_ = false;
  bool in_receive_ = false;
  uint32_t switched_count_ = 0;  // streams carrying a switched protocol
  bool send_due_ = false;  // news came: frame and send on this pass's timers
  int64_t idle_since_ms_ = 0;
  bool served_any_ = false;
  int64_t stall_check_ms_ = INT64_MAX;
  // Frames that make work without being requests, and streams the client reset.
  struct token_bucket {
    double tokens = 0;
    int64_t at_ms = 0;
    bool take(int64_t now_ms, uint32_t burst, uint32_t per_second);
  };
  token_bucket control_tokens_;
  token_bucket reset_tokens_;
};

}  // namespace baton::http2
