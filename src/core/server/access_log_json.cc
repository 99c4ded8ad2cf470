#include "core/server/access_log_json.h"

#include <cstring>
#include <ctime>

#include "core/server/access_log.h"
#include "core/util/text.h"
#include "core/util/utf8.h"

namespace baton::server {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";
// Room for everything in a line but its strings: the keys, the time, the
// numbers (each at most 20 digits): about 440 bytes at the most.
constexpr size_t fixed_room = 512;
// The most one byte of a string can become: "\u00XX".
constexpr size_t widest_escape = 6;

// Bytes that go into a JSON string as they are: printable ASCII but the
// two JSON escapes ('"', '\').
bool plain(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

// The length of the valid UTF-8 sequence starting at `p` (of `left` bytes),
// or 0 when the bytes there are not one. The lead byte gives the length;
// the shared validator checks the rest (no overlong forms, no surrogates,
// nothing past U+10FFFF).
size_t utf8_sequence_at(const char* p, size_t left) {
  auto lead = static_cast<unsigned char>(*p);
  size_t length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length == 0 || length > left) return 0;
  return util::valid_utf8(p, length) ? length : 0;
}

// Writes into room the caller made (a line's whole worst case, reserved
// once): plain stores, no capacity check per piece. A line is a few dozen
// pieces, and a check and a call for each cost as much as the rest.
struct cursor {
  char* at;

  template <size_t N>
  void literal(const char (&text)[N]) {
    std::memcpy(at, text, N - 1);
    at += N - 1;
  }
  void number(uint64_t v) { at += util::write_decimal(at, v); }
  // Six digits, zeros in front: the fraction of a second.
  void micros(uint64_t v) {
    for (int i = 5; i >= 0; --i) {
      at[i] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
    at += 6;
  }
  void u00(unsigned char c) {
    char escape[widest_escape] = {'\\', 'u', '0', '0', hex_digits[c >> 4], hex_digits[c & 15]};
    std::memcpy(at, escape, sizeof escape);
    at += sizeof escape;
  }
  void escaped(std::string_view text);
  void string(std::string_view text) {
    *at++ = '"';
    escaped(text);
    *at++ = '"';
  }
  void string_or_null(std::string_view text) {
    if (text.empty()) literal("null");
    else string(text);
  }
};

// At most widest_escape bytes for each byte of `text`.
void cursor::escaped(std::string_view text) {
  const char* data = text.data();
  size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    size_t clean = i;
    while (clean < size && plain(static_cast<unsigned char>(data[clean]))) ++clean;
    std::memcpy(at, data + i, clean - i);  // the common case: all of it, at once
    at += clean - i;
    i = clean;
    if (i == size) break;
    auto c = static_cast<unsigned char>(data[i]);
    if (c >= 0x80) {
      size_t length = utf8_sequence_at(data + i, size - i);
      if (length != 0) {
        std::memcpy(at, data + i, length);
        at += length;
        i += length;
      } else {
        u00(c);
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': literal("\\\""); break;
      case '\\': literal("\\\\"); break;
      case '\n': literal("\\n"); break;
      case '\r': literal("\\r"); break;
      case '\t': literal("\\t"); break;
      default: u00(c); break;  // other control bytes and DEL
    }
    ++i;
  }
}

// "HTTP/1.1", "HTTP/1.0"; HTTP/2 and later by their major version alone, as
// RFC 9113 names it.
void protocol(cursor& c, uint8_t major, uint8_t minor) {
  c.literal("\"HTTP/");
  *c.at++ = static_cast<char>('0' + major % 10);
  if (major < 2) {
    *c.at++ = '.';
    *c.at++ = static_cast<char>('0' + minor % 10);
  }
  *c.at++ = '"';
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  size_t before = out.size();
  out.resize(before + 2 + widest_escape * text.size());
  cursor c{out.data() + before};
  c.string(text);
  out.resize(static_cast<size_t>(c.at - out.data()));
}

json_access_line::json_access_line(std::string_view request_id_header, int loop_index, pid_t worker)
    : request_id_header_(request_id_header), loop_index_(loop_index), worker_(worker) {}

// "2026-12-05T16:40:01." is formatted once a second; the microseconds and
// the offset each time.
std::string_view json_access_line::time_now(uint64_t& micros) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  if (now.tv_sec != time_for_) {
    struct tm utc;
    gmtime_r(&now.tv_sec, &utc);
    time_length_ = strftime(time_text_, sizeof time_text_, "%Y-%m-%dT%H:%M:%S.", &utc);
    time_for_ = now.tv_sec;
  }
  micros = static_cast<uint64_t>(now.tv_nsec / 1000);
  return {time_text_, time_length_};
}

void json_access_line::append(std::string& out, const access_record& r) {
  const exchange::request_head& h = *r.head;
  std::string_view agent = h.find("user-agent");
  std::string_view referer = h.find("referer");
  std::string_view request_id = h.find(request_id_header_);
  size_t strings = r.client.size() + h.method.size() + h.path.size() + h.query.size() + agent.size() +
                   referer.size() + request_id.size();
  size_t before = out.size();
  // The worst case at once (the capacity kept from line to line), then
  // trimmed to what was written.
  out.resize(before + fixed_room + widest_escape * strings);
  cursor c{out.data() + before};
  uint64_t micros = 0;
  std::string_view second = time_now(micros);
  c.literal("{\"time\":\"");
  std::memcpy(c.at, second.data(), second.size());
  c.at += second.size();
  c.micros(micros);
  c.literal("+00:00\",\"client\":");
  c.string_or_null(r.client);
  c.literal(",\"client_port\":");
  if (r.client_port != 0) c.number(r.client_port);
  else c.literal("null");
  c.literal(",\"method\":");
  c.string(h.method);
  c.literal(",\"path\":");
  c.string(h.path);
  c.literal(",\"query\":");
  c.string(h.query);
  c.literal(",\"protocol\":");
  protocol(c, h.version_major, h.version_minor);
  c.literal(",\"status\":");
  c.number(static_cast<uint64_t>(r.status));
  c.literal(",\"bytes_in\":");
  c.number(r.request_body_bytes + r.received_bytes);
  c.literal(",\"bytes_out\":");
  c.number(r.body_bytes);
  c.literal(",\"duration\":");
  auto duration_us = static_cast<uint64_t>(r.duration_us > 0 ? r.duration_us : 0);
  c.number(duration_us / 1000000);
  *c.at++ = '.';
  c.micros(duration_us % 1000000);
  c.literal(",\"user_agent\":");
  c.string_or_null(agent);
  c.literal(",\"referer\":");
  c.string_or_null(referer);
  c.literal(",\"request_id\":");
  c.string_or_null(request_id);
  c.literal(",\"worker\":");
  c.number(static_cast<uint64_t>(worker_));
  c.literal(",\"loop\":");
  c.number(static_cast<uint64_t>(loop_index_));
  c.literal("}\n");
  out.resize(static_cast<size_t>(c.at - out.data()));
}

}  // namespace baton::server
