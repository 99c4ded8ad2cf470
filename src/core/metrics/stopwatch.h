// The request path's clock, when the server times requests (the metrics'
// latency and GIL waits, the access log's durations): the CPU's time-stamp
// counter where the kernel keeps its own time by it (x86-64 with the "tsc"
// clocksource: invariant, the same on every core), CLOCK_MONOTONIC
// elsewhere. Reading the counter is one instruction where clock_gettime is
// a call (and, under valgrind, a syscall); a difference of two readings is
// turned into nanoseconds by a ratio measured once per process against
// CLOCK_MONOTONIC.
#pragma once

#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace baton::metrics::stopwatch {

struct calibration {
  bool tsc = false;  // readings are time-stamp counts (else CLOCK_MONOTONIC nanoseconds)
  // What one count is worth, in nanoseconds and in microseconds, as 32.32
  // fixed point: a difference becomes either with one multiplication.
  uint64_t ns_per_tick_q32 = uint64_t{1} << 32;
  uint64_t us_per_tick_q32 = (uint64_t{1} << 32) / 1000;
};

// Chooses the clock and, for the counter, measures its rate (about two
// milliseconds, once per process: where the metrics region is made, before
// the workers fork, so that they inherit it; else at the first server's
// start). Safe to call from any thread, any number of times; readings taken
// before it are in CLOCK_MONOTONIC nanoseconds.
void calibrate();

// The choice, made by calibrate() (read-only after it).
extern calibration chosen;

int64_t monotonic_ns();

// A reading: a start or an end of something timed.
inline int64_t now() {
#if defined(__x86_64__)
  if (__builtin_expect(chosen.tsc, true)) return static_cast<int64_t>(__rdtsc());
#endif
  return monotonic_ns();
}

// Nanoseconds and microseconds between two readings (0 when the end is not
// after the start).
inline uint64_t scaled(int64_t start, int64_t end, uint64_t per_tick_q32) {
  if (end <= start) return 0;
  auto ticks = static_cast<uint64_t>(end - start);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(ticks) * per_tick_q32) >> 32);
}
inline uint64_t elapsed_ns(int64_t start, int64_t end) { return scaled(start, end, chosen.ns_per_tick_q32); }
inline uint64_t elapsed_us(int64_t start, int64_t end) { return scaled(start, end, chosen.us_per_tick_q32); }

}  // namespace baton::metrics::stopwatch
