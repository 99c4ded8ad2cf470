// permessage-deflate (RFC 7692) with zlib: the negotiation of its
// parameters from a client's offers, and the compressor and decompressor.
//
// Baton always answers with server_no_context_takeover and
// client_no_context_takeover (RFC 7692 sections 7.1.1.1 and 7.1.1.2 let a
// server add both to any offer it accepts): no message depends on the one
// before it, so one compressor and one decompressor per loop thread serve
// every session, reset between messages, and an open WebSocket holds no
// zlib memory at all (uvicorn's per-connection streams cost tens of KiB
// each: encode/uvicorn#1862, #2540). The compressor is lean for the same
// reason: a 4 KiB window (12 bits) and memLevel 5 unless the client asks
// for less, at zlib's level 1 unless the operator sets another
// (--ws-deflate-level). Level 1 is zlib's fast path: it takes the first
// match it finds and leaves the bytes inside a long match out of its index,
// where the higher levels index every byte and look for a longer match
// before taking one. On JSON files cut into 16 KiB messages it compresses
// in a third to a half of level 6's time and sends a quarter to two fifths
// more bytes (512-byte messages: 5 % more, at about the same cost); nginx's
// gzip and Go's WebSocket servers default to it for that trade. The
// decompressor's output is bounded: the size limit applies to the inflated
// message, so a small message cannot inflate past it.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/byte_buffer.h"

namespace baton::ws {

struct deflate_settings {
  bool enabled = true;
  int window_bits = 12;  // the compressor's window when the client sets no smaller one
  int mem_level = 5;
  int level = 1;  // zlib's compression level, 1 to 9
  // Messages shorter than this go out uncompressed (RSV1 clear): for a few
  // bytes the header costs more than deflate saves.
  size_t min_size = 48;
};

// What was agreed for one session.
struct deflate_agreement {
  bool enabled = false;
  int server_window_bits = 15;  // the compressor's window
};

// Reads the client's offers (the Sec-WebSocket-Extensions values, joined
// with commas) and accepts the first permessage-deflate offer whose
// parameters are valid and can be honoured. `response` gets the value of
// the Sec-WebSocket-Extensions response field ("" when nothing is agreed).
deflate_agreement negotiate_deflate(std::string_view offers, const deflate_settings& mine, std::string& response);

// Compresses whole messages, with no context kept between them.
class deflater {
 public:
  deflater() = default;
  ~deflater();
  deflater(const deflater&) = delete;
  deflater& operator=(const deflater&) = delete;
  // Appends the compressed form of [data, data + length) to `out` (the
  // trailing 00 00 FF FF of the sync flush removed, as RFC 7692 7.2.1
  // says). False when zlib fails (the caller then sends it uncompressed).
  bool compress(const deflate_settings& settings, int window_bits, const char* data, size_t length,
                byte_buffer& out);

 private:
  z_stream stream_{};
  bool ready_ = false;
  int window_bits_ = 0;
};

// Decompresses whole messages, with no context kept between them.
class inflater {
 public:
  inflater() = default;
  ~inflater();
  inflater(const inflater&) = delete;
  inflater& operator=(const inflater&) = delete;
  enum class result : uint8_t { ok, too_large, malformed };
  // Appends the inflated form of a message's payload to `out`, never
  // letting `out` grow past `limit` bytes (too_large then).
  result inflate_message(const char* data, size_t length, size_t limit, byte_buffer& out);
  // A buffer for the callers to inflate into, one for all of them; after
  // each use, done_with_output() gives back what a large message took.
  byte_buffer& output() { return output_; }
  void done_with_output() {
    output_.clear();
    if (output_.capacity() > size_t{1} << 20) output_ = byte_buffer();
  }

 private:
  z_stream stream_{};
  bool ready_ = false;
  byte_buffer output_;
};

}  // namespace baton::ws
