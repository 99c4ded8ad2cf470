#include "core/util/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <ctime>

namespace baton::log {
namespace {
std::atomic<int> current_level{static_cast<int>(level::info)};
std::atomic<int> output_fd{-1};
std::atomic<bool> output_bare{false};

const char* level_name(level l) {
  switch (l) {
    case level::debug: return "DEBUG";
    case level::info: return "INFO";
    case level::warning: return "WARNING";
    case level::error: return "ERROR";
    case level::critical: return "CRITICAL";
  }
  return "INFO";
}
}  // namespace

void set_output(int fd, bool bare) {
  output_bare.store(bare, std::memory_order_relaxed);
  output_fd.store(fd, std::memory_order_release);
}

void set_level(level l) { current_level.store(static_cast<int>(l), std::memory_order_relaxed); }

bool enabled(level l) { return static_cast<int>(l) >= current_level.load(std::memory_order_relaxed); }

void write(level l, const char* format, ...) {
  if (!enabled(l)) return;
  char line[2048];
  int fd = output_fd.load(std::memory_order_acquire);
  int n = 0;
  if (fd >= 0 && output_bare.load(std::memory_order_relaxed)) {
    n = std::snprintf(line, sizeof line, "%d ", static_cast<int>(l));
  } else {
    time_t now = time(nullptr);
    struct tm tm_now;
    localtime_r(&now, &tm_now);
    n = static_cast<int>(strftime(line, sizeof line, "[%Y-%m-%d %H:%M:%S] ", &tm_now));
    n += std::snprintf(line + n, sizeof line - static_cast<size_t>(n), "[%d] [%s] ", static_cast<int>(getpid()),
                       level_name(l));
  }
  va_list args;
  va_start(args, format);
  int m = std::vsnprintf(line + n, sizeof line - static_cast<size_t>(n) - 1, format, args);
  va_end(args);
  if (m < 0) return;
  n += m;
  if (n > static_cast<int>(sizeof line) - 2) n = static_cast<int>(sizeof line) - 2;
  line[n++] = '\n';
  ssize_t ignored = ::write(fd >= 0 ? fd : 2, line, static_cast<size_t>(n));
  (void)ignored;
}

}  // namespace baton::log
