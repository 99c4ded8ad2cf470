// Pieces of an HTTP/1.1 response that do not depend on a connection: the
// cached Date line, status reasons, header validation, chunk framing and the
// server's own error answers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <string_view>

#include "core/util/byte_buffer.h"

namespace baton::http1 {

// "date: <IMF-fixdate>\r\n", formatted at most once per second. One per loop
// thread; not shared between threads.
class date_cache {
 public:
  std::string_view line(time_t now) {
    if (now != formatted_for_) format(now);
    return {line_, length_};
  }

 private:
  void format(time_t now);
  time_t formatted_for_ = -1;
  char line_[64] = {};
  size_t length_ = 0;
};

// The Date line for now, from a cache private to the calling thread.
std::string_view current_date_line();

const char* status_reason(int status);

// RFC 9110 field-name (a token) and field-value (no CR, LF, NUL or other
// controls but HTAB): what an app may put in a response header.
bool valid_header_name(std::string_view name);
bool valid_header_value(std::string_view value);

// Parses the leading three-digit code of a WSGI status like "200 OK".
// Returns 0 if the status is malformed.
int parse_status_line(std::string_view status);

void append_chunk_header(byte_buffer& out, size_t length);
inline constexpr std::string_view last_chunk = "0\r\n\r\n";

// A complete response the server writes on its own behalf (errors, timeouts,
// the native hello, the health path and static files' short answers).
// Always closes when `close` is set. `extra`: whole field lines ("name:
// value\r\n") added to the head.
void append_simple_response(byte_buffer& out, int status, std::string_view date_line,
                            std::string_view content_type, std::string_view body, bool close,
                            bool head_only = false, std::initializer_list<std::string_view> extra = {});

}  // namespace baton::http1
