#include "core/exchange/fields.h"

#include <cstdint>

#include "core/exchange/head.h"
#include "core/util/swar.h"
#include "core/util/text.h"

namespace baton::exchange {

namespace {

// Eight bytes at a time, read as one word (the last word overlaps the one
// before it when the length is not a multiple of eight, so nothing past the
// end is read). A word the quick test is not sure of is checked a byte at a
// time against the table: the quick test only ever sends a word there, it
// never decides that one is invalid.
using util::swar::highs;
using util::swar::within;

// Letters, digits and '-': what almost every field name is made of.
bool word_is_plain_name(uint64_t w) {
  if ((w & highs) != 0) return false;
  uint64_t plain = within(w, 'a', 'z') | within(w, 'A', 'Z') | within(w, '0', '9') | within(w, '-', '-');
  return plain == highs;
}

// No byte below 0x20 and none 0x7f (HTAB, the one control a value may
// hold, goes to the table).
bool word_is_plain_value(uint64_t w) { return !util::swar::any_below(w, 0x20) && !util::swar::any_equal(w, 0x7f); }

template <bool (*plain)(uint64_t), bool (*valid_char)(unsigned char)>
bool all_valid(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  auto bytes_valid = [](const char* from, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      if (!valid_char(static_cast<unsigned char>(from[i]))) return false;
    }
    return true;
  };
  if (n < 8) return bytes_valid(p, n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (!plain(util::swar::load(p + i)) && !bytes_valid(p + i, 8)) return false;
  }
  if (i < n && !plain(util::swar::load(p + n - 8)) && !bytes_valid(p + n - 8, 8)) return false;
  return true;
}

}  // namespace

bool valid_field_name(std::string_view name) {
  return !name.empty() && all_valid<word_is_plain_name, is_token_char>(name);
}

bool valid_field_value(std::string_view value) { return all_valid<word_is_plain_value, is_field_value_char>(value); }

bool forbidden_in_trailer(std::string_view name) {
  static constexpr std::string_view names[] = {"content-length", "transfer-encoding", "host",
                                               "connection", "te", "trailer", "expect"};
  for (std::string_view n : names) {
    if (util::equals_ignore_case(name, n)) return true;
  }
  return false;
}

std::string_view field_list::find(std::string_view name) const {
  std::string_view found;
  bool seen = false;
  for_each([&](std::string_view n, std::string_view v) {
    if (!seen && util::equals_ignore_case(n, name)) {
      found = v;
      seen = true;
    }
  });
  return found;
}

std::string_view request_head::find(std::string_view name) const {
  for (size_t i = 0; i < field_count; ++i) {
    if (util::equals_ignore_case(fields[i].name, name)) return fields[i].value;
  }
  return {};
}

bool request_head::has(std::string_view name) const {
  for (size_t i = 0; i < field_count; ++i) {
    if (util::equals_ignore_case(fields[i].name, name)) return true;
  }
  return false;
}

int parse_status_code(std::string_view status) {
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

}  // namespace baton::exchange
