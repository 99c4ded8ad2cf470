// The HTTP/1.1 request-head parser (RFC 9112, strict).
//
// The parser keeps no state between calls except a cursor saying how far it
// has already looked for the end of the head, so a caller feeding bytes one
// at a time costs O(n) overall. It copies nothing: every string in
// `request` is a view into the caller's buffer and is valid as long as
// those bytes are.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace baton::http1 {

struct header {
  std::string_view name;
  std::string_view value;
};

enum class body_framing : uint8_t { none, length, chunked };

enum class target_form : uint8_t { origin, absolute, authority, asterisk };

struct request {
  std::string_view method;
  std::string_view target;  // the raw request-target, as sent
  std::string_view path;    // the path part of the target (absolute-form: after the authority)
  std::string_view query;   // after '?', without it; empty if none
  // absolute-form: the target's host [":" port], which RFC 9112 section
  // 3.2.2 makes the request's host; empty for the other forms.
  std::string_view authority;
  target_form form = target_form::origin;
  uint8_t version_minor = 1;  // HTTP/1.x
  bool keep_alive = true;
  bool expect_continue = false;
  bool is_head = false;
  bool upgrade = false;  // a Connection: upgrade token was present
  body_framing framing = body_framing::none;
  uint64_t content_length = 0;
  // The header fields in the order sent. For an absolute-form target the
  // Host field's value is replaced by `authority` (a view into the target),
  // so code that reads Host sees the host the target names.
  const header* headers = nullptr;
  size_t header_count = 0;
  size_t head_length = 0;  // bytes of the head, including the final empty line
};

struct limits {
  size_t max_request_line = 8192;
  size_t max_header_bytes = 32768;  // the whole head
  size_t max_headers = 100;
  uint64_t max_body = 0;  // 0: unlimited
};

// How far a head has been scanned: every byte before `position` is known to
// hold no unexamined line end. Reset (value-initialise) it for a new request;
// parse_request resets it itself when it returns complete.
struct parse_cursor {
  size_t position = 0;
  bool request_line_done = false;
};

enum class parse_status : uint8_t { complete, incomplete, error };

struct parse_result {
  parse_status status = parse_status::incomplete;
  int http_status = 0;          // for errors: 400, 413, 414, 417, 431, 501, 505
  const char* reason = nullptr; // for errors: a short phrase for the log
};

// Parses one request head from buf[0, len). `cursor` carries what earlier
// calls over a prefix of the same bytes found. `storage` must hold
// lim.max_headers entries; out.headers points into it on success. The
// status of an error does not depend on how the bytes were split across calls.
parse_result parse_request(const char* buf, size_t len, parse_cursor& cursor, const limits& lim,
                           header* storage, request& out);

// At most this many empty lines (CRLF) may precede a request-line.
inline constexpr size_t max_leading_empty_lines = 4;

// Character classes shared with the chunked decoder and the response writer,
// as tables so the hot loops index rather than call.
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
bool equals_ignore_case(std::string_view a, std::string_view b);

}  // namespace baton::http1
