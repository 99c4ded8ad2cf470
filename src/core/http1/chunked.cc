#include "core/http1/chunked.h"

#include <cstring>
#include <string_view>

#include "core/http1/parser.h"

namespace baton::http1 {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t skip_blank(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

// chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ), where
// ext-val is a token or a quoted-string. Returns false on any other shape.
bool valid_extensions(std::string_view s) {
  size_t i = 0;
  while (true) {
    i = skip_blank(s, i);
    if (i == s.size()) return true;
    if (s[i] != ';') return false;
    i = skip_blank(s, i + 1);
    size_t name_start = i;
    while (i < s.size() && is_token_char(static_cast<unsigned char>(s[i]))) ++i;
    if (i == name_start) return false;
    size_t after_name = skip_blank(s, i);
    if (after_name < s.size() && s[after_name] == '=') {
      i = skip_blank(s, after_name + 1);
      if (i < s.size() && s[i] == '"') {
        ++i;
        bool closed = false;
        while (i < s.size()) {
          unsigned char c = static_cast<unsigned char>(s[i]);
          if (c == '"') { closed = true; ++i; break; }
          if (c == '\\') {
            if (i + 1 == s.size() || !is_field_value_char(static_cast<unsigned char>(s[i + 1]))) return false;
            i += 2;
            continue;
          }
          if (!is_field_value_char(c)) return false;
          ++i;
        }
        if (!closed) return false;
      } else {
        size_t value_start = i;
        while (i < s.size() && is_token_char(static_cast<unsigned char>(s[i]))) ++i;
        if (i == value_start) return false;
      }
    } else if (after_name != i && after_name != s.size() && s[after_name] != ';') {
      return false;
    }
  }
}

// Fields that must not appear in a trailer section: they frame, route or
// control the message and a trailer arriving after the body cannot honour them.
bool forbidden_in_trailer(std::string_view name) {
  static constexpr std::string_view names[] = {"content-length", "transfer-encoding", "host",
                                               "connection", "te", "trailer", "expect"};
  for (std::string_view n : names) {
    if (equals_ignore_case(name, n)) return true;
  }
  return false;
}

chunked_decoder::step_result error(size_t consumed, const char* reason) {
  chunked_decoder::step_result r;
  r.state = chunked_decoder::status::error;
  r.consumed = consumed;
  r.reason = reason;
  return r;
}

}  // namespace

chunked_decoder::step_result chunked_decoder::step(const char* in, size_t len) {
  size_t pos = 0;
  while (true) {
    switch (state_) {
      case state::size_line: {
        const void* found = std::memchr(in + pos, '\n', len - pos);
        if (found == nullptr) {
          if (len - pos > max_size_line) return error(pos, "chunk-size line too long");
          return {status::need_more, pos};
        }
        size_t lf = static_cast<size_t>(static_cast<const char*>(found) - in);
        if (lf - pos > max_size_line) return error(pos, "chunk-size line too long");
        if (lf == pos || in[lf - 1] != '\r') return error(pos, "bare LF in chunk-size line");
        std::string_view line(in + pos, lf - 1 - pos);
        if (line.find('\r') != std::string_view::npos) return error(pos, "bare CR in chunk-size line");
        size_t digits = 0;
        uint64_t size = 0;
        while (digits < line.size() && hex_value(line[digits]) >= 0) {
          if (digits == 15) return error(pos, "chunk size too large");
          size = size * 16 + static_cast<uint64_t>(hex_value(line[digits]));
          ++digits;
        }
        if (digits == 0) return error(pos, "invalid chunk size");
        std::string_view rest = line.substr(digits);
        if (!rest.empty() && !valid_extensions(rest)) return error(pos, "invalid chunk extension");
        if (!rest.empty() && rest.find(';') == std::string_view::npos) return error(pos, "invalid chunk size");
        pos = lf + 1;
        remaining_ = size;
        state_ = size == 0 ? state::trailer : state::data;
        break;
      }
      case state::data: {
        if (pos == len) return {status::need_more, pos};
        size_t n = len - pos;
        if (n > remaining_) n = static_cast<size_t>(remaining_);
        remaining_ -= n;
        if (remaining_ == 0) state_ = state::data_crlf;
        step_result r;
        r.state = status::data;
        r.data = in + pos;
        r.data_length = n;
        r.consumed = pos + n;
        return r;
      }
      case state::data_crlf: {
        if (len - pos < 2) {
          if (len - pos == 1 && in[pos] != '\r') return error(pos, "chunk data not followed by CRLF");
          return {status::need_more, pos};
        }
        if (in[pos] != '\r' || in[pos + 1] != '\n') return error(pos, "chunk data not followed by CRLF");
        pos += 2;
        state_ = state::size_line;
        break;
      }
      case state::trailer: {
        const void* found = std::memchr(in + pos, '\n', len - pos);
        if (found == nullptr) {
          if (trailer_bytes_ + (len - pos) > max_trailer_bytes) return error(pos, "trailer section too large");
          return {status::need_more, pos};
        }
        size_t lf = static_cast<size_t>(static_cast<const char*>(found) - in);
        if (lf == pos || in[lf - 1] != '\r') return error(pos, "bare LF in trailer section");
        trailer_bytes_ += lf + 1 - pos;
        if (trailer_bytes_ > max_trailer_bytes) return error(pos, "trailer section too large");
        std::string_view line(in + pos, lf - 1 - pos);
        pos = lf + 1;
        if (line.empty()) {
          state_ = state::done;
          return {status::done, pos};
        }
        if (line.front() == ' ' || line.front() == '\t') return error(pos, "obsolete line folding in trailer");
        size_t colon = 0;
        while (colon < line.size() && is_token_char(static_cast<unsigned char>(line[colon]))) ++colon;
        if (colon == 0 || colon == line.size() || line[colon] != ':') return error(pos, "invalid trailer field");
        for (unsigned char c : line.substr(colon + 1)) {
          if (!is_field_value_char(c)) return error(pos, "invalid octet in trailer field");
        }
        if (forbidden_in_trailer(line.substr(0, colon))) return error(pos, "forbidden field in trailer");
        break;
      }
      case state::done:
        return {status::done, pos};
    }
  }
}

}  // namespace baton::http1
