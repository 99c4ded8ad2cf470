// The response head as HTTP/2 sends it: the head shared with HTTP/3
// (exchange/pseudo_response.h) in nghttp2's name-value pairs.
#pragma once

#include <nghttp2/nghttp2.h>

#include <string_view>
#include <utility>

#include "core/exchange/pseudo_response.h"

namespace baton::http2 {

using framing = exchange::pseudo_framing;
using encoded_head = exchange::encoded_pairs<nghttp2_nv>;

// `r` as committed (loop thread, once the exchange's head is ready).
inline void encode(const exchange::response_state& r, std::string_view server, std::string_view alt_svc,
                   encoded_head& out) {
  exchange::encode_response(r, server, alt_svc, out);
}

// Each interim response `queued` holds, as the pairs of a HEADERS frame.
template <typename Submit>
void encode_interim(const exchange::field_list& queued, encoded_head& out, Submit&& submit) {
  exchange::encode_interim(queued, out, std::forward<Submit>(submit));
}

// A pair pointing into storage the caller keeps until nghttp2 has copied it.
inline nghttp2_nv name_value(std::string_view name, std::string_view value) {
  return exchange::pair_of<nghttp2_nv>(name, value);
}

}  // namespace baton::http2
