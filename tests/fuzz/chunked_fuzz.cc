// libFuzzer target for the chunked decoder (src/core/http1/chunked.h).
//
// Input: two control bytes, then the bytes after a request head.
//   bytes 0-1  a split point, big-endian, modulo (length + 1)
//
// The body is decoded whole, straight from libFuzzer's buffer (ASan bounds
// it exactly); split at the point; and, for inputs up to
// max_bytewise_length, one byte at a time. Consumed bytes are dropped from
// the front, as a connection does. All must end in the same state with the
// same decoded bytes (and, when done, at the same offset), and every step
// must keep the promises chunked.h makes. The split and byte-by-byte feeds
// show a prefix of a heap copy whose other bytes are poisoned, so reading
// past the length crashes. Any disagreement or broken promise aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/http1/chunked.h"
#include "support/exact_bytes.h"

namespace {

using baton::http1::chunked_decoder;
using baton::test::exact_bytes;
using baton::test::printable;

constexpr size_t max_bytewise_length = 1024;

[[noreturn]] void broken(const char* what, std::string_view input, const std::string& expected = {},
                         const std::string& got = {}) {
  std::fprintf(stderr, "chunked_fuzz: %s\n  input: %s\n", what, printable(input, 2000).c_str());
  if (!expected.empty() || !got.empty()) {
    std::fprintf(stderr, "  expected: %s\n  got:      %s\n", printable(expected, 2000).c_str(),
                 printable(got, 2000).c_str());
  }
  std::abort();
}

// Shows the decoder the input at each length in `lengths` (ascending, the
// last one the whole input) and describes where it ended. Without
// `from_copy` it reads libFuzzer's own buffer, which suits one length only;
// with it, a copy whose bytes past the length shown are poisoned.
std::string decode(std::string_view input, const std::vector<size_t>& lengths, bool from_copy) {
  exact_bytes copy(from_copy ? input : std::string_view());
  chunked_decoder dec;
  std::string body;
  size_t next = 0;
  size_t visible = lengths[next];
  const char* buf = from_copy ? copy.show(visible) : input.data();
  size_t pos = 0;
  // Every data step consumes at least a byte and every other step either
  // consumes framing, waits or ends, so more steps than this is a loop.
  size_t steps_left = 4 * input.size() + 4 * lengths.size() + 16;
  while (steps_left-- > 0) {
    chunked_decoder::step_result r = dec.step(buf + pos, visible - pos);
    if (r.consumed > visible - pos) broken("consumed more than it was shown", input);
    switch (r.state) {
      case chunked_decoder::status::data:
        if (r.data_length == 0) broken("an empty data run", input);
        if (r.data < buf + pos || r.data + r.data_length > buf + pos + r.consumed) {
          broken("a data run outside the bytes consumed", input);
        }
        body.append(r.data, r.data_length);
        pos += r.consumed;
        continue;
      case chunked_decoder::status::need_more:
        if (r.data_length != 0) broken("need_more with data", input);
        pos += r.consumed;
        if (++next == lengths.size()) return "need_more body=" + body;
        visible = lengths[next];
        if (from_copy) buf = copy.show(visible);
        continue;
      case chunked_decoder::status::done: {
        pos += r.consumed;
        if (!dec.done()) broken("done() is false after done", input);
        // Once done, it stays done and takes nothing more.
        chunked_decoder::step_result again = dec.step(buf + pos, visible - pos);
        if (again.state != chunked_decoder::status::done || again.consumed != 0) {
          broken("a step after done did something", input);
        }
        return "done end=" + std::to_string(pos) + " body=" + body;
      }
      case chunked_decoder::status::error:
        if (r.reason == nullptr) broken("an error without a reason", input);
        return "error body=" + body;
    }
  }
  broken("the decoder made no progress", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t cut_seed = (size_t{data[0]} << 8) | data[1];
  std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
  size_t n = input.size();

  std::string whole = decode(input, {n}, false);

  size_t cut = cut_seed % (n + 1);
  std::string split = decode(input, {cut, n}, true);
  if (split != whole) broken("split decode disagrees with whole", input, whole, split);

  if (n <= max_bytewise_length) {
    std::vector<size_t> every;
    for (size_t k = 0; k <= n; ++k) every.push_back(k);
    std::string bytewise = decode(input, every, true);
    if (bytewise != whole) broken("byte-by-byte decode disagrees with whole", input, whole, bytewise);
  }
  return 0;
}
