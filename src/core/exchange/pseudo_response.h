// The response head as HTTP/2 and HTTP/3 send it: a field section with a
// :status pseudo-field, which each protocol's library (nghttp2, nghttp3)
// takes as an array of name-value pairs of the same shape. The exchange
// keeps the head as data (status, the app's fields, the body's length); on
// the app side, when the head is committed, `pseudo_framing` only decides
// what the body is (none for HEAD, 1xx, 204 and 304; a known length of zero
// for an empty one). On the loop thread, once the exchange says the head is
// ready, encode_response() turns it into the pairs: names in lower case,
// connection-specific fields left out (RFC 9113 section 8.2.2, RFC 9114
// section 4.2), the Content-Length, Date and Server the app did not send
// added, and the Alt-Svc of the connection's listener (HTTP/2 over TCP;
// never on HTTP/3 itself). Nothing is encoded on one thread to be decoded
// on another.
//
// The pair type `NV` is the library's (nghttp2_nv, nghttp3_nv): this room
// includes neither, so the encoders are templates the protocol instantiates.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/interim.h"
#include "core/exchange/response.h"
#include "core/util/http_date.h"
#include "core/util/text.h"

namespace baton::exchange {

class pseudo_framing final : public response_wire {
 public:
  // `server`: the Server field's value when the app sends none ("" for none).
  explicit pseudo_framing(std::string_view server) : server_(server) {}
  const std::string& server() const { return server_; }

  // Writes nothing: the head stays data until the loop encodes it.
  bool write_head(response_state& r, const commit_facts& facts, byte_buffer& out) const override;
  void begin_piece(size_t, byte_buffer&) const override {}
  void end_piece(byte_buffer&) const override {}
  void end_body(const response_state&, byte_buffer&) const override {}
  // Interim responses stay data too: the loop sends each as a field section
  // that does not end the stream (encode_interim).
  interim_result write_interim(int, const field_list&, const request_head&, byte_buffer&) const override {
    return interim_result::keep_as_data;
  }

 private:
  std::string server_;
};

// The storage an encoder fills; its views stay valid until the next call.
template <typename NV>
struct encoded_pairs {
  std::vector<NV> fields;
  std::string text;  // the lower-cased names, the status, the length and the date the pairs point into
};

// A pair pointing into storage the caller keeps until the library has copied it.
template <typename NV>
NV pair_of(std::string_view name, std::string_view value) {
  NV nv{};
  nv.name = reinterpret_cast<uint8_t*>(const_cast<char*>(name.data()));
  nv.value = reinterpret_cast<uint8_t*>(const_cast<char*>(value.data()));
  nv.namelen = name.size();
  nv.valuelen = value.size();
  return nv;
}

// `name` lower-cased onto the end of `text` (reserved by the caller: views
// must not move): its view there, or empty (and `text` as it was) when the
// field is connection-specific and has no place in these protocols.
std::string_view lowered_field_name(std::string_view name, std::string& text);

// `r` as committed (loop thread, once the exchange's head is ready).
// `alt_svc`: the Alt-Svc field's value when the app sends none ("" for none).
template <typename NV>
void encode_response(const response_state& r, std::string_view server, std::string_view alt_svc,
                     encoded_pairs<NV>& out) {
  // Reserved whole before anything is appended, so that no pair's view
  // moves: the lower-cased names, and the status, Content-Length and Date
  // that are made here.
  constexpr std::string_view status_name = ":status";
  constexpr std::string_view length_name = "content-length";
  constexpr size_t own_fields = status_name.size() + 3 + length_name.size() + 20 + 4 + 40;
  size_t names = 0;
  size_t count = 5;
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
  out.fields.push_back(pair_of<NV>(status_name, kept({number, 3})));
  bool has_length = false;
  r.fields.for_each([&](std::string_view name, std::string_view value) {
    std::string_view lower = lowered_field_name(name, text);
    if (lower.empty()) return;
    if (lower == length_name) has_length = true;
    out.fields.push_back(pair_of<NV>(lower, value));
  });
  if (r.length >= 0 && !has_length && !r.no_body) {
    int n = std::snprintf(number, sizeof number, "%lld", static_cast<long long>(r.length));
    out.fields.push_back(pair_of<NV>(length_name, kept({number, static_cast<size_t>(n)})));
  }
  if (!r.app_date) {
    std::string_view line = util::current_date_line();  // "date: ...\r\n"
    out.fields.push_back(pair_of<NV>("date", kept(line.substr(6, line.size() - 8))));
  }
  if (!r.app_server && !server.empty()) out.fields.push_back(pair_of<NV>("server", server));
  if (!r.app_alt_svc && !alt_svc.empty()) out.fields.push_back(pair_of<NV>("alt-svc", alt_svc));
}

// The app's trailers as the pairs of the stream's last field section,
// names in lower case (in `names`, which the pairs point into).
template <typename NV>
void encode_trailers(const field_list& trailers, std::string& names, std::vector<NV>& out) {
  names.clear();
  out.clear();
  trailers.for_each([&](std::string_view name, std::string_view) { names.append(name); });
  util::lowercase_in_place(names);
  size_t at = 0;
  trailers.for_each([&](std::string_view name, std::string_view value) {
    out.push_back(pair_of<NV>({names.data() + at, name.size()}, value));
    at += name.size();
  });
}

// The interim responses `queued` holds (exchange::take_interim: each a
// ":status" entry, then its fields), one at a time into `out` as the pairs
// of a field section (names in lower case, connection fields left out),
// each handed to `submit` while `out` holds it.
template <typename NV, typename Submit>
void encode_interim(const field_list& queued, encoded_pairs<NV>& out, Submit&& submit) {
  out.text.clear();
  out.text.reserve(queued.line_bytes_bound());
  out.fields.clear();
  queued.for_each([&](std::string_view name, std::string_view value) {
    if (name == interim_status_name) {
      if (!out.fields.empty()) submit(out);
      out.fields.clear();
      out.fields.push_back(pair_of<NV>(name, value));
      return;
    }
    std::string_view lower = lowered_field_name(name, out.text);
    if (!lower.empty()) out.fields.push_back(pair_of<NV>(lower, value));
  });
  if (!out.fields.empty()) submit(out);
}

}  // namespace baton::exchange
