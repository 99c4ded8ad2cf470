#include "core/http1/chunked.h"

#include <cstring>
#include <string_view>

#include "core/exchange/fields.h"
#include "core/http1/parser.h"
#include "core/util/text.h"

namespace baton::http1 {
namespace {

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

chunked_decoder::step_result error(size_t consumed, const char* reason) {
  chunked_decoder::step_result r;
  r.state = chunked_decoder::status::error;
  r.consumed = consumed;
  r.reason = reason;
  return r;
}

}  // namespace

bool chunked_decoder::size_line(const char* in, size_t len, size_t& pos, step_result& out) {
  const void* found = std::memchr(in + pos, '\n', len - pos);
  if (found == nullptr) {
    out = len - pos > max_size_line ? error(pos, "chunk-size line too long") : step_result{status::need_more, pos};
    return true;
  }
  size_t lf = static_cast<size_t>(static_cast<const char*>(found) - in);
  const char* problem = nullptr;
  std::string_view line(in + pos, lf > pos ? lf - 1 - pos : 0);
  if (lf - pos > max_size_line) problem = "chunk-size line too long";
  else if (lf == pos || in[lf - 1] != '\r') problem = "bare LF in chunk-size line";
  else if (line.find('\r') != std::string_view::npos) problem = "bare CR in chunk-size line";
  size_t digits = 0;
  uint64_t size = 0;
  while (problem == nullptr && digits < line.size() && util::hex_digit(line[digits]) >= 0) {
    if (digits == 15) {
      problem = "chunk size too large";
      break;
    }
    size = size * 16 + static_cast<uint64_t>(util::hex_digit(line[digits]));
    ++digits;
  }
  if (problem == nullptr) {
    std::string_view rest = line.substr(digits);
    bool bad_size = digits == 0;
    bool bad_extension = !bad_size && !rest.empty() && !valid_extensions(rest);
    bool no_mark = !bad_size && !bad_extension && !rest.empty() && rest.find(';') == std::string_view::npos;
    if (bad_extension) problem = "invalid chunk extension";
    else if (bad_size || no_mark) problem = "invalid chunk size";
  }
  if (problem != nullptr) {
    out = error(pos, problem);
    return true;
  }
  pos = lf + 1;
  remaining_ = size;
  state_ = size == 0 ? state::trailer : state::data;
  return false;
}

bool chunked_decoder::trailer_line(const char* in, size_t len, size_t& pos, step_result& out) {
  const void* found = std::memchr(in + pos, '\n', len - pos);
  if (found == nullptr) {
    out = trailer_bytes_ + (len - pos) > max_trailer_bytes ? error(pos, "trailer section too large")
                                                            : step_result{status::need_more, pos};
    return true;
  }
  size_t lf = static_cast<size_t>(static_cast<const char*>(found) - in);
  if (lf == pos || in[lf - 1] != '\r') {
    out = error(pos, "bare LF in trailer section");
    return true;
  }
  trailer_bytes_ += lf + 1 - pos;
  if (trailer_bytes_ > max_trailer_bytes) {
    out = error(pos, "trailer section too large");
    return true;
  }
  std::string_view line(in + pos, lf - 1 - pos);
  pos = lf + 1;
  const char* problem = nullptr;
  if (line.empty()) {
    state_ = state::done;
    out = {status::done, pos};
    return true;
  }
  size_t colon = 0;
  while (colon < line.size() && is_token_char(static_cast<unsigned char>(line[colon]))) ++colon;
  if (line.front() == ' ' || line.front() == '\t') {
    problem = "obsolete line folding in trailer";
  } else if (colon == 0 || colon == line.size() || line[colon] != ':') {
    problem = "invalid trailer field";
  } else {
    for (unsigned char c : line.substr(colon + 1)) {
      if (!is_field_value_char(c)) problem = "invalid octet in trailer field";
    }
    if (problem == nullptr && exchange::forbidden_in_trailer(line.substr(0, colon))) problem = "forbidden field in trailer";
  }
  if (problem == nullptr) return false;
  out = error(pos, problem);
  return true;
}

chunked_decoder::step_result chunked_decoder::step(const char* in, size_t len) {
  size_t pos = 0;
  step_result out;
  while (true) {
    switch (state_) {
      case state::size_line:
        if (size_line(in, len, pos, out)) return out;
        break;
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
      case state::data_crlf:
        if (len - pos < 2) {
          if (len - pos == 1 && in[pos] != '\r') return error(pos, "chunk data not followed by CRLF");
          return {status::need_more, pos};
        }
        if (in[pos] != '\r' || in[pos + 1] != '\n') return error(pos, "chunk data not followed by CRLF");
        pos += 2;
        state_ = state::size_line;
        break;
      case state::trailer:
        if (trailer_line(in, len, pos, out)) return out;
        break;
      case state::done:
        return {status::done, pos};
    }
  }
}

}  // namespace baton::http1
