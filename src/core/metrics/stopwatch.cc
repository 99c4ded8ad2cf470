#include "core/metrics/stopwatch.h"

#include <time.h>

#include <cstdio>
#include <cstring>
#include <mutex>

namespace baton::metrics::stopwatch {

calibration chosen;

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

namespace {

// The kernel trusts the counter for its own clock only where it is
// invariant and synchronised across cores; so does baton.
bool kernel_keeps_time_by_tsc() {
  FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (f == nullptr) return false;
  char name[32] = {};
  bool tsc = std::fgets(name, sizeof name, f) != nullptr && std::strncmp(name, "tsc\n", 4) == 0;
  std::fclose(f);
  return tsc;
}

std::once_flag once;

}  // namespace

void calibrate() {
  std::call_once(once, [] {
#if defined(__x86_64__)
    if (!kernel_keeps_time_by_tsc()) return;
    // Two readings of each clock two milliseconds apart: the rate to a few
    // parts in a hundred thousand (the clock's own reading costs tens of
    // nanoseconds at each end).
    int64_t ns0 = monotonic_ns();
    uint64_t t0 = __rdtsc();
    int64_t ns1 = ns0;
    uint64_t t1 = t0;
    while (ns1 - ns0 < 2000000) {
      ns1 = monotonic_ns();
      t1 = __rdtsc();
    }
    if (t1 <= t0) return;
    double ns_per_tick = static_cast<double>(ns1 - ns0) / static_cast<double>(t1 - t0);
    chosen.ns_per_tick_q32 = static_cast<uint64_t>(ns_per_tick * 4294967296.0);
    chosen.us_per_tick_q32 = static_cast<uint64_t>(ns_per_tick / 1000 * 4294967296.0);
    chosen.tsc = true;
#endif
  });
}

}  // namespace baton::metrics::stopwatch
