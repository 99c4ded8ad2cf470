#include "core/exchange/pseudo_response.h"

namespace baton::exchange {

namespace {

// Connection-specific fields have no place in HTTP/2 or HTTP/3 (RFC 9113
// 8.2.2, RFC 9114 4.2); the exchange keeps Connection, Keep-Alive and
// Transfer-Encoding out already.
bool forbidden(std::string_view lower) {
  return lower == "connection" || lower == "keep-alive" || lower == "proxy-connection" ||
         lower == "transfer-encoding" || lower == "upgrade";
}

}  // namespace

bool pseudo_framing::write_head(response_state& r, const commit_facts& facts, byte_buffer&) const {
  int s = r.status;
  r.no_body = facts.request.is_head || s < 200 || s == 204 || s == 304;
  r.chunked = false;
  // A 2xx to a CONNECT (RFC 8441's and RFC 9220's WebSocket) opens a stream
  // of its own bytes: it carries no length (RFC 9110 8.6).
  bool opens_stream = facts.request.method == "CONNECT" && s >= 200 && s < 300;
  if (r.length < 0 && !r.no_body && facts.body_is_empty && !opens_stream) r.length = 0;
  return false;  // neither protocol closes the connection for one response
}

std::string_view lowered_field_name(std::string_view name, std::string& text) {
  size_t at = text.size();
  for (char c : name) text.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  std::string_view lower(text.data() + at, name.size());
  if (forbidden(lower)) {
    text.resize(at);
    return {};
  }
  return lower;
}

}  // namespace baton::exchange
