// A WebSocket (RFC 6455) once its opening is answered, on whatever carries
// its bytes (session::byte_stream): a whole connection after HTTP/1.1's
// 101 (ws::protocol), or one HTTP/2 or HTTP/3 stream after an extended
// CONNECT (RFC 8441, RFC 9220). The exchange the app holds goes along as the channel for
// messages both ways (exchange/messages.h).
//
// What the core does on its own, without the app: it answers pings, sends
// its own (every ping_interval_ms) and closes with 1011 when no pong comes
// within ping_timeout_ms; it checks every frame and fails the connection
// with the RFC's code on a protocol error (1002), text or a close reason
// that is not UTF-8 (1007) or a message over max_message (1009); it
// decompresses messages when permessage-deflate was agreed; and it runs
// the close handshake both ways, under close_timeout_ms.
//
// Reading is pull-driven: each message goes to the app whole, and reading
// pauses while max_queue messages (or a window of bytes) wait for it, so a
// client flooding a slow app costs bounded memory (over HTTP/2 and HTTP/3
// the bytes it sent meanwhile are held, and the stream's window is not
// given back for them). The app's messages go through the exchange's output window: its
// send waits while the carrier is behind.
//
// States:
//   open      messages flow both ways.
//   closing   one side's close went out and the other's is awaited: data
//             from the client is read and dropped, until its close (or the
//             timeout).
//   ended     both closes are done (or the connection failed): the output
//             goes out, then the carrier ends.
#pragma once

#include <cstdint>

#include "core/exchange/exchange.h"
#include "core/session/switched.h"
#include "core/util/byte_buffer.h"
#include "core/ws/deflate.h"
#include "core/ws/message.h"

namespace baton::ws {

struct settings {
  bool enabled = false;  // openings are served (an ASGI app); off: they reach the app as plain requests
  size_t max_message = size_t{16} * 1024 * 1024;  // a whole (inflated) message, at most
  uint32_t max_queue = 32;            // messages waiting for the app before reading pauses
  int ping_interval_ms = 20000;       // 0: the server sends no pings
  int ping_timeout_ms = 20000;        // unanswered, and the client silent, this long: 1011 (0: never)
  int close_timeout_ms = 5000;        // a close handshake the client does not finish
  int handshake_timeout_ms = 10000;   // an app that neither accepts nor refuses an opening (0: none)
  // Output queued past this stops reading (a client that pings without
  // reading its answers costs bounded memory).
  size_t output_high_water = size_t{1} << 20;
  deflate_settings deflate;
};

// What a WebSocket tells the server when it ends.
struct closed_record {
  uint64_t bytes_in = 0;   // from the client, on the wire
  uint64_t bytes_out = 0;  // to the client, on the wire
  uint16_t code = 0;       // the close code the connection ended with (1006: none)
};

class host {
 public:
  // Loop thread: the WebSocket of `x` has ended (the access log's line).
  virtual void websocket_closed(exchange::exchange& x, const closed_record& r) = 0;

 protected:
  ~host() = default;
};

struct context {
  const settings& config;
  host& server;
  inflater& inflate;  // the loop's, shared by its WebSockets (no context is kept between messages)
  // A drain has begun (set by the server on the loop thread, with
  // drain_code): a WebSocket that opens now closes at once. Not the
  // server's draining flag, which a signal handler raises before the drain
  // (and its code) is decided.
  bool drain_begun = false;
  // The close code a drain sends: 1001 (going away), or 1012 (service
  // restart) when the server is reloading.
  uint16_t drain_code = 1001;
};

class endpoint final : public session::switched_protocol, public exchange::exchange_sink {
 public:
  // Takes a reference to `x` (its app has switched to this protocol).
  endpoint(context& ctx, session::byte_stream& stream, exchange::exchange& x);
  ~endpoint() override;
  endpoint(const endpoint&) = delete;
  endpoint& operator=(const endpoint&) = delete;

  // session::switched_protocol
  void start(const char* early, size_t length, bool peer_gone) override;
  void feed(const char* data, size_t length) override;
  size_t held() const override { return held_.size(); }
  void peer_gone() override;
  bool wants_input() const override;
  int64_t deadline() const override;
  void on_deadline() override;
  void drain() override;
  void on_close() override;
  size_t release_idle_memory() override;
  bool finished() const override { return state_ == state::ended; }

  // Bytes held while the app's queue was full go on, when it has room.
  void resume();
  void flush() override;

  // exchange::exchange_sink
  void on_exchange_news(exchange::exchange* x) override;
  void on_app_done(exchange::exchange* x) override;

  // message_reader's hooks.
  bool on_message(bool text, bool ascii, byte_buffer& payload);
  void on_ping(const char* data, size_t n);
  void on_pong(const char* data, size_t n);
  void on_close(uint16_t code, std::string_view reason);
  void on_error(uint16_t code, const char* reason);

 private:
  enum class state : uint8_t { open, closing, ended };

  // The app's queue is full: messages wait (closing, data is dropped, so
  // nothing waits).
  bool paused() const { return state_ == state::open && x_ != nullptr && x_->reading_paused(); }
  void decode(const char* data, size_t length);
  void feed_held();
  void take_app_output();
  void send_control(opcode op, const char* data, size_t length);
  void send_close(uint16_t code, std::string_view reason = {});
  // Our close goes out first (a drain, a timeout, the app's end): the
  // client's is awaited.
  void begin_close(uint16_t code, std::string_view reason = {});
  // The app learns the connection ended with `code` (its next receive).
  void tell_app_closed(uint16_t code, std::string_view reason);
  void end();
  void pause_if_queue_full();
  void let_go_of_exchange();

  context& context_;
  session::byte_stream& stream_;
  exchange::exchange* x_;  // one reference, until the carrier closes
  message_reader<endpoint> reader_;
  byte_buffer held_;  // bytes from the client not decoded while the app's queue is full
  state state_ = state::open;
  bool started_ = false;
  bool app_done_ = false;
  bool app_told_ = false;      // a close (or the end) has been delivered to the app
  uint16_t close_code_ = close_code::abnormal;
  int64_t next_ping_ms_ = INT64_MAX;
  int64_t pong_deadline_ms_ = INT64_MAX;
  int64_t close_deadline_ms_ = INT64_MAX;
  uint32_t ping_count_ = 0;
  uint64_t bytes_in_ = 0;
  uint64_t bytes_out_ = 0;
  uint64_t traffic_at_trim_ = 0;  // bytes both ways at the last idle trim
  bool app_asked_ = false;        // the app side was asked to free its buffers in this quiet spell
};

}  // namespace baton::ws
