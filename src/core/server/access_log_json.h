// The access log as JSON (--access-log-format json): one object per line,
// with named fields in a fixed order, for log shippers that parse rather
// than match patterns. Formatted on the loop thread into the same buffer
// the text lines go to, with no allocation of its own per request.
//
// Fields: time (when the line was formatted, RFC 3339 in UTC with
// microseconds), client and client_port (null for a Unix socket peer),
// method, path, query ("" when none), protocol ("HTTP/1.1", "HTTP/2"),
// status, bytes_in (the request's body bytes; for a WebSocket, the bytes
// its frames took from the client), bytes_out (the response's body bytes,
// as %(b)s counts them; for a WebSocket, its frames' bytes to the client),
// duration (seconds, to the microsecond; a WebSocket: how long it was
// open), user_agent, referer and request_id (null when the field
// is absent or empty), worker (the process id) and loop (the loop thread's
// index under --threads, else 0).
//
// Strings: what a client sent is bytes, not text. Valid UTF-8 passes as it
// is; each byte that is not part of a valid UTF-8 sequence is written as
// \u00XX (its Latin-1 reading), so every line is valid JSON and valid UTF-8
// whatever the request held. Since valid UTF-8 is never escaped that way, a
// reader can tell the stray byte 0xE9 ("\u00e9") from a real "é".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

namespace baton::server {

struct access_record;

// Appends `text` as a JSON string, quotes included (see above for bytes
// that are not UTF-8). Control bytes, DEL, '"' and '\' are escaped.
void append_json_string(std::string& out, std::string_view text);

class json_access_line {
 public:
  // `request_id_header`: the request field whose value is request_id (any
  // case). `loop_index`: this loop's index among --threads.
  json_access_line(std::string_view request_id_header, int loop_index, pid_t worker);

  // Loop thread: one line, newline included, appended to `out`.
  void append(std::string& out, const access_record& r);

 private:
  // The current second as "2026-12-05T16:40:01." and its microseconds.
  std::string_view time_now(uint64_t& micros);

  std::string request_id_header_;
  int loop_index_;
  pid_t worker_;
  // "2026-12-05T16:40:01", formatted once a second.
  time_t time_for_ = -1;
  char time_text_[32] = {};
  size_t time_length_ = 0;
};

}  // namespace baton::server
