// Small text helpers shared by core's HTTP code: decimal lengths, list
// tokens, hex digits. Each lives here once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace baton::util {

inline bool ascii_equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

inline std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A non-negative decimal of at most 18 digits (so it cannot overflow).
inline bool parse_decimal(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  out = v;
  return true;
}

// Whether a comma-separated list (RFC 9110 section 5.6.1) holds `token`,
// compared without regard to case.
inline bool has_list_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    if (ascii_equals_ignore_case(trim_ows(list.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Copies the first n bytes of a view; an empty view's data() may be null,
// which memcpy must not be given even for zero bytes.
inline void copy_bytes(char* to, std::string_view from, size_t n) {
  if (n != 0) std::memcpy(to, from.data(), n);
}

}  // namespace baton::util
