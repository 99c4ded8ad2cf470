// A small lock for critical sections of a few dozen instructions (swapping
// or appending a buffer) that two threads rarely want at once: one atomic
// exchange to take it, one store to give it back. A waiter spins briefly,
// then yields, so a holder that was preempted gets the CPU back.
#pragma once

#include <atomic>

#include "core/handoff/parker.h"

namespace baton::handoff {

class spin_lock {
 public:
  void lock() {
    int spins = 0;
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 64) cpu_relax();
        else yield_thread();
      }
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace baton::handoff
