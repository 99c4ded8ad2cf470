// ngtcp2's and nghttp3's clock: nanoseconds, monotonic. The loop's own
// clock is coarse milliseconds, too coarse for QUIC's RTT estimates.
#pragma once

#include <cstdint>
#include <ctime>

namespace baton::quic {

inline uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace baton::quic
