// HTTP/2's response_wire. The exchange writes a response's head through it
// on the app side; the HTTP/2 protocol on the loop side turns that head
// into a HEADERS frame, and the body that follows into DATA frames, with
// nghttp2. So the head is written here as a record the protocol reads back
// from the front of the exchange's output: the status, whether a body
// follows, and the fields with their names in lower case (HTTP/2 wants
// them so), less those HTTP/2 forbids (RFC 9113 section 8.2.2). The body
// goes out as the app gave it: DATA frames are its framing.
//
// The record: u32 length of the rest (little-endian), u16 status, u8 flags
// (1: no body), u16 field count, then per field u16 name length, the name,
// u32 value length, the value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/response.h"
#include "core/util/byte_buffer.h"

namespace baton::http2 {

class wire final : public exchange::response_wire {
 public:
  // `server`: the Server field's value when the app sends none ("" for none).
  explicit wire(std::string_view server) : server_(server) {}
  bool write_head(exchange::response_state& r, const exchange::commit_facts& facts, byte_buffer& out) const override;
  void begin_piece(size_t, byte_buffer&) const override {}
  void end_piece(byte_buffer&) const override {}
  void end_body(const exchange::response_state&, byte_buffer&) const override {}

 private:
  std::string server_;
};

// A head record read back (views into the bytes it was read from).
struct head_record {
  int status = 0;
  bool no_body = false;
  struct field {
    std::string_view name;
    std::string_view value;
  };
  std::vector<field> fields;
};

// The length of the whole record whose first four bytes are `prefix`.
size_t record_length(const char prefix[4]);
// Reads a whole record; false when it is malformed (a bug, not input).
bool read_record(std::string_view bytes, head_record& out);

}  // namespace baton::http2
