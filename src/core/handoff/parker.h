// A parker: lets one or more threads sleep until another thread says that
// something they wait for may have changed, without a lost wake and without
// a syscall on the notifying side unless somebody is actually asleep.
//
// It is an event count (the shape of folly's EventCount): one 64-bit word
// holds an epoch in its high half and the number of registered waiters in
// its low half. A waiter registers (one atomic add, which also reads the
// epoch as its key), re-checks its condition, and sleeps on the epoch half
// with a futex only while the epoch still equals its key. A notifier bumps
// the epoch (one atomic add) and calls futex_wake only when the same add
// shows a registered waiter. Both sides modify the same word, so their two
// adds are totally ordered: either the notifier's add sees the waiter, or the
// waiter's add sees the new epoch and its re-check sees the condition the
// notifier published before notifying. No fence is needed beyond the adds.
//
// The condition itself lives elsewhere (a ring, a stream's flags); it must be
// published before notify() and read after prepare_wait().
#pragma once

#include <atomic>
#include <cstdint>

namespace baton::handoff {

class parker {
 public:
  parker() = default;
  parker(const parker&) = delete;
  parker& operator=(const parker&) = delete;

  // Waiter: registers, and returns the key to pass to wait(). Re-check the
  // condition after this; then either cancel_wait() or wait(key).
  uint64_t prepare_wait() { return state_.fetch_add(1, std::memory_order_acq_rel) >> 32; }
  void cancel_wait() { state_.fetch_sub(1, std::memory_order_relaxed); }
  // Sleeps until notify() has been called since prepare_wait() returned `key`
  // or `timeout_ms` passes (-1: no limit); unregisters. May return early
  // (spuriously); callers re-check their condition in a loop.
  void wait(uint64_t key, int timeout_ms = -1);

  // Notifier, any thread: wakes every registered waiter.
  void notify() {
    uint64_t previous = state_.fetch_add(uint64_t{1} << 32, std::memory_order_acq_rel);
    if ((previous & 0xffffffffu) != 0) wake_all();
  }

  // How many times notify() made a futex_wake call (for tests and probes).
  uint64_t wake_calls() const { return wake_calls_.load(std::memory_order_relaxed); }

 private:
  void wake_all();
  std::atomic<uint64_t> state_{0};
  std::atomic<uint64_t> wake_calls_{0};
};

// Spins, then yields, then parks until `ready()` is true. `ready` must be
// cheap and may be called many times. The spin covers the microsecond gaps
// between jobs at full load, so those never reach the kernel.
struct backoff {
  int spins = 200;   // iterations of a pause instruction
  int yields = 4;    // sched_yield calls
};

void cpu_relax();
void yield_thread();

template <typename Ready>
void park_until(parker& p, Ready&& ready, backoff how = {}) {
  for (int i = 0; i < how.spins; ++i) {
    if (ready()) return;
    cpu_relax();
  }
  for (int i = 0; i < how.yields; ++i) {
    if (ready()) return;
    yield_thread();
  }
  while (!ready()) {
    uint64_t key = p.prepare_wait();
    if (ready()) {
      p.cancel_wait();
      return;
    }
    p.wait(key);
  }
}

}  // namespace baton::handoff
