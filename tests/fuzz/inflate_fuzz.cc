// libFuzzer target for the permessage-deflate decompressor
// (src/core/ws/deflate.h): any bytes, as the payload of a compressed
// message, under a limit the first two input bytes set. It must never
// write past the limit, and must keep no context between messages: the
// same payload inflates to the same result twice in a row, and a payload
// that compresses back round-trips.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/ws/deflate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t limit = (static_cast<size_t>(data[0]) << 8 | data[1]) % 65536;
  const char* payload = reinterpret_cast<const char*>(data + 2);
  size_t length = size - 2;
  static baton::ws::inflater inflate;
  baton::byte_buffer first, second;
  auto a = inflate.inflate_message(payload, length, limit, first);
  auto b = inflate.inflate_message(payload, length, limit, second);
  if (first.size() > limit || second.size() > limit) std::abort();
  if (a != b || first.view() != second.view()) std::abort();
  // What compresses must come back.
  static baton::ws::deflater compress;
  baton::byte_buffer packed, back;
  if (compress.compress(baton::ws::deflate_settings{}, 12, payload, length, packed)) {
    auto r = inflate.inflate_message(packed.data(), packed.size(), length + 1, back);
    if (r != baton::ws::inflater::result::ok || back.view() != std::string_view(payload, length)) std::abort();
  }
  return 0;
}
