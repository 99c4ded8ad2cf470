// From frames to messages, with every rule RFC 6455 (and RFC 7692 for
// compressed messages) sets a receiver: masking required of a client, RSV
// bits only for an agreed extension, no reserved opcodes, control frames of
// at most 125 bytes and never fragmented (they may come between the
// fragments of a message), a continuation only inside a message and a new
// data frame never inside one, the size limit on the whole (inflated)
// message, text and close reasons in UTF-8 (checked as the bytes arrive, so
// a text fails with 1007 at the first byte that cannot begin valid UTF-8),
// and close codes the RFC allows. A message is handed on whole, once its
// last frame is in.
//
// A template over its hooks, like the frame decoder under it:
//   bool on_message(bool text, bool ascii, byte_buffer& payload)  (`ascii`:
//        a text whose every byte, inflated when compressed, is ASCII;
//        payload may be taken;
//        false pauses the reader after this message: feed() returns, and
//        the bytes after the message are the caller's to feed again later)
//   void on_ping(const char* data, size_t n)
//   void on_pong(const char* data, size_t n)
//   void on_close(uint16_t code, std::string_view reason)  (code 1005: none sent)
//   void on_error(uint16_t close_code, const char* reason)
// After on_close or on_error the reader takes nothing more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/util/byte_buffer.h"
#include "core/ws/deflate.h"
#include "core/ws/frame.h"
#include "core/util/utf8.h"

