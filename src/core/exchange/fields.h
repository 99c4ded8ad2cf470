// HTTP's field syntax and status codes as RFC 9110 defines them, shared by
// every protocol: the character classes of names and values, their
// validation, reason phrases, and the list of fields a response carries.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/util/byte_buffer.h"

namespace baton::exchange {

// Character classes as tables, so the hot loops index rather than call.
namespace detail {
constexpr std::array<bool, 256> make_token_table() {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(c)] = true;
  return t;
}

constexpr std::array<bool, 256> make_field_value_table() {
  std::array<bool, 256> t{};
  t['\t'] = true;
  for (int c = 0x20; c <= 0x7e; ++c) t[c] = true;
  for (int c = 0x80; c <= 0xff; ++c) t[c] = true;  // obs-text
  return t;
}

inline constexpr auto token_table = make_token_table();
inline constexpr auto field_value_table = make_field_value_table();
}  // namespace detail

inline bool is_token_char(unsigned char c) { return detail::token_table[c]; }
// VCHAR, obs-text, SP, HTAB
inline bool is_field_value_char(unsigned char c) { return detail::field_value_table[c]; }

// A field-name (a token) and a field-value (no CR, LF, NUL or other controls
// but HTAB): what an app may put in a response field.
bool valid_field_name(std::string_view name);
bool valid_field_value(std::string_view value);
// Fields that must not appear in a trailer section, either way: they frame,
// route or control the message, and a trailer that arrives after the body
// cannot honour them (RFC 9110 section 6.5.1).
bool forbidden_in_trailer(std::string_view name);

// "OK" for 200, and so on; "" for a code it does not know.
const char* status_reason(int status);

// The three-digit code that leads a status line like WSGI's "200 OK"
// (a reason phrase of field-value characters may follow a space); 0 if it
// is malformed.
int parse_status_code(std::string_view status);

// The fields of a response, in the order the app added them: names and
// values copied into one buffer (a field costs no allocation of its own).
// Protocols write them out in their own syntax; the access log reads them.
class field_list {
 public:
  void clear() { bytes_.clear(); }
  bool empty() const { return bytes_.empty(); }
  // Storage kept past a request (bytes).
  size_t capacity() const { return bytes_.capacity(); }
  void release() { bytes_ = byte_buffer(); }
  // Storage of the fields' own size (a list kept long and not added to).
  void shrink_to_fit() { bytes_ = bytes_.exact_copy(); }

  void add(std::string_view name, std::string_view value) {
    auto n = static_cast<uint32_t>(name.size());
    auto v = static_cast<uint32_t>(value.size());
    char* p = bytes_.prepare(sizeof n + sizeof v + n + v);
    std::memcpy(p, &n, sizeof n);
    std::memcpy(p + sizeof n, &v, sizeof v);
    if (n != 0) std::memcpy(p + sizeof n + sizeof v, name.data(), n);
    if (v != 0) std::memcpy(p + sizeof n + sizeof v + n, value.data(), v);
    bytes_.commit(sizeof n + sizeof v + n + v);
  }

  // Calls fn(name, value) for each field, in order.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    const char* p = bytes_.data();
    const char* end = p + bytes_.size();
    while (p < end) {
      uint32_t n, v;
      std::memcpy(&n, p, sizeof n);
      std::memcpy(&v, p + sizeof n, sizeof v);
      p += sizeof n + sizeof v;
      fn(std::string_view(p, n), std::string_view(p + n, v));
      p += n + v;
    }
  }
  // The value of the first field of that name (any case), or empty.
  std::string_view find(std::string_view name) const;
  // At least the bytes the fields take written as "name: value\r\n" lines
  // (a record's two lengths take 8 bytes; a line's ": " and CRLF take 4).
  size_t line_bytes_bound() const { return bytes_.size(); }

 private:
  byte_buffer bytes_;  // per field: its name's length, its value's length (uint32 each), the name, the value
};

}  // namespace baton::exchange
