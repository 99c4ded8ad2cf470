#include "core/http2/wire.h"

#include <cstring>

#include "core/http1/encoder.h"
#include "core/util/text.h"

namespace baton::http2 {

namespace {

void put16(byte_buffer& out, uint16_t v) {
  char b[2] = {static_cast<char>(v & 0xff), static_cast<char>(v >> 8)};
  out.append(b, 2);
}

void put32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint32_t get(const char* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

// Connection-specific fields have no place in HTTP/2 (RFC 9113 8.2.2); the
// exchange keeps Connection, Keep-Alive and Transfer-Encoding out already.
bool forbidden(std::string_view lower) {
  return lower == "connection" || lower == "keep-alive" || lower == "proxy-connection" ||
         lower == "transfer-encoding" || lower == "upgrade";
}

}  // namespace

bool wire::write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer& out) const {
  int s = r.status;
  r.no_body = facts.request.is_head || s < 200 || s == 204 || s == 304;
  r.chunked = false;
  if (r.length < 0 && !r.no_body && facts.body_is_empty) r.length = 0;
  size_t start = out.size();
  out.append("\0\0\0\0", 4);
  put16(out, static_cast<uint16_t>(s));
  char flags = r.no_body ? 1 : 0;
  out.append(&flags, 1);
  put16(out, 0);  // the field count, filled in below
  uint16_t count = 0;
  std::string lower;
  auto add = [&](std::string_view name, std::string_view value) {
    put16(out, static_cast<uint16_t>(name.size()));
    out.append(name);
    char n[4];
    put32(n, static_cast<uint32_t>(value.size()));
    out.append(n, 4);
    out.append(value);
    ++count;
  };
  bool has_length = false;
  r.fields.for_each([&](std::string_view name, std::string_view value) {
    lower.assign(name);
    util::lowercase_in_place(lower);
    if (forbidden(lower)) return;
    if (lower == "content-length") has_length = true;
    add(lower, value);
  });
  if (r.length >= 0 && !has_length && !r.no_body) {
    std::string n = std::to_string(r.length);
    add("content-length", n);
  }
  if (!r.app_date) {
    std::string_view line = http1::current_date_line();  // "date: ...\r\n"
    add("date", line.substr(6, line.size() - 8));
  }
  if (!r.app_server && !server_.empty()) add("server", server_);
  char* p = out.data() + start;
  put32(p, static_cast<uint32_t>(out.size() - start - 4));
  p[7] = static_cast<char>(count & 0xff);
  p[8] = static_cast<char>(count >> 8);
  return false;  // HTTP/2 never closes the connection for one response
}

size_t record_length(const char prefix[4]) { return 4 + get(prefix, 4); }

bool read_record(std::string_view bytes, head_record& out) {
  if (bytes.size() < 9) return false;
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  out.status = static_cast<int>(get(p + 4, 2));
  out.no_body = (p[6] & 1) != 0;
  uint32_t count = get(p + 7, 2);
  p += 9;
  out.fields.clear();
  out.fields.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (end - p < 2) return false;
    uint32_t n = get(p, 2);
    p += 2;
    if (static_cast<size_t>(end - p) < n + 4u) return false;
    std::string_view name(p, n);
    p += n;
    uint32_t v = get(p, 4);
    p += 4;
    if (static_cast<size_t>(end - p) < v) return false;
    out.fields.push_back({name, std::string_view(p, v)});
    p += v;
  }
  return p == end;
}

}  // namespace baton::http2
