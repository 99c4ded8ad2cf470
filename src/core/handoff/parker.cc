#include "core/handoff/parker.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <climits>
#include <ctime>

namespace baton::handoff {
namespace {

static_assert(std::endian::native == std::endian::little, "the epoch is the word's high half in memory");

// The epoch half of the state word, as the 32-bit futex word the kernel compares.
uint32_t* epoch_word(std::atomic<uint64_t>& state) { return reinterpret_cast<uint32_t*>(&state) + 1; }

}  // namespace

void parker::wait(uint64_t key, int timeout_ms) {
  timespec relative{};
  timespec* timeout = nullptr;
  if (timeout_ms >= 0) {
    relative.tv_sec = timeout_ms / 1000;
    relative.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000;
    timeout = &relative;
  }
  // The kernel sleeps only while the epoch still equals the key, atomically
  // with respect to a wake, so a notify() after prepare_wait() is never lost.
  while ((state_.load(std::memory_order_acquire) >> 32) == key) {
    long rc = syscall(SYS_futex, epoch_word(state_), FUTEX_WAIT_PRIVATE, static_cast<uint32_t>(key), timeout,
                      nullptr, 0);
    if (rc != 0 && errno == ETIMEDOUT) break;
    if (timeout != nullptr) break;  // one bounded sleep; the caller re-checks
  }
  state_.fetch_sub(1, std::memory_order_relaxed);
}

void parker::wake_all() {
  wake_calls_.fetch_add(1, std::memory_order_relaxed);
  syscall(SYS_futex, epoch_word(state_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

void yield_thread() { sched_yield(); }

}  // namespace baton::handoff
