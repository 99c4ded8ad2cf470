// One HTTP/1.1 connection: reads, parses, hands each request to the
// request_handler in order, and writes the answers.
//
// States (see connection.cc for the transitions):
//   reading  waiting for or assembling a request head; the timer is the
//            header-read timeout once a head has begun (or since accept),
//            the keep-alive timeout between requests
//   writing  output is queued and the socket is full; the next pipelined
//            request waits until it drains (bounded memory)
//   lingering  an error answer was sent and the write side shut; input is
//            read and dropped for a short while so the client sees the
//            answer rather than a reset
// A connection lives on the loop thread and owns its socket.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/http1/chunked.h"
#include "core/http1/exchange.h"
#include "core/http1/parser.h"
#include "core/http1/response.h"
#include "core/loop/event_loop.h"
#include "core/net/output_queue.h"
#include "core/util/byte_buffer.h"

namespace baton::http1 {

struct connection_settings {
  limits request_limits;
  int keep_alive_timeout_ms = 5000;
  int header_read_timeout_ms = 10000;
  int body_read_timeout_ms = 30000;
  int write_timeout_ms = 30000;
  int linger_ms = 2000;
  int graceful_timeout_ms = 5000;  // bounds blocking waits once a stop is requested
  size_t output_high_water = 1u << 20;
};

class connection;

// What a connection needs from the server that owns it.
struct connection_context {
  loop::event_loop& loop;
  const connection_settings& settings;
  request_handler& handler;
  date_cache dates;
  bool draining = false;
  // Asked while a response is built: a stop was requested but the loop has
  // not begun the shutdown yet (the inline shape is busy running the app).
  bool (*stop_pending)() = nullptr;
  bool stopping() const { return draining || (stop_pending != nullptr && stop_pending()); }
  // Called when a connection has closed its socket; the owner deletes it.
  void (*on_closed)(void* owner, connection* c) = nullptr;
  void* owner = nullptr;
};

class connection final : public loop::io_handler, public loop::timer_handler, private exchange {
 public:
  connection(connection_context& context, int fd, const sockaddr_storage& peer, socklen_t peer_length);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  void start();
  void on_io(uint32_t events) override;
  void on_timer() override;
  // Graceful shutdown: an idle connection closes now, a busy one after its
  // current response (which says Connection: close).
  void drain();
  void close_now();

  // Intrusive list links, owned by the server's registry.
  connection* prev = nullptr;
  connection* next = nullptr;

 private:
  enum class state : uint8_t { reading, writing, lingering, closed };

  void on_readable();
  void process_input();
  void run_exchange();
  bool chunked_prefix_is_valid();
  chunked_decoder::step_result scan_buffered_chunks(chunked_decoder probe, size_t pos, uint64_t& received) const;
  void finish_exchange();
  void reject(int status, const char* reason);
  void flush_and_settle();
  void start_lingering();
  void update_timer();
  int64_t current_deadline() const;
  bool read_more(int timeout_ms, int& error_status);
  int wait_for(short events, int timeout_ms);
  bool body_buffered_whole() const;
  bool refuse_after_finish();
  bool flush_blocking();

  // exchange
  const request& head() const override { return request_; }
  peer_info peer() override;
  body_state peek_body(std::string_view& out) override;
  void consume_body(size_t n) override;
  int body_error_status() const override { return body_error_; }
  void begin_response(int status_code, std::string_view status_text) override;
  bool add_header(std::string_view name, std::string_view value) override;
  bool has_content_length() const override { return response_length_ >= 0; }
  bool response_committed() const override { return committed_; }
  bool write_body(const char* data, size_t length) override;
  bool send_file(int fd, off_t offset, uint64_t length) override;
  bool flush() override;
  void finish() override;
  void fail(int status) override;
  bool client_gone() const override { return broken_; }

  void commit(bool body_is_empty);
  bool body_complete_without_waiting();
  bool after_output_appended();

  connection_context& context_;
  int fd_;
  state state_ = state::reading;
  byte_buffer in_;
  net::output_queue out_;
  parse_cursor cursor_;
  std::vector<header> header_storage_;
  request request_;
  bool in_exchange_ = false;
  bool close_after_flush_ = false;
  bool broken_ = false;
  bool eof_ = false;
  uint64_t requests_served_ = 0;
  int64_t head_started_ms_ = 0;
  int64_t write_progress_ms_ = 0;
  int64_t linger_started_ms_ = 0;
  loop::timer_id timer_ = 0;
  int64_t timer_deadline_ = 0;
  bool watching_writable_ = false;

  // Request body.
  uint64_t body_remaining_ = 0;  // length framing: bytes not yet consumed
  uint64_t body_received_ = 0;   // chunked: decoded bytes so far (for max_body)
  size_t chunk_run_ = 0;         // chunked: decoded bytes at in_.data() not yet consumed
  chunked_decoder chunked_;
  bool body_done_ = true;
  int body_error_ = 0;
  bool continue_sent_ = false;

  // Response.
  byte_buffer response_head_;
  int response_status_ = 0;
  int64_t response_length_ = -1;  // the app's Content-Length, -1 if none
  uint64_t response_sent_ = 0;
  bool response_chunked_ = false;
  bool response_no_body_ = false;
  bool committed_ = false;
  bool finished_ = false;  // finish() or fail() ran: nothing more may be written
  bool app_wants_close_ = false;

  sockaddr_storage peer_;
  socklen_t peer_length_;
  std::string peer_text_;
  uint16_t peer_port_ = 0;
};

}  // namespace baton::http1
