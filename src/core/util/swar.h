// Tests on eight bytes at once, held in one 64-bit word ("SIMD within a
// register"): the validators of field names and values use them, and the
// compare of a field name with a known one. at_least and within answer
// with a word whose bytes have their high bit set where the test passed;
// any_below and any_equal answer for the word as a whole.
#pragma once

#include <cstdint>
#include <cstring>

namespace baton::util::swar {

inline constexpr uint64_t ones = 0x0101010101010101ull;
inline constexpr uint64_t highs = 0x8080808080808080ull;

// Eight bytes from p (unaligned; the caller knows all eight are readable).
inline uint64_t load(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Bytes of `w` that are at least `n` (n at most 0x80). Only for words whose
// bytes are all below 0x80 (then no carry crosses a byte: 0x7f + 0x80 fits
// in one).
constexpr uint64_t at_least(uint64_t w, unsigned n) { return (w + ones * (0x80 - n)) & highs; }
// Bytes in [low, high], under at_least's condition.
constexpr uint64_t within(uint64_t w, unsigned low, unsigned high) { return at_least(w, low) & ~at_least(w, high + 1); }
// Whether some byte is below `n` (n at most 0x80); any word.
constexpr bool any_below(uint64_t w, unsigned n) { return ((w - ones * n) & ~w & highs) != 0; }
// Whether some byte equals `c`; any word.
constexpr bool any_equal(uint64_t w, unsigned char c) {
  uint64_t x = w ^ (ones * c);
  return ((x - ones) & ~x & highs) != 0;
}

}  // namespace baton::util::swar
