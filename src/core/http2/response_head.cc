#include "core/http2/response_head.h"

#include <cstdio>

#include "core/util/http_date.h"

namespace baton::http2 {

namespace {

// Connection-specific fields have no place in HTTP/2 (RFC 9113 8.2.2); the
// exchange keeps Connection, Keep-Alive and Transfer-Encoding out already.
bool forbidden(std::string_view lower) {
  return lower == "connection" || lower == "keep-alive" || lower == "proxy-connection" ||
         lower == "transfer-encoding" || lower == "upgrade";
}

}  // namespace

bool framing::write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer&) const {
  int s = r.status;
  r.no_body = facts.request.is_head || s < 200 || s == 204 || s == 304;
  r.chunked = false;
  // A 2xx to a CONNECT (RFC 8441's WebSocket) opens a stream of its own
  // bytes: it carries no length (RFC 9110 8.6).
  bool opens_stream = facts.request.method == "CONNECT" && s >= 200 && s < 300;
  if (r.length < 0 && !r.no_body && facts.body_is_empty && !opens_stream) r.length = 0;
  return false;  // HTTP/2 never closes the connection for one response
}

nghttp2_nv name_value(std::string_view name, std::string_view value) {
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

void encode(const exchange::response_state& r, std::string_view server, encoded_head& out) {
  // Reserved whole before anything is appended, so that no pair's view
  // moves: the lower-cased names, and the status, Content-Length and Date
  // that are made here.
  constexpr std::string_view status_name = ":status";
  constexpr std::string_view length_name = "content-length";
  constexpr size_t own_fields = status_name.size() + 3 + length_name.size() + 20 + 4 + 40;
  size_t names = 0;
  size_t count = 4;
  r.fields.for_each([&](std::string_view name, std::string_view) {
    names += name.size();
    ++count;
  });
  std::string& text = out.text;
  text.clear();
  text.reserve(names + own_fields);
  out.fields.clear();
  out.fields.reserve(count);
  auto kept = [&](std::string_view s) {
    size_t at = text.size();
    text.append(s);
    return std::string_view(text.data() + at, s.size());
  };
  char number[24];
  std::snprintf(number, sizeof number, "%03d", r.status);
  out.fields.push_back(name_value(status_name, kept({number, 3})));
  bool has_length = false;
  r.fields.for_each([&](std::string_view name, std::string_view value) {
    size_t at = text.size();
    for (char c : name) text.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
    std::string_view lower(text.data() + at, name.size());
    if (forbidden(lower)) {
      text.resize(at);
      return;
    }
    if (lower == length_name) has_length = true;
    out.fields.push_back(name_value(lower, value));
  });
  if (r.length >= 0 && !has_length && !r.no_body) {
    int n = std::snprintf(number, sizeof number, "%lld", static_cast<long long>(r.length));
    out.fields.push_back(name_value(length_name, kept({number, static_cast<size_t>(n)})));
  }
  if (!r.app_date) {
    std::string_view line = util::current_date_line();  // "date: ...\r\n"
    out.fields.push_back(name_value("date", kept(line.substr(6, line.size() - 8))));
  }
  if (!r.app_server && !server.empty()) out.fields.push_back(name_value("server", server));
}

namespace detail {

void add_interim_field(std::string_view name, std::string_view value, encoded_head& out) {
  size_t at = out.text.size();
  for (char c : name) out.text.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  std::string_view lower(out.text.data() + at, name.size());
  if (forbidden(lower)) {
    out.text.resize(at);
    return;
  }
  out.fields.push_back(name_value(lower, value));
}

}  // namespace detail

}  // namespace baton::http2
