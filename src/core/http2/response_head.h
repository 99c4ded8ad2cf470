// The response head as HTTP/2 sends it. The exchange keeps the head as data
// (status, the app's fields, the body's length); on the app side, when the
// head is committed, `framing` only decides what the body is (none for
// HEAD, 1xx, 204 and 304; a known length of zero for an empty one). On the
// loop thread, once the exchange says the head is ready, encode() turns it
// into the name-value pairs of a HEADERS frame: names in lower case,
// connection-specific fields left out (RFC 9113 section 8.2.2), the
// Content-Length, Date and Server the app did not send added. Nothing is
// encoded on one thread to be decoded on another.
#pragma once

#include <nghttp2/nghttp2.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/response.h"

namespace baton::http2 {

class framing final : public exchange::response_wire {
 public:
  // `server`: the Server field's value when the app sends none ("" for none).
  explicit framing(std::string_view server) : server_(server) {}
  const std::string& server() const { return server_; }

  // Writes nothing: the head stays data until the loop encodes it.
  bool write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer& out) const override;
  void begin_piece(size_t, byte_buffer&) const override {}
  void end_piece(byte_buffer&) const override {}
  void end_body(const exchange::response_state&, byte_buffer&) const override {}
  // Interim responses stay data too: the loop sends each as a HEADERS
  // frame that does not end the stream (encode_interim).
  exchange::interim_result write_interim(int, const exchange::field_list&, const exchange::request_head&,
                                         byte_buffer&) const override {
    return exchange::interim_result::keep_as_data;
  }

 private:
  std::string server_;
};

// The storage encode() fills; its views stay valid until the next call.
struct encoded_head {
  std::vector<nghttp2_nv> fields;
  std::string text;  // the lower-cased names, the status, the length and the date the pairs point into
};

// `r` as committed (loop thread, once the exchange's head is ready).
void encode(const exchange::response_state& r, std::string_view server, encoded_head& out);

// The interim responses `queued` holds (exchange::take_interim: each a
// ":status" entry, then its fields), one at a time into `out` as the
// name-value pairs of a HEADERS frame (names in lower case, connection
// fields left out), each handed to `submit` while `out` holds it.
template <typename Submit>
void encode_interim(const exchange::field_list& queued, encoded_head& out, Submit&& submit);

// A pair pointing into storage the caller keeps until nghttp2 has copied it.
nghttp2_nv name_value(std::string_view name, std::string_view value);

}  // namespace baton::http2

namespace baton::http2 {

namespace detail {
// Appends (name, value) to `out` unless it is connection-specific, the
// name lower-cased into out.text (reserved by the caller: views must not move).
void add_interim_field(std::string_view name, std::string_view value, encoded_head& out);
}  // namespace detail

template <typename Submit>
void encode_interim(const exchange::field_list& queued, encoded_head& out, Submit&& submit) {
  out.text.clear();
  out.text.reserve(queued.line_bytes_bound());
  out.fields.clear();
  queued.for_each([&](std::string_view name, std::string_view value) {
    if (name == exchange::interim_status_name) {
      if (!out.fields.empty()) submit(out);
      out.fields.clear();
      out.fields.push_back(name_value(name, value));
      return;
    }
    detail::add_interim_field(name, value, out);
  });
  if (!out.fields.empty()) submit(out);
}

}  // namespace baton::http2
