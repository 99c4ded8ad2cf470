// How large a request may be, whichever protocol carries it: the parsers
// and decoders refuse past these (431, 413, 414), each in its own measure.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baton::exchange {

struct request_limits {
  size_t max_request_line = 8192;   // HTTP/1's request line
  size_t max_header_bytes = 32768;  // the whole head
  size_t max_headers = 100;
  uint64_t max_body = 0;  // 0: unlimited
};

}  // namespace baton::exchange
