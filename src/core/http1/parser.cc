#include "core/http1/parser.h"

#include <cstring>

#include "core/exchange/authority.h"
#include "core/util/text.h"

namespace baton::http1 {
namespace {

using util::equals_ignore_case;
using util::for_each_list_element;
using util::parse_decimal;
using util::starts_with_ignore_case;
using util::trim_ows;


// The same test as is_field_value_char, written as a branch-free reduction
// so the compiler can check a whole value 16 or 32 bytes at a time.
bool all_field_value_chars(std::string_view value) {
  bool ok = true;
  for (char ch : value) {
    unsigned char c = static_cast<unsigned char>(ch);
    ok &= (c >= 0x20 && c != 0x7f) || c == '\t';
  }
  return ok;
}

// What a step of the parse found: 16 bytes, returned in registers (the
// public result, with the head's length beside, would go through memory on
// every field line).
struct parse_step {
  parse_status status = parse_status::incomplete;
  int http_status = 0;
  const char* reason = nullptr;
};

parse_step fail(int status, const char* reason) {
  return {parse_status::error, status, reason};
}


// Splits an origin-form or absolute-form path into path and query. The
// target holds no fragment: parse_target has refused it.
void split_path_query(std::string_view rest, request& out) {
  size_t q = rest.find('?');
  if (q == std::string_view::npos) {
    out.path = rest;
    out.query = {};
  } else {
    out.path = rest.substr(0, q);
    out.query = rest.substr(q + 1);
  }
}

parse_step parse_target(std::string_view target, request& out) {
  for (unsigned char c : target) {
    if (c < 0x21 || c > 0x7e) return fail(400, "invalid octet in request-target");
  }
  // RFC 9112 section 3.2: no form of request-target has a fragment. Dropping
  // one would serve a different resource from the one the bytes name.
  if (target.find('#') != std::string_view::npos) return fail(400, "fragment in request-target");
  if (target.front() == '/') {
    out.form = target_form::origin;
    split_path_query(target, out);
    return {parse_status::complete};
  }
  if (target == "*") {
    if (out.method != "OPTIONS") return fail(400, "asterisk-form is only for OPTIONS");
    out.form = target_form::asterisk;
    out.path = {};
    return {parse_status::complete};
  }
  if (out.method == "CONNECT") {
    // authority-form: host ":" port, nothing else.
    size_t colon = target.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == target.size()) {
      return fail(400, "CONNECT needs authority-form");
    }
    for (char c : target.substr(colon + 1)) {
      if (c < '0' || c > '9') return fail(400, "bad port in authority-form");
    }
    if (target.find_first_of("/?#@") != std::string_view::npos) {
      return fail(400, "bad authority-form");
    }
    out.form = target_form::authority;
    out.path = {};
    return {parse_status::complete};
  }
  size_t scheme_len = 0;
  if (starts_with_ignore_case(target, "http://")) scheme_len = 7;
  else if (starts_with_ignore_case(target, "https://")) scheme_len = 8;
  if (scheme_len == 0) return fail(400, "unsupported request-target form");
  std::string_view rest = target.substr(scheme_len);
  size_t path_start = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, path_start);
  if (authority.empty()) return fail(400, "absolute-form without authority");
  // RFC 9110 section 4.2.4: userinfo in an http(s) URI is an error (it is a
  // phishing shape, and no app should see credentials in a target).
  if (authority.find('@') != std::string_view::npos) return fail(400, "userinfo in request-target");
  exchange::host_and_port parts;
  if (!exchange::parse_host_and_port(authority, parts)) return fail(400, "invalid authority in request-target");
  // RFC 9110 section 4.2.1: an http(s) URI with an empty host is invalid.
  if (parts.host.empty()) return fail(400, "absolute-form with an empty host");
  out.authority = authority;
  out.form = target_form::absolute;
  if (path_start == std::string_view::npos) {
    out.path = "/";
    out.query = {};
  } else {
    split_path_query(rest.substr(path_start), out);
    if (out.path.empty()) out.path = "/";
  }
  return {parse_status::complete};
}

parse_step parse_request_line(std::string_view line, request& out) {
  size_t i = 0;
  while (i < line.size() && exchange::detail::token_table[static_cast<unsigned char>(line[i])]) ++i;
  if (i == 0 || i == line.size() || line[i] != ' ') return fail(400, "invalid method");
  out.method = line.substr(0, i);
  out.is_head = out.method == "HEAD";
  size_t target_start = i + 1;
  size_t target_end = line.find(' ', target_start);
  if (target_end == std::string_view::npos || target_end == target_start) {
    return fail(400, "invalid request-line");
  }
  out.target = line.substr(target_start, target_end - target_start);
  std::string_view version = line.substr(target_end + 1);
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
      version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9') {
    return fail(400, "invalid HTTP-version");
  }
  if (version[5] != '1') return fail(505, "HTTP version not supported");
  out.version_minor = static_cast<uint8_t>(version[7] - '0');
  if (out.version_minor > 1) out.version_minor = 1;  // a 1.x server answers higher minors as 1.1
  return parse_target(out.target, out);
}

