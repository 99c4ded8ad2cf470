// The HTTP/1.1 request-head parser (RFC 9112, strict).
//
// The parser keeps no state between calls except a cursor saying how far it
// has already looked for the end of the head, so a caller feeding bytes one
// at a time costs O(n) overall. It copies nothing: every string in
// `request` is a view into the caller's buffer and is valid as long as
// those bytes are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/exchange/fields.h"
#include "core/exchange/head.h"
#include "core/exchange/request_limits.h"

namespace baton::http1 {

// A field as the parser finds it: the exchange's own type, so a parsed
// head hands its fields over without a copy of the array.
using header = exchange::field;
using exchange::target_form;

// The head as the parser finds it is the exchange's own request_head (one
// request type from the parser to the app): its views point into the
// caller's buffer, its fields into the caller's storage, and its
// content_length says how the body is framed.
using request = exchange::request_head;

enum class body_framing : uint8_t { none, length, chunked };
inline body_framing framing_of(const request& r) {
  return r.content_length < 0 ? body_framing::chunked : r.content_length == 0 ? body_framing::none : body_framing::length;
}

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
  size_t head_length = 0;       // when complete: bytes of the head, including the final empty line
};

// Parses one request head from buf[0, len). `cursor` carries what earlier
// calls over a prefix of the same bytes found. `storage` must hold
// lim.max_headers entries; out.fields points into it on success. The
// status of an error does not depend on how the bytes were split across calls.
parse_result parse_request(const char* buf, size_t len, parse_cursor& cursor, const exchange::request_limits& lim,
                           header* storage, request& out);

// At most this many empty lines (CRLF) may precede a request-line.
inline constexpr size_t max_leading_empty_lines = 4;

// Character classes shared with the chunked decoder (RFC 9110's, kept once
// in exchange/fields.h).
using exchange::is_field_value_char;
using exchange::is_token_char;

}  // namespace baton::http1
