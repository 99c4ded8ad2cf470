// An incremental UTF-8 validator (RFC 3629: shortest forms only, no
// surrogates, nothing past U+10FFFF) for WebSocket text messages and close
// reasons, whose bytes arrive in pieces: a sequence may be split across
// frames and reads. It fails as soon as the bytes seen cannot begin a valid
// text (RFC 6455 section 8.1: the connection is failed with 1007 then),
// not only at the end of the message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <cstring>

namespace baton::util {

class utf8_validator {
 public:
  // Feeds more bytes; false once the text cannot be valid whatever follows.
  bool feed(const char* data, size_t length) {
    auto p = reinterpret_cast<const unsigned char*>(data);
    size_t i = 0;
    while (i < length) {
      if (state_ == accept) {
        // The common case: runs of ASCII, eight bytes at a time.
        while (i + 8 <= length) {
          uint64_t word;
          std::memcpy(&word, p + i, 8);
          if ((word & 0x8080808080808080ull) != 0) break;
          i += 8;
        }
        while (i < length && p[i] < 0x80) ++i;
        if (i == length) break;
      }
      ascii_ = false;
      if (!step(p[i++])) return false;
    }
    return true;
  }
  // Whether every byte fed so far was ASCII.
  bool ascii() const { return ascii_; }
  // Whether the bytes fed so far end on a character boundary.
  bool complete() const { return state_ == accept; }
  bool failed() const { return state_ == reject; }
  void reset() {
    ascii_ = true;
    state_ = accept;
    needed_ = 0;
    lower_ = 0x80;
    upper_ = 0xbf;
  }

 private:
  static constexpr uint8_t accept = 0;
  static constexpr uint8_t inside = 1;
  static constexpr uint8_t reject = 2;

  // One byte: the lead byte of a sequence sets how many continuation bytes
  // follow and the range the first of them must be in (which rules out
  // overlong forms, surrogates and code points past U+10FFFF).
  bool step(unsigned char c) {
    if (state_ == reject) return false;
    if (needed_ == 0) {
      if (c < 0x80) return true;
      lower_ = 0x80;
      upper_ = 0xbf;
      if (c >= 0xc2 && c <= 0xdf) {
        needed_ = 1;
      } else if (c >= 0xe0 && c <= 0xef) {
        needed_ = 2;
        if (c == 0xe0) lower_ = 0xa0;
        if (c == 0xed) upper_ = 0x9f;
      } else if (c >= 0xf0 && c <= 0xf4) {
        needed_ = 3;
        if (c == 0xf0) lower_ = 0x90;
        if (c == 0xf4) upper_ = 0x8f;
      } else {
        state_ = reject;
        return false;
      }
      state_ = inside;
      return true;
    }
    if (c < lower_ || c > upper_) {
      state_ = reject;
      return false;
    }
    lower_ = 0x80;
    upper_ = 0xbf;
    if (--needed_ == 0) state_ = accept;
    return true;
  }

  bool ascii_ = true;
  uint8_t state_ = accept;
  uint8_t needed_ = 0;
  unsigned char lower_ = 0x80;
  unsigned char upper_ = 0xbf;
};

inline bool valid_utf8(const char* data, size_t length) {
  utf8_validator v;
  return v.feed(data, length) && v.complete();
}

// The longest prefix of valid UTF-8 `text` of at most `limit` bytes that
// does not cut a character (a close frame's reason must stay UTF-8).
inline std::string_view utf8_prefix(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xc0) == 0x80) --n;
  return text.substr(0, n);
}

}  // namespace baton::util
