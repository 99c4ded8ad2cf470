// Core's log: one line per event, written straight to stderr with a single
// write(2) so lines from several processes do not interleave. The bridge sets
// the level once at start; Python's logging uses the same line format.
#pragma once

#include <string_view>

namespace baton::log {

enum class level : int { debug = 10, info = 20, warning = 30, error = 40, critical = 50 };

void set_level(level l);
bool enabled(level l);
// Formats like printf. Safe to call from any thread.
void write(level l, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace baton::log