struct header_facts {
  int host_count = 0;
  header* host = nullptr;  // the (last) Host field
  int content_type_count = 0;
  bool has_content_length = false;
  bool has_transfer_encoding = false;
  bool connection_close = false;
  bool connection_keep_alive = false;
  uint64_t content_length = 0;
  std::string_view transfer_encodings[8];
  int transfer_encoding_count = 0;
};

// `h` is not const: the Host field is remembered so its value can be
// replaced by an absolute-form target's authority.
parse_step note_header(header& h, header_facts& facts, request& out) {
  std::string_view n = h.name;
  // Most fields are none of these: the length and first letter rule them out
  // before any full comparison.
  char first = static_cast<char>(n[0] | 0x20);
  if (first != 'h' && first != 'e' && first != 'c' && first != 't' && first != 'u') return {parse_status::complete};
  switch (n.size()) {
    case 4:
      if (equals_ignore_case(n, "host")) {
        // RFC 9112 section 3.2: an invalid Host is a 400 whatever the target
        // form, even where the target's authority will replace it.
        exchange::host_and_port parts;
        if (!exchange::parse_host_and_port(h.value, parts)) return fail(400, "invalid Host");
        ++facts.host_count;
        facts.host = &h;
      }
      break;
    case 6:
      if (equals_ignore_case(n, "expect")) {
        if (!equals_ignore_case(h.value, "100-continue")) return fail(417, "unsupported expectation");
        out.expect_continue = true;
      }
      break;
    case 7:
      if (equals_ignore_case(n, "upgrade")) out.upgrade_field = true;
      break;
    case 10:
      if (equals_ignore_case(n, "connection")) {
        for_each_list_element(h.value, [&](std::string_view token) {
          if (equals_ignore_case(token, "close")) facts.connection_close = true;
          else if (equals_ignore_case(token, "keep-alive")) facts.connection_keep_alive = true;
          else if (equals_ignore_case(token, "upgrade")) out.upgrade = true;
          return true;
        });
      }
      break;
    case 12:
      if (equals_ignore_case(n, "content-type")) ++facts.content_type_count;
      break;
    case 14:
      if (util::token_equals_lowercase(n, "content-length")) {
        uint64_t value = 0;
        if (!parse_decimal(h.value, value)) return fail(400, "invalid Content-Length");
        if (facts.has_content_length && value != facts.content_length) {
          return fail(400, "differing Content-Length values");
        }
        facts.has_content_length = true;
        facts.content_length = value;
      }
      break;
    case 17:
      if (util::token_equals_lowercase(n, "transfer-encoding")) {
        facts.has_transfer_encoding = true;
        if (facts.transfer_encoding_count == 8) return fail(400, "too many Transfer-Encoding fields");
        facts.transfer_encodings[facts.transfer_encoding_count++] = h.value;
      }
      break;
    default:
      break;
  }
  return {parse_status::complete};
}

// RFC 9112 section 6: the framing a request's header fields describe.
parse_step decide_framing(const header_facts& facts, const exchange::request_limits& lim, request& out) {
  if (facts.host_count > 1) return fail(400, "more than one Host");
  if (facts.host_count == 0 && out.version_minor == 1) return fail(400, "HTTP/1.1 request without Host");
  if (facts.content_type_count > 1) return fail(400, "more than one Content-Type");
  if (facts.has_transfer_encoding) {
    if (facts.has_content_length) return fail(400, "both Content-Length and Transfer-Encoding");
    if (out.version_minor == 0) return fail(400, "Transfer-Encoding in an HTTP/1.0 request");
    int chunked_count = 0;
    bool chunked_with_parameters = false;
    bool unknown = false;
    bool last_is_chunked = false;
    for (int i = 0; i < facts.transfer_encoding_count; ++i) {
      for_each_list_element(facts.transfer_encodings[i], [&](std::string_view coding) {
        size_t semicolon = coding.find(';');
        coding = trim_ows(coding.substr(0, semicolon));
        last_is_chunked = equals_ignore_case(coding, "chunked");
        if (last_is_chunked) {
          ++chunked_count;
          if (semicolon != std::string_view::npos) chunked_with_parameters = true;
        } else {
          unknown = true;
        }
        return true;
      });
    }
    // RFC 9112 section 7.1: chunked defines no parameters. One that carries
    // some is not the coding this decoder implements, and another recipient
    // may frame the body differently: a 400 before the 501 for unknown codings.
    if (chunked_with_parameters) return fail(400, "parameters on chunked");
    if (!last_is_chunked) return fail(400, "Transfer-Encoding does not end in chunked");
    if (chunked_count > 1) return fail(400, "chunked applied more than once");
    if (unknown) return fail(501, "unsupported transfer coding");
    out.content_length = -1;
  } else if (facts.has_content_length) {
    if (lim.max_body != 0 && facts.content_length > lim.max_body) return fail(413, "body too large");
    out.content_length = static_cast<int64_t>(facts.content_length);
  }
  if (out.version_minor == 1) {
    out.persistent = !facts.connection_close;
  } else {
    out.persistent = facts.connection_keep_alive && !facts.connection_close;
    out.expect_continue = false;  // an HTTP/1.0 client does not wait for 100
  }
  return {parse_status::complete};
}

