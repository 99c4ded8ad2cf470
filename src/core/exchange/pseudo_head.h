// A request head that arrives as a field section with pseudo-fields, as
// HTTP/2's HPACK and HTTP/3's QPACK decode it, field by field, and the
// rules about it that decide what an app may see (RFC 9113 section 8 and
// RFC 9114 section 4.2-4.3 say the same): pseudo-fields
// become the request line, cookie crumbs one field again (8.2.3), a
// connection-specific field or a bad content-length makes the request
// malformed (8.2.2, 8.1.1: the stream is reset), and a head too large, with
// too many fields, with userinfo in :authority or a host that names
// another origin (8.3.1) is refused with a status. No library here: the
// protocol feeds it, so it is tested on its own (tests/unit/exchange/).
//
// Loop thread only; one per stream, until the exchange takes its copy.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/head.h"
#include "core/util/byte_buffer.h"

namespace baton::exchange {

struct pseudo_limits {
  uint64_t max_list_bytes = 32768;  // RFC 9113 6.5.2's measure: names, values and 32 a field
  size_t max_fields = 100;          // fields that are not pseudo-fields (--max-headers)
};

class pseudo_head {
 public:
  // A decoded field, in the order the decoder gave it.
  void add(std::string_view name, std::string_view value, const pseudo_limits& limits);

  // The head is whole. Why the request is malformed (then the stream is
  // reset), or null; it reads the content-length, which a body ending with
  // the head (`body_ends`) must not contradict.
  const char* malformed(bool body_ends);
  // Why the request is refused before any app sees it, with the answer's
  // status (431, 400), or null.
  const char* refusal(const pseudo_limits& limits, int& status) const;
  // The exchange's view: `h`'s views point into bytes() (or are
  // constants), the cookies joined into one where the first was, and a host
  // field from :authority when the client sent none; `version` is the
  // protocol's (2 or 3). Call once.
  void describe(bool body_ends, uint8_t version, request_head& h, std::vector<field>& fields);

  const byte_buffer& bytes() const { return bytes_; }
  // The bytes, for the exchange to take (describe()'s views point into them).
  byte_buffer& bytes_to_take() { return bytes_; }
  // The request's content-length, or -1 when it sent none (after malformed()).
  int64_t content_length() const { return content_length_; }
  // Frees the storage once the exchange holds its copy.
  void clear();

 private:
  struct span {
    uint32_t name_at, name_length, value_at, value_length;
  };
  std::string_view name_of(size_t i) const {
    return bytes_.view().substr(spans_[i].name_at, spans_[i].name_length);
  }
  std::string_view value_of(int i) const;
  int join_cookies();

  // Names and values back to back, and where each is.
  byte_buffer bytes_;
  std::vector<span> spans_;
  int method_ = -1, path_ = -1, scheme_ = -1, authority_ = -1, host_ = -1, protocol_ = -1;  // indexes into spans_
  uint64_t list_bytes_ = 0;
  uint32_t field_count_ = 0;  // cookie crumbs count once
  uint32_t cookies_ = 0;
  bool too_large_ = false;
  const char* malformed_ = nullptr;
  int64_t content_length_ = -1;
};

}  // namespace baton::exchange
