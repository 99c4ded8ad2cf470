// libFuzzer target for the PROXY protocol parser (src/core/net/proxy_protocol.h).
//
// Input: the bytes a connection starts with (no control bytes).
//
// The whole input is parsed, and then every prefix (all of them for inputs
// up to max_every_prefix bytes, a spread of them past that), each shown
// through a heap copy whose bytes past the prefix are poisoned, so reading
// past what the parser was given crashes. The promises checked: a prefix of
// a complete header needs more (never done early, never an error); a
// prefix that needs more never follows one that failed or finished; done
// consumes no more than it was shown and no more than the caps; an error
// has a reason; the addresses are inet_ntop text of a sane length. Any
// broken promise aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/net/proxy_protocol.h"
#include "support/exact_bytes.h"

namespace {

namespace pp = baton::net::proxy_protocol;
using baton::test::exact_bytes;
using baton::test::printable;

constexpr size_t max_every_prefix = 300;

[[noreturn]] void broken(const char* what, std::string_view input, size_t shown) {
  std::fprintf(stderr, "proxy_fuzz: %s (shown %zu bytes)\n  input: %s\n", what, shown,
               printable(input, 2000).c_str());
  std::abort();
}

void check_one(const pp::result& r, std::string_view input, size_t shown) {
  switch (r.state) {
    case pp::status::need_more:
      if (shown >= pp::max_v2_length) broken("needs more past the v2 cap", input, shown);
      break;
    case pp::status::error:
      if (r.reason == nullptr) broken("an error without a reason", input, shown);
      break;
    case pp::status::done:
      if (r.consumed == 0 || r.consumed > shown) broken("done, consuming outside what it was shown", input, shown);
      if (r.version == 1 && r.consumed > pp::max_v1_length) broken("a v1 line past 107 bytes", input, shown);
      if (r.consumed > pp::max_v2_length) broken("a header past the v2 cap", input, shown);
      if (!r.keep_socket_addresses && (r.source.length == 0 || r.destination.length == 0)) {
        broken("done with no addresses and none kept", input, shown);
      }
      if (r.source.length >= sizeof r.source.text || r.destination.length >= sizeof r.destination.text) {
        broken("an address too long", input, shown);
      }
      break;
  }
}

bool same(const pp::result& a, const pp::result& b) {
  return a.state == b.state && a.consumed == b.consumed && a.keep_socket_addresses == b.keep_socket_addresses &&
         a.source.address() == b.source.address() && a.source.port == b.source.port &&
         a.destination.address() == b.destination.address() && a.destination.port == b.destination.port;
}

// A prefix's verdict against the whole's.
void check_prefix(const pp::result& prefix, const pp::result& whole, std::string_view input, size_t shown) {
  check_one(prefix, input, shown);
  if (whole.state == pp::status::done) {
    if (shown < whole.consumed && prefix.state != pp::status::need_more) {
      broken("a prefix of a complete header did not need more", input, shown);
    }
    if (shown >= whole.consumed && !same(prefix, whole)) {
      broken("the header read differently with less after it", input, shown);
    }
  }
  if (whole.state == pp::status::need_more && prefix.state != pp::status::need_more) {
    broken("a prefix finished or failed where the whole needs more", input, shown);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  pp::result whole = pp::parse(input);
  check_one(whole, input, size);
  exact_bytes copy(input);
  size_t step = size <= max_every_prefix ? 1 : size / 64 + 1;
  for (size_t k = 0; k < size; k += step) {
    const char* shown = copy.show(k);
    check_prefix(pp::parse(std::string_view(shown, k)), whole, input, k);
  }
  return 0;
}