parse_step parse_header_line(std::string_view line, header& h) {
  if (line.front() == ' ' || line.front() == '\t') return fail(400, "obsolete line folding");
  size_t i = 0;
  while (i < line.size() && exchange::detail::token_table[static_cast<unsigned char>(line[i])]) ++i;
  if (i == line.size() || line[i] != ':') {
    return fail(400, (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                         ? "whitespace before colon"
                         : "invalid header name");
  }
  if (i == 0) return fail(400, "empty header name");
  h.name = line.substr(0, i);
  std::string_view value = line.substr(i + 1);
  if (!all_field_value_chars(value)) return fail(400, "invalid octet in header value");
  h.value = trim_ows(value);
  return {parse_status::complete};
}

// The parse itself; `head_length` is set when the head is complete.
parse_step parse_head(const char* buf, size_t len, parse_cursor& cursor, const exchange::request_limits& lim,
                      header* storage, request& out, size_t& head_length) {
  // RFC 9112 section 2.2: ignore a few empty lines before the request-line.
  size_t start = 0;
  while (start + 1 < len && buf[start] == '\r' && buf[start + 1] == '\n') {
    start += 2;
    if (start > 2 * max_leading_empty_lines) return fail(400, "too many empty lines before the request-line");
  }
  if (start < len && buf[start] == '\n') return fail(400, "bare LF");
  if (start >= len || (start + 1 == len && buf[start] == '\r')) {
    cursor = {};
    return {parse_status::incomplete};
  }
  if (cursor.position < start) cursor.position = start;

  // Find the empty line that ends the head, resuming where the last call
  // stopped. Size limits are checked before the line end's own shape, so a
  // head gets the same status however its bytes were split. Every LF must
  // follow a CR: a bare LF is rejected, since a recipient that honoured it as
  // a line end would split fields differently from one that did not (a
  // smuggling shape).
  size_t head_end = 0;
  while (true) {
    const void* found = std::memchr(buf + cursor.position, '\n', len - cursor.position);
    if (found == nullptr) {
      if (!cursor.request_line_done && len - start > lim.max_request_line) return fail(414, "request-line too long");
      if (len - start > lim.max_header_bytes) return fail(431, "request head too large");
      cursor.position = len;
      return {parse_status::incomplete};
    }
    size_t lf = static_cast<size_t>(static_cast<const char*>(found) - buf);
    if (!cursor.request_line_done && lf + 1 - start > lim.max_request_line) return fail(414, "request-line too long");
    if (lf + 1 - start > lim.max_header_bytes) return fail(431, "request head too large");
    if (lf == 0 || buf[lf - 1] != '\r') return fail(400, "bare LF");
    if (cursor.request_line_done && buf[lf - 2] == '\n') {
      head_end = lf + 1;  // "\r\n" right after the previous line's LF: the empty line
      break;
    }
    cursor.request_line_done = true;
    cursor.position = lf + 1;
  }
  cursor = {};

  out = request{};
  // The request-line.
  const char* line_start = buf + start;
  const char* lf = static_cast<const char*>(std::memchr(line_start, '\n', head_end - start));
  std::string_view request_line(line_start, static_cast<size_t>(lf - 1 - line_start));
  if (request_line.find('\r') != std::string_view::npos) return fail(400, "bare CR");
  parse_step r = parse_request_line(request_line, out);
  if (r.status == parse_status::error) return r;

  header_facts facts;
  size_t count = 0;
  line_start = lf + 1;
  const char* end = buf + head_end - 2;  // the final CRLF
  while (line_start < end) {
    lf = static_cast<const char*>(std::memchr(line_start, '\n', static_cast<size_t>(end + 2 - line_start)));
    std::string_view line(line_start, static_cast<size_t>(lf - 1 - line_start));
    if (count == lim.max_headers) return fail(431, "too many header fields");
    header& h = storage[count];
    r = parse_header_line(line, h);
    if (r.status == parse_status::error) return r;
    r = note_header(h, facts, out);
    if (r.status == parse_status::error) return r;
    ++count;
    line_start = lf + 1;
  }
  out.fields = storage;
  out.field_count = count;
  r = decide_framing(facts, lim, out);
  if (r.status != parse_status::complete) return r;
  // RFC 9112 section 3.2.2: the target's authority overrides Host. The value
  // becomes a view into the target, so nothing is copied and code that reads
  // Host (the bridge's HTTP_HOST) needs no knowledge of target forms.
  if (out.form == target_form::absolute && facts.host != nullptr) facts.host->value = out.authority;
  head_length = head_end;
  return r;
}

}  // namespace

parse_result parse_request(const char* buf, size_t len, parse_cursor& cursor, const exchange::request_limits& lim,
                           header* storage, request& out) {
  size_t head_length = 0;
  parse_step s = parse_head(buf, len, cursor, lim, storage, out, head_length);
  return {s.status, s.http_status, s.reason, head_length};
}

}  // namespace baton::http1
