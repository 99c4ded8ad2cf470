// Core's log: one line per event, written straight to stderr with a single
// write(2) so lines from several processes do not interleave. The bridge sets
// the level once at start; Python's logging uses the same line format.
#pragma once

#include <string_view>

namespace baton::log {

enum class level : int { debug = 10, info = 20, warning = 30, error = 40, critical = 50 };

void set_level(level l);
// Sends lines to `fd` instead of stderr. With `bare`, a line is only
// "<level number> <message>" (for a reader that re-emits it through its own
// logging); the descriptor should be non-blocking: a line that does not fit
// is dropped rather than wait. -1 restores stderr.
void set_output(int fd, bool bare);
bool enabled(level l);
// Formats like printf. Safe to call from any thread.
void write(level l, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace baton::log
