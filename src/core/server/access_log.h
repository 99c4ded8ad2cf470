// The access log: one line per response, in gunicorn's atoms, formatted on
// the loop thread (no Python, no GIL) into a buffer that a writer thread of
// its own writes out, so the loop never waits for a slow disk or a full pipe.
//
// The format is compiled once into pieces. The loop hands what it formatted
// to the writer after every pass (a lock held for a pointer swap, no system
// call); the writer writes at least every 50 ms, sooner when 64 KiB wait.
// Past 16 MiB waiting, lines are dropped and counted rather than let memory
// grow. Each write holds whole lines; into a pipe, at most PIPE_BUF bytes at
// a time so lines of several worker processes never interleave.
//
// Atoms: h l u t r m U q H s B b f a T D M L p, and R (the bytes a
// WebSocket received; baton's own), {Header}i (request),
// {Header}o (response), {name}e (always "-": there is no environ in core).
// An unknown atom prints "-". %% is a percent sign.
//
// The format "json" instead writes one JSON object a line, with named
// fields (access_log_json.h).
#pragma once

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/exchange/fields.h"
#include "core/exchange/head.h"
#include "core/server/access_log_json.h"

namespace baton::server {

struct access_record {
  const exchange::request_head* head = nullptr;
  std::string_view client;         // the client's address ("" for a Unix socket peer)
  uint16_t client_port = 0;        // 0 for a Unix socket peer
  int status = 0;
  uint64_t body_bytes = 0;
  uint64_t received_bytes = 0;     // a WebSocket's bytes from the client (0 for a request)
  uint64_t request_body_bytes = 0;  // the request's body bytes (0 for a WebSocket)
  int64_t duration_us = 0;
  const exchange::field_list* response_fields = nullptr;  // for {Header}o; may be null
};

// What only the JSON lines carry.
struct access_log_json_options {
  std::string request_id_header = "x-request-id";  // request_id is this field's value
  int loop_index = 0;                               // this loop among --threads
};

class access_log {
 public:
  // `path` "-" (or empty) is standard output. Returns null with `error` set
  // when the file cannot be opened.
  static std::unique_ptr<access_log> open(std::string_view format, const std::string& path, std::string& error,
                                          const access_log_json_options& json = {});
  ~access_log();  // writes what is left
  access_log(const access_log&) = delete;
  access_log& operator=(const access_log&) = delete;

  // Loop thread.
  void record(const access_record& r);
  // Loop thread, after each pass: hands the formatted lines to the writer.
  void hand_over();
  // Any thread: reopen the file (log rotation; SIGUSR1).
  void reopen();
  uint64_t dropped_lines() const { return dropped_.load(std::memory_order_relaxed); }
  // Whether the format has a duration atom (T, D, M, L): only then does
  // each request read the clock twice.
  bool times_requests() const;

  // Formats one line without writing it (tests).
  std::string format_line(const access_record& r);

 private:
  enum class atom : uint8_t {
    literal, remote, dash, user, time, request_line, method, path, query, protocol, status, bytes, bytes_or_dash,
    received,
    referer, agent, seconds, micros, millis, decimal_seconds, pid, request_header, response_header, environ
  };
  struct piece {
    atom kind;
    std::string text;  // the literal, or the header name for request_header/response_header
  };

  access_log() = default;
  void compile(std::string_view format);
  void append(std::string& out, const access_record& r);
  void writer();
  void write_out(const std::string& bytes);
  bool open_file();

  std::vector<piece> pieces_;
  std::optional<json_access_line> json_;  // set for the format "json", which has no pieces
  // %(p)s: the process that made the log (it is made in the process that
  // serves, after any fork), read once rather than a syscall a line.
  pid_t pid_ = getpid();
  std::string path_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool pipe_ = false;
  std::string pending_;  // loop side
  // The local time, formatted once a second: "[29/Nov/2026:22:40:41 +0000]".
  time_t time_for_ = -1;
  char time_text_[40] = {};
  size_t time_length_ = 0;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::string shared_;  // handed over, not yet written
  bool stop_ = false;
  std::atomic<bool> reopen_{false};
  std::atomic<uint64_t> dropped_{0};
  std::thread thread_;
};

}  // namespace baton::server
