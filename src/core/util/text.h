// Small text helpers shared by core's HTTP code and the bridge: case-blind
// compares, decimal lengths, list elements, hex digits. Each lives here once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/util/swar.h"

namespace baton::util {

// ASCII letters to lower case, in place; every other byte as it is.
inline void lowercase_in_place(std::string& s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

namespace detail {
inline bool bytes_equal_ignore_case(const char* a, const char* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    auto x = static_cast<unsigned char>(a[i]);
    auto y = static_cast<unsigned char>(b[i]);
    if (x == y) continue;
    // Equal but for case only if both are the same ASCII letter.
    auto folded = static_cast<unsigned char>(x | 0x20);
    if (folded != (y | 0x20) || folded < 'a' || folded > 'z') return false;
  }
  return true;
}
}  // namespace detail

// ASCII letters compared without regard to case; every other byte as itself.
inline bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && detail::bytes_equal_ignore_case(a.data(), b.data(), a.size());
}

// A field name (a token: its caller has validated it) against a lower-case
// name of letters, digits and '-', eight bytes at a time (the last word
// overlapping the one before). Setting a token byte's case bit gives a byte
// of that alphabet only when it is the byte itself or its upper-case
// letter (the others it could come from, such as CR for '-', are not in a
// token), so one OR and one compare a word is the whole case-blind compare.
inline bool token_equals_lowercase(std::string_view token, std::string_view lower) {
  if (token.size() != lower.size()) return false;
  size_t n = token.size();
  if (n < 8) return detail::bytes_equal_ignore_case(token.data(), lower.data(), n);
  constexpr uint64_t case_bits = swar::ones * 0x20;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if ((swar::load(token.data() + i) | case_bits) != swar::load(lower.data() + i)) return false;
  }
  return i == n || (swar::load(token.data() + n - 8) | case_bits) == swar::load(lower.data() + n - 8);
}

inline bool starts_with_ignore_case(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equals_ignore_case(s.substr(0, prefix.size()), prefix);
}

inline std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Writes `v` in decimal at `out`, which has room for 20 bytes; returns how many it wrote.
inline size_t write_decimal(char* out, uint64_t v) {
  char digits[20];
  size_t n = 0;
  do {
    digits[sizeof digits - 1 - n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  std::memcpy(out, digits + sizeof digits - n, n);
  return n;
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

// Calls fn(element) for each non-empty element of a comma-separated list
// (RFC 9110 section 5.6.1: recipients ignore empty elements), trimmed of
// optional whitespace. `fn` returns false to stop the walk.
template <typename Fn>
void for_each_list_element(std::string_view list, Fn&& fn) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view element = trim_ows(list.substr(0, comma));
    if (!element.empty() && !fn(element)) return;
    if (comma == std::string_view::npos) return;
    list.remove_prefix(comma + 1);
  }
}

// Whether a comma-separated list holds `token`, compared without regard to case.
inline bool has_list_token(std::string_view list, std::string_view token) {
  bool found = false;
  for_each_list_element(list, [&](std::string_view element) {
    found = equals_ignore_case(element, token);
    return !found;
  });
  return found;
}

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes of `in` with each %XX escape decoded once (a '%' not followed by
// two hex digits stays as it is).
inline std::string percent_decoded(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && hex_digit(in[i + 1]) >= 0 && hex_digit(in[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_digit(in[i + 1]) * 16 + hex_digit(in[i + 2])));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

// Copies the first n bytes of a view; an empty view's data() may be null,
// which memcpy must not be given even for zero bytes.
inline void copy_bytes(char* to, std::string_view from, size_t n) {
  if (n != 0) std::memcpy(to, from.data(), n);
}

}  // namespace baton::util
