#include "core/ws/frame.h"

namespace baton::ws {

bool unmask_copy(char* dst, const char* src, size_t n, const uint8_t mask[4], uint64_t phase) {
  auto* out = reinterpret_cast<unsigned char*>(dst);
  auto* in = reinterpret_cast<const unsigned char*>(src);
  unsigned high = 0;  // the bytes written, ORed: bit 7 set once one is not ASCII
  size_t i = 0;
  // Bytewise until the mask's phase is back at 0 (the rest then lines up
  // with a mask repeated over a whole word).
  while (i < n && (phase + i) % 4 != 0) {
    out[i] = in[i] ^ mask[(phase + i) % 4];
    high |= out[i];
    ++i;
  }
  uint32_t m32;
  std::memcpy(&m32, mask, 4);
  uint64_t m64 = (uint64_t{m32} << 32) | m32;
  uint64_t high64 = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, in + i, 8);
    word ^= m64;
    high64 |= word;
    std::memcpy(out + i, &word, 8);
  }
  for (; i < n; ++i) {
    out[i] = in[i] ^ mask[(phase + i) % 4];
    high |= out[i];
  }
  return ((high64 & 0x8080808080808080ull) | (high & 0x80u)) == 0;
}

void append_frame_header(byte_buffer& out, uint8_t op, bool fin, bool rsv1, uint64_t length) {
  char* p = out.prepare(10);
  p[0] = static_cast<char>((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (op & 0x0f));
  size_t n;
  if (length < 126) {
    p[1] = static_cast<char>(length);
    n = 2;
  } else if (length <= 0xffff) {
    p[1] = 126;
    p[2] = static_cast<char>(length >> 8);
    p[3] = static_cast<char>(length & 0xff);
    n = 4;
  } else {
    p[1] = 127;
    for (int i = 0; i < 8; ++i) p[2 + i] = static_cast<char>((length >> (56 - 8 * i)) & 0xff);
    n = 10;
  }
  out.commit(n);
}

void append_frame(byte_buffer& out, uint8_t op, bool fin, bool rsv1, const char* data, size_t length) {
  append_frame_header(out, op, fin, rsv1, length);
  out.append(data, length);
}

}  // namespace baton::ws
