#include "core/http1/encoder.h"

#include <cstdio>
#include <cstring>

#include "core/exchange/fields.h"
#include "core/util/text.h"

namespace baton::http1 {

void append_chunk_header(byte_buffer& out, size_t length) {
  char* p = out.prepare(20);
  int n = std::snprintf(p, 20, "%zx\r\n", length);
  out.commit(static_cast<size_t>(n));
}

void append_simple_response(byte_buffer& out, int status, std::string_view date_line,
                            std::string_view content_type, std::string_view body, bool close,
                            bool head_only, std::initializer_list<std::string_view> extra) {
  char number[64];
  int n = std::snprintf(number, sizeof number, "HTTP/1.1 %d ", status);
  out.append(number, static_cast<size_t>(n));
  out.append(exchange::status_reason(status));
  out.append("\r\ncontent-type: ");
  out.append(content_type);
  n = std::snprintf(number, sizeof number, "\r\ncontent-length: %zu\r\n", body.size());
  out.append(number, static_cast<size_t>(n));
  if (close) out.append("connection: close\r\n");
  out.append(date_line);
  for (std::string_view fields : extra) out.append(fields);
  out.append("\r\n", 2);
  if (!head_only) out.append(body);
}

encoder::encoder(std::string_view server, std::string_view alt_svc) {
  if (!server.empty()) server_line_ = "server: " + std::string(server) + "\r\n";
  if (!alt_svc.empty()) alt_svc_line_ = "alt-svc: " + std::string(alt_svc) + "\r\n";
  own_lines_ = server_line_ + alt_svc_line_;
}

void encoder::append_own_fields_apart(const exchange::response_state& r, byte_buffer& out) const {
  if (!r.app_server) out.append(server_line_);
  if (!r.app_alt_svc) out.append(alt_svc_line_);
}

// Keep-alive needs the whole request body to have arrived, or a rest the
// connection can read and drop before the next request (http1::protocol's
// finish_exchange): a length within the body window, from a client that is
// not waiting for 100 Continue (it may never send a body it was not asked
// for, and its next request would then be read as that body).
bool encoder::write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer& out) const {
  const exchange::request_head& request = facts.request;
  int s = r.status;
  r.no_body = request.is_head || s < 200 || s == 204 || s == 304;
  bool rest_droppable = !r.strict_keep_alive && request.content_length > 0 &&
                        static_cast<uint64_t>(request.content_length) <= facts.body_window && !request.expect_continue;
  bool keep = request.persistent && !facts.stopping && !r.app_wants_close && (facts.body_complete || rest_droppable);
  size_t need = 9 + r.status_line.size() + 2 + r.fields.line_bytes_bound();
  char* start = out.prepare(need);
  char* p = start;
  constexpr std::string_view version = "HTTP/1.1 ";
  util::copy_bytes(p, version, version.size());
  p += version.size();
  util::copy_bytes(p, r.status_line, r.status_line.size());
  p += r.status_line.size();
  *p++ = '\r';
  *p++ = '\n';
  r.fields.for_each([&](std::string_view name, std::string_view value) {
    util::copy_bytes(p, name, name.size());
    p += name.size();
    *p++ = ':';
    *p++ = ' ';
    util::copy_bytes(p, value, value.size());
    p += value.size();
    *p++ = '\r';
    *p++ = '\n';
  });
  out.commit(static_cast<size_t>(p - start));
  if (r.length < 0 && !r.no_body) {
    if (facts.body_is_empty) {
      out.append("content-length: 0\r\n");
      r.length = 0;
    } else if (request.version_minor == 1) {
      out.append("transfer-encoding: chunked\r\n");
      r.chunked = true;
    } else {
      keep = false;  // an HTTP/1.0 body without a length ends when the connection does
    }
  }
  if (s == 101) {
    // The connection goes on in the protocol switched to: neither closed
    // nor kept for HTTP/1 (RFC 9110 section 7.8 wants "upgrade" listed).
    out.append("connection: upgrade\r\n");
    keep = true;
  } else if (!keep) {
    out.append("connection: close\r\n");
  } else if (request.version_minor == 0) {
    out.append("connection: keep-alive\r\n");
  }
  if (!r.app_date) out.append(util::current_date_line());
  if (!(r.app_server | r.app_alt_svc)) [[likely]] {
    out.append(own_lines_);
  } else {
    append_own_fields_apart(r, out);
  }
  out.append("\r\n", 2);
  return !keep;
}

exchange::interim_result encoder::write_interim(int status, const exchange::field_list& fields,
                                                const exchange::request_head& request, byte_buffer& out) const {
  if (request.version_major != 1 || request.version_minor == 0) return exchange::interim_result::not_sent;
  char line[64];
  int n = std::snprintf(line, sizeof line, "HTTP/1.1 %d %s\r\n", status, exchange::status_reason(status));
  out.append(line, static_cast<size_t>(n));
  fields.for_each([&](std::string_view name, std::string_view value) {
    out.append(name);
    out.append(": ", 2);
    out.append(value);
    out.append("\r\n", 2);
  });
  out.append("\r\n", 2);
  return exchange::interim_result::written;
}

// The last chunk, then the trailer section (RFC 9112 section 7.1.2).
void encoder::end_body(const exchange::response_state& r, byte_buffer& out) const {
  if (r.trailers.empty()) {
    out.append(last_chunk);
    return;
  }
  out.append("0\r\n", 3);
  r.trailers.for_each([&](std::string_view name, std::string_view value) {
    out.append(name);
    out.append(": ", 2);
    out.append(value);
    out.append("\r\n", 2);
  });
  out.append("\r\n", 2);
}

}  // namespace baton::http1
