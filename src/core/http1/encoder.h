// HTTP/1.1's wire for responses: the status line, the fields, the framing
// of the body (Content-Length, chunked, or to the end of the connection),
// keep-alive, the Date and Server fields, and the answers the connection
// gives on its own before any exchange exists (a malformed request, a
// timeout). The exchange keeps the response as data; this writes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/exchange/response.h"
#include "core/util/byte_buffer.h"
#include "core/util/http_date.h"

namespace baton::http1 {

void append_chunk_header(byte_buffer& out, size_t length);
inline constexpr std::string_view last_chunk = "0\r\n\r\n";
inline constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

// A complete response the connection writes on its own behalf (a malformed
// request, a timeout, a 504), when no exchange carries the request. Always
// closes when `close` is set. `extra`: whole field lines ("name:
// value\r\n") added to the head.
void append_simple_response(byte_buffer& out, int status, std::string_view date_line,
                            std::string_view content_type, std::string_view body, bool close,
                            bool head_only = false, std::initializer_list<std::string_view> extra = {});

// How every exchange an HTTP/1 connection starts writes its response. One
// per server, or one per listener when listeners advertise Alt-Svc;
// stateless but for the Server and Alt-Svc fields it adds.
class encoder final : public exchange::response_wire {
 public:
  // `server`: the Server field's value when the app sends none ("" for
  // none); `alt_svc` the same for Alt-Svc (RFC 7838).
  explicit encoder(std::string_view server, std::string_view alt_svc = {});
  bool write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer& out) const override;
  void begin_piece(size_t length, byte_buffer& out) const override { append_chunk_header(out, length); }
  void end_piece(byte_buffer& out) const override { out.append("\r\n", 2); }
  void end_body(const exchange::response_state& r, byte_buffer& out) const override;
  // An HTTP/1.1 client takes interim responses (RFC 9110 section 15.2); an
  // HTTP/1.0 one does not, and gets none.
  exchange::interim_result write_interim(int status, const exchange::field_list& fields,
                                         const exchange::request_head& request, byte_buffer& out) const override;

 private:
  // The Server and Alt-Svc lines the app did not send, added after Date,
  // when it sent one of them. Both lines are kept together too (own_lines_),
  // so a response whose app sent neither (nearly every one) costs one test
  // and one append, as the Server line alone did before Alt-Svc.
  void append_own_fields_apart(const exchange::response_state& r, byte_buffer& out) const;

  std::string server_line_;   // "server: baton\r\n", or empty
  std::string alt_svc_line_;  // "alt-svc: h3=\":8443\"; ma=86400\r\n", or empty
  std::string own_lines_;     // both
};

}  // namespace baton::http1
