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
    case 101: return "Switching Protocols";
    case 103: return "Early Hints";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 203: return "Non-Authoritative Information";
    case 204: return "No Content";
    case 205: return "Reset Content";
    case 206: return "Partial Content";
    case 300: return "Multiple Choices";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 417: return "Expectation Failed";
    case 418: return "I'm a teapot";
    case 421: return "Misdirected Request";
    case 422: return "Unprocessable Content";
    case 425: return "Too Early";
    case 426: return "Upgrade Required";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 451: return "Unavailable For Legal Reasons";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "";
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
                            bool head_only, std::initializer_list<std::string_view> extra) {
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
  for (std::string_view fields : extra) out.append(fields);
  out.append("\r\n", 2);
  if (!head_only) out.append(body);
}

}  // namespace baton::http1
