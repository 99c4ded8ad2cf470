#include "core/server/access_log_json.h"

#include <ctime>

#include "core/server/access_log.h"
#include "core/util/utf8.h"

namespace baton::server {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

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

void append_u00(std::string& out, unsigned char c) {
  char escape[6] = {'\\', 'u', '0', '0', hex_digits[c >> 4], hex_digits[c & 15]};
  out.append(escape, sizeof escape);
}

void append_number(std::string& out, uint64_t v) {
  char digits[20];
  size_t n = 0;
  do {
    digits[sizeof digits - 1 - n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  out.append(digits + sizeof digits - n, n);
}

// Six digits, zeros in front: the fraction of a second.
void append_micros(std::string& out, uint64_t micros) {
  char digits[6];
  for (int i = 5; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + micros % 10);
    micros /= 10;
  }
  out.append(digits, sizeof digits);
}

void append_string_or_null(std::string& out, std::string_view text) {
  if (text.empty()) out.append("null");
  else append_json_string(out, text);
}

// "HTTP/1.1", "HTTP/1.0"; HTTP/2 and later by their major version alone, as
// RFC 9113 names it.
void append_protocol(std::string& out, uint8_t major, uint8_t minor) {
  out.append("\"HTTP/");
  out.push_back(static_cast<char>('0' + major % 10));
  if (major < 2) {
    out.push_back('.');
    out.push_back(static_cast<char>('0' + minor % 10));
  }
  out.push_back('"');
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  const char* data = text.data();
  size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    size_t clean = i;
    while (clean < size && plain(static_cast<unsigned char>(data[clean]))) ++clean;
    out.append(data + i, clean - i);  // the common case: all of it, at once
    i = clean;
    if (i == size) break;
    auto c = static_cast<unsigned char>(data[i]);
    if (c >= 0x80) {
      size_t length = utf8_sequence_at(data + i, size - i);
      if (length != 0) {
        out.append(data + i, length);
        i += length;
      } else {
        append_u00(out, c);
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default: append_u00(out, c); break;  // other control bytes and DEL
    }
    ++i;
  }
  out.push_back('"');
}

json_access_line::json_access_line(std::string_view request_id_header, int loop_index, pid_t worker)
    : request_id_header_(request_id_header), loop_index_(loop_index), worker_(worker) {}

void json_access_line::append_time(std::string& out) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  if (now.tv_sec != time_for_) {
    struct tm utc;
    gmtime_r(&now.tv_sec, &utc);
    time_length_ = strftime(time_text_, sizeof time_text_, "%Y-%m-%dT%H:%M:%S.", &utc);
    time_for_ = now.tv_sec;
  }
  out.push_back('"');
  out.append(time_text_, time_length_);
  append_micros(out, static_cast<uint64_t>(now.tv_nsec / 1000));
  out.append("+00:00\"");
}

void json_access_line::append(std::string& out, const access_record& r) {
  const exchange::request_head& h = *r.head;
  out.append("{\"time\":");
  append_time(out);
  out.append(",\"client\":");
  append_string_or_null(out, r.client);
  out.append(",\"client_port\":");
  if (r.client_port != 0) append_number(out, r.client_port);
  else out.append("null");
  out.append(",\"method\":");
  append_json_string(out, h.method);
  out.append(",\"path\":");
  append_json_string(out, h.path);
  out.append(",\"query\":");
  append_json_string(out, h.query);
  out.append(",\"protocol\":");
  append_protocol(out, h.version_major, h.version_minor);
  out.append(",\"status\":");
  append_number(out, static_cast<uint64_t>(r.status));
  out.append(",\"bytes_in\":");
  append_number(out, r.request_body_bytes + r.received_bytes);
  out.append(",\"bytes_out\":");
  append_number(out, r.body_bytes);
  out.append(",\"duration\":");
  auto duration_us = static_cast<uint64_t>(r.duration_us > 0 ? r.duration_us : 0);
  append_number(out, duration_us / 1000000);
  out.push_back('.');
  append_micros(out, duration_us % 1000000);
  out.append(",\"user_agent\":");
  append_string_or_null(out, h.find("user-agent"));
  out.append(",\"referer\":");
  append_string_or_null(out, h.find("referer"));
  out.append(",\"request_id\":");
  append_string_or_null(out, h.find(request_id_header_));
  out.append(",\"worker\":");
  append_number(out, static_cast<uint64_t>(worker_));
  out.append(",\"loop\":");
  append_number(out, static_cast<uint64_t>(loop_index_));
  out.append("}\n");
}

}  // namespace baton::server