namespace baton::ws {

namespace close_code {
inline constexpr uint16_t normal = 1000;
inline constexpr uint16_t going_away = 1001;
inline constexpr uint16_t protocol_error = 1002;
inline constexpr uint16_t unsupported_data = 1003;
inline constexpr uint16_t no_status = 1005;
inline constexpr uint16_t abnormal = 1006;
inline constexpr uint16_t invalid_payload = 1007;
inline constexpr uint16_t policy = 1008;
inline constexpr uint16_t too_big = 1009;
inline constexpr uint16_t internal_error = 1011;
inline constexpr uint16_t service_restart = 1012;
}  // namespace close_code

// A code a close frame may carry (RFC 6455 section 7.4, and the IANA
// registry's 1012 to 1014); 1004 to 1006 and 1015 never travel.
inline bool valid_close_code(uint32_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

template <typename Hooks>
class message_reader {
 public:
  // `inflate`: permessage-deflate was agreed, and this decompresses
  // (shared by the loop's sessions; null otherwise).
  message_reader(size_t max_size, inflater* inflate) : max_size_(max_size), inflater_(inflate) {}

  // Takes what it can of [data, data + length). Returns the bytes taken;
  // after a close or an error, none more.
  size_t feed(const char* data, size_t length, Hooks& hooks) {
    if (done_) return 0;
    hooks_ = &hooks;
    size_t consumed = 0;
    frames_.feed(data, length, consumed, *this);
    hooks_ = nullptr;
    return consumed;
  }
  bool done() const { return done_; }
  // Whether a message is partly received (its frames so far are held).
  bool in_message() const { return in_message_; }
  // Bytes held for the message being received.
  size_t held() const { return message_.size(); }
  // Frees what a large message left (between messages).
  void release_memory() {
    if (in_message_) return;
    message_ = byte_buffer();
  }

  // The frame decoder's hooks.
  bool on_header(const frame_header& h) {
    header_ = h;
    if (!h.masked) return fail(close_code::protocol_error, "an unmasked frame from the client");
    if (h.rsv2 || h.rsv3) return fail(close_code::protocol_error, "RSV2 or RSV3 set, no extension uses them");
    uint8_t op = h.op;
    if (is_control(op)) {
      if (op != static_cast<uint8_t>(opcode::close) && op != static_cast<uint8_t>(opcode::ping) &&
          op != static_cast<uint8_t>(opcode::pong)) {
        return fail(close_code::protocol_error, "a reserved control opcode");
      }
      if (h.rsv1) return fail(close_code::protocol_error, "RSV1 set on a control frame");
      if (!h.fin) return fail(close_code::protocol_error, "a fragmented control frame");
      if (h.length > 125) return fail(close_code::protocol_error, "a control frame over 125 bytes");
      control_.clear();
      return true;
    }
    if (op == static_cast<uint8_t>(opcode::continuation)) {
      if (!in_message_) return fail(close_code::protocol_error, "a continuation frame with no message to continue");
      if (h.rsv1) return fail(close_code::protocol_error, "RSV1 set on a continuation frame");
    } else if (op == static_cast<uint8_t>(opcode::text) || op == static_cast<uint8_t>(opcode::binary)) {
      if (in_message_) return fail(close_code::protocol_error, "a new data frame inside a fragmented message");
      if (h.rsv1 && inflater_ == nullptr) return fail(close_code::protocol_error, "RSV1 set, no extension was agreed");
      in_message_ = true;
      text_ = op == static_cast<uint8_t>(opcode::text);
      compressed_ = h.rsv1;
      ascii_ = true;
      utf8_.reset();
      // Room in front for the header the exchange puts on a message, so it
      // can take the buffer as it is; storage for the frame, up to a bound
      // (a length is only what the client says it will send).
      message_.reset_with_front_room(front_room, h.length < reserved_at_most ? h.length : reserved_at_most);
    } else {
      return fail(close_code::protocol_error, "a reserved data opcode");
    }
    if ((h.length >> 63) != 0) return fail(close_code::protocol_error, "a 64-bit length with its top bit set");
    if (h.length > max_size_ || message_.size() + h.length > max_size_) {
      return fail(close_code::too_big, "a message over the size limit");
    }
    return true;
  }

  // The payload is unmasked as it is copied to where it is kept; a text's
  // UTF-8 is checked there, while it is in the cache, unless the copy
  // found it all ASCII at a character boundary (nothing to check then).
  bool on_payload(const char* data, size_t n, uint64_t phase) {
    byte_buffer& kept = is_control(header_.op) ? control_ : message_;
    char* p = kept.prepare(n);
    bool ascii = unmask_copy(p, data, n, header_.mask, phase);
    kept.commit(n);
    if (is_control(header_.op)) return true;
    ascii_ = ascii_ && ascii;
    if (text_ && !compressed_ && !(ascii && utf8_.complete()) && !utf8_.feed(p, n)) {
      return fail(close_code::invalid_payload, "a text message that is not UTF-8");
    }
    return true;
  }

  bool on_frame_end() {
    switch (static_cast<opcode>(header_.op)) {
      case opcode::ping:
        hooks_->on_ping(control_.data(), control_.size());
        return !done_;
      case opcode::pong:
        hooks_->on_pong(control_.data(), control_.size());
        return !done_;
      case opcode::close:
        return read_close();
      default:
        break;
    }
    if (!header_.fin) return true;
    in_message_ = false;
    if (compressed_ && !inflate_message()) return false;
    // A compressed message is inflated into the inflater's own buffer, shared
    // by the loop's sessions: a session holds only the compressed bytes, and
    // none keeps an inflation's worth of memory after its message.
    byte_buffer& payload = compressed_ ? inflater_->output() : message_;
    bool valid = true;
    if (text_ && compressed_) {
      // The inflated text is checked whole; the check tells ASCII too.
      utf8_.reset();
      valid = utf8_.feed(payload.data(), payload.size()) && utf8_.complete();
      ascii_ = utf8_.ascii();
    } else if (text_) {
      valid = utf8_.complete();
    }
    bool go_on = valid && hooks_->on_message(text_, text_ && ascii_, payload);
    if (compressed_) {
      message_.clear();
      inflater_->done_with_output();
    }
    // No large buffer is kept between messages: the next one takes storage
    // the allocator has just had back (warm in the cache), as the
    // exchange's channels do.
    if (message_.empty() && message_.capacity() > storage_kept) message_ = byte_buffer();
    if (!valid) return fail(close_code::invalid_payload, "a text message that is not UTF-8");
    return go_on && !done_;
  }

 private:
  bool fail(uint16_t code, const char* reason) {
    done_ = true;
    in_message_ = false;
    hooks_->on_error(code, reason);
    return false;
  }

  bool read_close() {
    std::string_view payload(control_.data(), control_.size());
    if (payload.empty()) {
      done_ = true;
      hooks_->on_close(close_code::no_status, {});
      return false;
    }
    if (payload.size() == 1) return fail(close_code::protocol_error, "a close frame of one byte");
    uint32_t code = (static_cast<uint32_t>(static_cast<unsigned char>(payload[0])) << 8) |
                    static_cast<unsigned char>(payload[1]);
    if (!valid_close_code(code)) return fail(close_code::protocol_error, "a close code no endpoint may send");
    std::string_view reason = payload.substr(2);
    if (!util::valid_utf8(reason.data(), reason.size())) return fail(close_code::invalid_payload, "a close reason that is not UTF-8");
    done_ = true;
    hooks_->on_close(static_cast<uint16_t>(code), reason);
    return false;
  }

  bool inflate_message() {
    byte_buffer& out = inflater_->output();
    out.clear();
    inflater::result r = inflater_->inflate_message(message_.data(), message_.size(), max_size_, out);
    if (r == inflater::result::ok) return true;
    inflater_->done_with_output();
    if (r == inflater::result::too_large) return fail(close_code::too_big, "a message that inflates over the size limit");
    return fail(close_code::invalid_payload, "a compressed message that does not inflate");
  }

  // Room kept in front of a message for a channel's header (the
  // exchange's is 5 bytes).
  static constexpr size_t front_room = 8;
  // Storage made ready for a message before its bytes come, at most.
  static constexpr size_t reserved_at_most = size_t{64} * 1024;
  // A message buffer larger than this is not kept after its message.
  static constexpr size_t storage_kept = 4096;

  size_t max_size_;
  inflater* inflater_;
  frame_decoder<message_reader> frames_;
  Hooks* hooks_ = nullptr;
  frame_header header_;
  bool done_ = false;
  bool in_message_ = false;
  bool text_ = false;
  bool compressed_ = false;
  bool ascii_ = false;  // every byte of the message so far (inflated, when compressed) is below 0x80
  util::utf8_validator utf8_;
  byte_buffer message_;
  byte_buffer control_;
};

}  // namespace baton::ws
