// RFC 6455 framing: an incremental decoder for what a client sends (masked
// frames, 7/16/64-bit lengths) and the encoder for what the server sends
// (unmasked). The decoder keeps no more than a partial header between
// calls; payload bytes are handed on as they arrive, still masked, so a
// frame of any length costs no buffer here, and the hook that keeps them
// unmasks them in the same pass as its copy (unmask_copy). It is a template
// over its hooks so the message layer, the tests and the fuzzer each drive
// it with their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/util/byte_buffer.h"

namespace baton::ws {

enum class opcode : uint8_t { continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xa };

inline bool is_control(uint8_t op) { return (op & 0x8) != 0; }

struct frame_header {
  bool fin = false;
  bool rsv1 = false;
  bool rsv2 = false;
  bool rsv3 = false;
  uint8_t op = 0;  // as sent (may be a reserved one: the hooks decide)
  bool masked = false;
  uint64_t length = 0;
  uint8_t mask[4] = {};
};

// Writes `n` bytes of `src` XORed with the mask, `phase` bytes into it, to
// `dst` (which may be `src`): bytewise up to the mask's boundary, then eight
// at a time. Returns whether every byte written is ASCII (below 0x80): a
// text's validation can skip a run that is.
bool unmask_copy(char* dst, const char* src, size_t n, const uint8_t mask[4], uint64_t phase);

// Hooks: bool on_header(const frame_header&) (false stops the decoder: the
// frame is refused), bool on_payload(const char* data, size_t n, uint64_t
// phase) (as sent: masked when the header says so, `phase` bytes into the
// payload; false stops it), bool on_frame_end() (false stops it).
template <typename Hooks>
class frame_decoder {
 public:
  enum class result : uint8_t { need_more, stopped };

  // Decodes what it can of [data, data + length); `consumed` says how much
  // it took. `stopped`: a hook returned false (the bytes after the stop are
  // not taken).
  result feed(const char* data, size_t length, size_t& consumed, Hooks& hooks) {
    consumed = 0;
    while (consumed < length) {
      if (!in_payload_) {
        size_t took = 0;
        if (!read_header(data + consumed, length - consumed, took)) {
          consumed += took;
          return result::need_more;
        }
        consumed += took;
        if (!hooks.on_header(header_)) return result::stopped;
        in_payload_ = true;
        position_ = 0;
        if (header_.length == 0) {
          in_payload_ = false;
          if (!hooks.on_frame_end()) return result::stopped;
        }
        continue;
      }
      uint64_t left = header_.length - position_;
      size_t n = length - consumed < left ? length - consumed : static_cast<size_t>(left);
      const char* p = data + consumed;
      uint64_t phase = position_;
      position_ += n;
      consumed += n;
      if (!hooks.on_payload(p, n, phase)) return result::stopped;
      if (position_ == header_.length) {
        in_payload_ = false;
        if (!hooks.on_frame_end()) return result::stopped;
      }
    }
    return result::need_more;
  }

  // Between frames (no partial header or payload pending).
  bool at_boundary() const { return !in_payload_ && partial_ == 0; }
  void reset() {
    in_payload_ = false;
    partial_ = 0;
    position_ = 0;
  }

 private:
  // Assembles the header; true when it is complete (`took` counts the
  // bytes taken from this call's input either way).
  bool read_header(const char* data, size_t length, size_t& took) {
    took = 0;
    while (true) {
      size_t want = header_size();  // grows once the first two bytes are in
      if (partial_ == want) break;
      size_t n = want - partial_ < length - took ? want - partial_ : length - took;
      if (n == 0) return false;
      std::memcpy(bytes_ + partial_, data + took, n);
      partial_ += n;
      took += n;
    }
    decode_header();
    partial_ = 0;
    return true;
  }

  // The header's size so far as its first two bytes tell it (2 until they are in).
  size_t header_size() const {
    if (partial_ < 2) return 2;
    size_t n = 2;
    uint8_t len7 = bytes_[1] & 0x7f;
    if (len7 == 126) n += 2;
    else if (len7 == 127) n += 8;
    if ((bytes_[1] & 0x80) != 0) n += 4;
    return n;
  }

  void decode_header() {
    const uint8_t* b = bytes_;
    header_.fin = (b[0] & 0x80) != 0;
    header_.rsv1 = (b[0] & 0x40) != 0;
    header_.rsv2 = (b[0] & 0x20) != 0;
    header_.rsv3 = (b[0] & 0x10) != 0;
    header_.op = b[0] & 0x0f;
    header_.masked = (b[1] & 0x80) != 0;
    uint8_t len7 = b[1] & 0x7f;
    size_t at = 2;
    if (len7 < 126) {
      header_.length = len7;
    } else if (len7 == 126) {
      header_.length = (uint64_t{b[2]} << 8) | b[3];
      at = 4;
    } else {
      header_.length = 0;
      for (int i = 0; i < 8; ++i) header_.length = (header_.length << 8) | b[2 + i];
      at = 10;
    }
    if (header_.masked) std::memcpy(header_.mask, b + at, 4);
  }

  uint8_t bytes_[14] = {};
  size_t partial_ = 0;  // header bytes gathered so far
  bool in_payload_ = false;
  uint64_t position_ = 0;  // payload bytes of the current frame taken so far
  frame_header header_;
};

// Appends a server frame (unmasked) with `length` payload bytes' header; the
// payload itself follows it, written by the caller.
void append_frame_header(byte_buffer& out, uint8_t op, bool fin, bool rsv1, uint64_t length);
// The same with the payload.
void append_frame(byte_buffer& out, uint8_t op, bool fin, bool rsv1, const char* data, size_t length);

}  // namespace baton::ws
