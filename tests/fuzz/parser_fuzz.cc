// libFuzzer target for the request-head parser (src/core/http1/parser.h).
//
// Input: three control bytes, then the bytes a client sent.
//   bytes 0-1  the first split point, big-endian, modulo (length + 1)
//   byte 2     bit 0 selects small limits, so 413, 414 and 431 are reachable
//              with short inputs; bits 1-7 say how far past the first split
//              a second one falls
//
// The head is parsed whole, straight from libFuzzer's buffer (ASan bounds it
// exactly); at the two split points with one cursor; up to its head length
// alone; and, for inputs up to max_bytewise_length, byte by byte. Every way
// must give the same outcome, and each outcome must keep the promises
// parser.h makes. The split and byte-by-byte feeds show the parser a prefix
// of a heap copy whose other bytes are poisoned, so reading past the length
// crashes. Any disagreement or broken promise aborts with both outcomes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/http1/parser.h"
#include "core/util/text.h"
#include "support/exact_bytes.h"

namespace {

namespace h = baton::http1;
using baton::test::exact_bytes;
using baton::test::printable;

// Byte by byte costs one poisoning pass over the copy per byte, quadratic in
// the length; past this the split feeds alone carry the check.
constexpr size_t max_bytewise_length = 1024;

[[noreturn]] void broken(const char* what, std::string_view input, const std::string& expected = {},
                         const std::string& got = {}) {
  std::fprintf(stderr, "parser_fuzz: %s\n  input: %s\n", what, printable(input, 2000).c_str());
  if (!expected.empty() || !got.empty()) {
    std::fprintf(stderr, "  expected: %s\n  got:      %s\n", expected.c_str(), got.c_str());
  }
  std::abort();
}

baton::exchange::request_limits pick_limits(bool small) {
  baton::exchange::request_limits lim;
  if (small) {
    lim.max_request_line = 64;
    lim.max_header_bytes = 256;
    lim.max_headers = 4;
    lim.max_body = 10;
  }
  return lim;
}

// Where a view lies, as "offset+size" from the start of the buffer, so that
// outcomes from different copies of the same bytes compare equal. The one
// view allowed outside the head is the "/" absolute-form gets as its path
// when the target has none.
std::string where(std::string_view view, const char* base, size_t head_length, std::string_view input) {
  if (view.empty()) return "-";
  auto p = reinterpret_cast<uintptr_t>(view.data());
  auto b = reinterpret_cast<uintptr_t>(base);
  if (p >= b && p - b + view.size() <= head_length) {
    return std::to_string(p - b) + "+" + std::to_string(view.size());
  }
  if (view == "/") return "literal /";
  broken("a view points outside the head", input);
}

bool all_token_chars(std::string_view s) {
  for (char c : s) {
    if (!h::is_token_char(static_cast<unsigned char>(c))) return false;
  }
  return !s.empty();
}

// Checks what parse_request promises for one result and describes it.
std::string describe(const h::parse_result& r, const h::request& req, const h::parse_cursor& cursor,
                     const baton::exchange::request_limits& lim, const char* base, size_t length, std::string_view input) {
  switch (r.status) {
    case h::parse_status::incomplete:
      if (r.http_status != 0) broken("incomplete with an HTTP status", input);
      if (cursor.position > length) broken("the cursor passed the bytes shown", input);
      return "incomplete";
    case h::parse_status::error:
      switch (r.http_status) {
        case 400: case 413: case 414: case 417: case 431: case 501: case 505: break;
        default: broken("an error status outside the documented set", input);
      }
      if (r.reason == nullptr) broken("an error without a reason", input);
      return "error " + std::to_string(r.http_status);
    case h::parse_status::complete:
      break;
  }
  size_t head = r.head_length;
  if (cursor.position != 0 || cursor.request_line_done) broken("the cursor was not reset on complete", input);
  if (head < 4 || head > length || std::string_view(base + head - 4, 4) != "\r\n\r\n") {
    broken("the head does not end in an empty line within the bytes shown", input);
  }
  if (!all_token_chars(req.method)) broken("the method is not a token", input);
  if (req.field_count > lim.max_headers) broken("more fields than max_headers", input);
  if (req.version_minor > 1) broken("a minor version above 1", input);
  if (h::framing_of(req) == h::body_framing::chunked && req.version_minor != 1) {
    broken("chunked framing on HTTP/1.0", input);
  }
  if (req.content_length < -1) broken("a length below -1", input);
  if (lim.max_body != 0 && req.content_length > static_cast<int64_t>(lim.max_body)) broken("a length over max_body", input);
  if ((req.form == h::target_form::absolute) != !req.authority.empty()) {
    broken("authority set for a form other than absolute, or missing for it", input);
  }
  std::string s = "complete head_length=" + std::to_string(head) + " method=" + where(req.method, base, head, input) +
                  " target=" + where(req.target, base, head, input) + " path=" + where(req.path, base, head, input) +
                  " query=" + where(req.query, base, head, input) +
                  " authority=" + where(req.authority, base, head, input) +
                  " form=" + std::to_string(static_cast<int>(req.form)) +
                  " minor=" + std::to_string(req.version_minor) + " keep_alive=" + std::to_string(req.persistent) +
                  " expect_continue=" + std::to_string(req.expect_continue) +
                  " is_head=" + std::to_string(req.is_head) + " upgrade=" + std::to_string(req.upgrade) +
                  " framing=" + std::to_string(static_cast<int>(h::framing_of(req))) +
                  " content_length=" + std::to_string(req.content_length) + " headers:";
  for (size_t i = 0; i < req.field_count; ++i) {
    const h::header& f = req.fields[i];
    if (!all_token_chars(f.name)) broken("a field name that is not a token", input);
    for (char c : f.value) {
      if (!h::is_field_value_char(static_cast<unsigned char>(c))) broken("a field value with a CTL", input);
    }
    if (!f.value.empty() && (f.value.front() == ' ' || f.value.front() == '\t' || f.value.back() == ' ' ||
                             f.value.back() == '\t')) {
      broken("a field value with untrimmed whitespace", input);
    }
    if (req.form == h::target_form::absolute && baton::util::equals_ignore_case(f.name, "host") &&
        f.value.data() != req.authority.data()) {
      broken("Host is not the absolute-form authority", input);
    }
    s += " [" + where(f.name, base, head, input) + ": " + where(f.value, base, head, input) + "]";
  }
  return s;
}

// Shows the parser the input at each length in `lengths` (ascending, the
// last one the whole input) with one cursor; returns the first outcome that
// is not incomplete, or incomplete.
std::string feed(std::string_view input, const std::vector<size_t>& lengths, const baton::exchange::request_limits& lim,
                 size_t* stopped_at = nullptr) {
  exact_bytes bytes(input);
  std::vector<h::header> storage(lim.max_headers);
  h::request req;
  h::parse_cursor cursor;
  std::string outcome = "incomplete";
  for (size_t len : lengths) {
    const char* buf = bytes.show(len);
    size_t before = cursor.position;
    h::parse_result r = h::parse_request(buf, len, cursor, lim, storage.data(), req);
    outcome = describe(r, req, cursor, lim, buf, len, input);
    if (stopped_at != nullptr) *stopped_at = len;
    if (r.status != h::parse_status::incomplete) break;
    if (cursor.position != 0 && cursor.position < before) broken("the cursor moved backwards", input);
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  size_t first_cut_seed = (size_t{data[0]} << 8) | data[1];
  bool small = (data[2] & 1) != 0;
  size_t second_cut_step = data[2] >> 1;
  std::string_view input(reinterpret_cast<const char*>(data + 3), size - 3);
  size_t n = input.size();
  baton::exchange::request_limits lim = pick_limits(small);

  // Whole, from libFuzzer's own buffer.
  std::vector<h::header> storage(lim.max_headers);
  h::request req;
  h::parse_cursor cursor;
  h::parse_result r = h::parse_request(input.data(), n, cursor, lim, storage.data(), req);
  std::string whole = describe(r, req, cursor, lim, input.data(), n, input);

  // At two split points, one cursor across the three calls.
  size_t cut1 = first_cut_seed % (n + 1);
  size_t cut2 = cut1 + second_cut_step < n ? cut1 + second_cut_step : n;
  std::string split = feed(input, {cut1, cut2, n}, lim);
  if (split != whole) broken("split parse disagrees with whole", input, whole, split);

  // A complete head parses the same with nothing after it.
  if (r.status == h::parse_status::complete && r.head_length < n) {
    std::string alone = feed(input.substr(0, r.head_length), {r.head_length}, lim);
    if (alone != whole) broken("the head alone parses differently", input, whole, alone);
  }

  if (n <= max_bytewise_length) {
    std::vector<size_t> every;
    for (size_t k = 0; k <= n; ++k) every.push_back(k);
    size_t stopped_at = 0;
    std::string bytewise = feed(input, every, lim, &stopped_at);
    if (bytewise != whole) broken("byte-by-byte parse disagrees with whole", input, whole, bytewise);
    if (r.status == h::parse_status::complete && stopped_at != r.head_length) {
      broken("byte by byte, the head completed before or after its last byte", input);
    }
  }
  return 0;
}
