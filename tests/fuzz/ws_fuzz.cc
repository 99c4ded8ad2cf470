// libFuzzer target for the WebSocket message layer over the frame decoder
// (src/core/ws/message.h, frame.h), as a client's bytes reach it.
//
// Input: two control bytes, then the bytes of the connection.
//   bytes 0-1  a split point, big-endian, modulo (length + 1); the low bit of
//              byte 0 also says whether permessage-deflate was agreed
//
// The bytes are read whole, split at the point, and (up to
// max_bytewise_length) one byte at a time, each from a fresh copy (the
// decoder unmasks in place). All three must report the same events: the
// same messages, pings, pongs, close or error, in the same order; and no
// message may exceed the size limit. Any disagreement aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/ws/deflate.h"
#include "core/ws/message.h"

namespace {

namespace ws = baton::ws;

constexpr size_t max_bytewise_length = 2048;
constexpr size_t max_size = 4096;

struct recorder {
  std::string events;
  bool on_message(bool text, bool ascii, baton::byte_buffer& payload) {
    if (payload.size() > max_size) std::abort();
    // A text said to be ASCII is all below 0x80 (inflated, when compressed).
    if (ascii && !text) std::abort();
    if (ascii) {
      for (char c : payload.view()) {
        if ((static_cast<unsigned char>(c) & 0x80) != 0) std::abort();
      }
    }
    events += text ? "T" : "B";
    events += std::to_string(payload.size()) + ":";
    events.append(payload.view());
    events += "|";
    return true;
  }
  void on_ping(const char* d, size_t n) { events += "P" + std::string(d, n) + "|"; }
  void on_pong(const char* d, size_t n) { events += "O" + std::string(d, n) + "|"; }
  void on_close(uint16_t code, std::string_view reason) {
    events += "C" + std::to_string(code) + std::string(reason) + "|";
  }
  void on_error(uint16_t code, const char* reason) { events += "E" + std::to_string(code) + reason + "|"; }
};

std::string read(std::string_view input, size_t step, bool deflate) {
  ws::inflater inflate;
  ws::message_reader<recorder> reader(max_size, deflate ? &inflate : nullptr);
  recorder r;
  std::string copy(input);
  size_t at = 0;
  while (at < copy.size() && !reader.done()) {
    size_t n = step == 0 ? copy.size() - at : std::min(step, copy.size() - at);
    // Each piece in a buffer of its own, of exactly its size.
    std::vector<char> piece(copy.begin() + static_cast<std::ptrdiff_t>(at),
                            copy.begin() + static_cast<std::ptrdiff_t>(at + n));
    size_t took = reader.feed(piece.data(), piece.size(), r);
    if (took > n) std::abort();
    if (took < n && !reader.done()) std::abort();  // it only stops early at a close or an error
    at += n;
  }
  return r.events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  bool deflate = (data[0] & 1) != 0;
  size_t split_at = (static_cast<size_t>(data[0]) << 8 | data[1]);
  std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
  split_at %= input.size() + 1;
  std::string whole = read(input, 0, deflate);
  // Split in two at the point.
  {
    ws::inflater inflate;
    ws::message_reader<recorder> reader(max_size, deflate ? &inflate : nullptr);
    recorder r;
    std::string a(input.substr(0, split_at)), b(input.substr(split_at));
    size_t took = reader.feed(a.data(), a.size(), r);
    if (took == a.size() && !reader.done()) reader.feed(b.data(), b.size(), r);
    if (r.events != whole) {
      std::fprintf(stderr, "ws_fuzz: split at %zu disagrees\n  whole: %s\n  split: %s\n", split_at, whole.c_str(),
                   r.events.c_str());
      std::abort();
    }
  }
  if (input.size() <= max_bytewise_length) {
    std::string bytewise = read(input, 1, deflate);
    if (bytewise != whole) {
      std::fprintf(stderr, "ws_fuzz: byte by byte disagrees\n  whole: %s\n  bytes: %s\n", whole.c_str(),
                   bytewise.c_str());
      std::abort();
    }
  }
  return 0;
}
