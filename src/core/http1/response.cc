#include "core/http1/response.h"

#include <cstdio>

#include "core/http1/parser.h"

namespace baton::http1 {

void date_cache::format(time_t now) {
  struct tm gmt;
  gmtime_r(&now, &gmt);
  length_ = strftime(line_, sizeof line_, "date: %a, %d %b %Y %H:%M:%S GMT\r\n", &gmt);
  formatted_for_ = now;
}

std::string_view current_date_line() {
  thread_local date_cache cache;
  return cache.line(time(nullptr));
}

const char* status_reason(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 417: return "Expectation Failed";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

bool valid_header_name(std::string_view name) {
  if (name.empty()) return false;
  for (unsigned char c : name) {
    if (!is_token_char(c)) return false;
  }
  return true;
}

bool valid_header_value(std::string_view value) {
  for (unsigned char c : value) {
    if (!is_field_value_char(c)) return false;
  }
  return true;
}

int parse_status_line(std::string_view status) {
  if (status.size() < 3) return 0;
  int code = 0;
  for (int i = 0; i < 3; ++i) {
    char c = status[static_cast<size_t>(i)];
    if (c < '0' || c > '9') return 0;
    code = code * 10 + (c - '0');
  }
  if (code < 100) return 0;
  if (status.size() > 3 && status[3] != ' ') return 0;
  for (unsigned char c : status.substr(3)) {
    if (!is_field_value_char(c)) return 0;
  }
  return code;
}

void append_chunk_header(byte_buffer& out, size_t length) {
  char* p = out.prepare(20);
  int n = std::snprintf(p, 20, "%zx\r\n", length);
  out.commit(static_cast<size_t>(n));
}

void append_simple_response(byte_buffer& out, int status, std::string_view date_line,
                            std::string_view content_type, std::string_view body, bool close,
                            bool head_only) {
  char number[64];
  int n = std::snprintf(number, sizeof number, "HTTP/1.1 %d ", status);
  out.append(number, static_cast<size_t>(n));
  out.append(status_reason(status));
  out.append("\r\ncontent-type: ");
  out.append(content_type);
  n = std::snprintf(number, sizeof number, "\r\ncontent-length: %zu\r\n", body.size());
  out.append(number, static_cast<size_t>(n));
  if (close) out.append("connection: close\r\n");
  out.append(date_line);
  out.append("\r\n", 2);
  if (!head_only) out.append(body);
}

}  // namespace baton::http1
