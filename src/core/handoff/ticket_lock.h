// A ticket lock whose waiters park: threads get through lock() in exactly
// the order they called it, each sleeping on a futex until its turn.
//
// A taker draws a ticket (one atomic add) and goes on at once when the
// ticket is the one being served. Otherwise it sleeps on the parker of its
// ticket's slot until unlock() serves that ticket. unlock() publishes the next
// ticket and notifies that one slot: no syscall unless its taker is asleep,
// and no thundering herd (the other takers sleep on other slots). With more
// takers than slots two share a parker; both wake and the one not served
// sleeps again.
//
// The pool uses it to order the threads waiting for the GIL (see
// bridge/turn_barrier.h); nothing in it knows of Python.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/handoff/parker.h"

namespace baton::handoff {

class ticket_lock {
 public:
  // `slots`: how many takers may sleep on a parker of their own (the
  // number of threads that use the lock).
  explicit ticket_lock(uint32_t slots) : slots_(slots == 0 ? 1 : slots), parkers_(new parker[slots_]) {}
  ticket_lock(const ticket_lock&) = delete;
  ticket_lock& operator=(const ticket_lock&) = delete;

  // Returns once every ticket drawn before this one has been unlocked; the
  // ticket is what unlock() takes.
  uint32_t lock() {
    uint32_t ticket = next_.fetch_add(1, std::memory_order_seq_cst);
    if (serving_.load(std::memory_order_seq_cst) == ticket) return ticket;
    parker& mine = parkers_[ticket % slots_];
    while (true) {
      uint64_t key = mine.prepare_wait();
      if (serving_.load(std::memory_order_acquire) == ticket) {
        mine.cancel_wait();
        return ticket;
      }
      mine.wait(key);
    }
  }

  void unlock(uint32_t ticket) {
    uint32_t following = ticket + 1;
    serving_.store(following, std::memory_order_seq_cst);
    // Drawn but not yet served: the following taker may be asleep. A taker
    // that draws after this load sees `following` served and never sleeps
    // (both sides are sequentially consistent: one sees the other).
    if (next_.load(std::memory_order_seq_cst) != following) parkers_[following % slots_].notify();
  }

  // Threads holding the lock or waiting for it.
  uint32_t takers() const {
    return next_.load(std::memory_order_relaxed) - serving_.load(std::memory_order_relaxed);
  }

  // Futex wakes made (tests: a sleeping taker was woken, not only spun past).
  uint64_t wake_calls() const {
    uint64_t total = 0;
    for (uint32_t i = 0; i < slots_; ++i) total += parkers_[i].wake_calls();
    return total;
  }

 private:
  std::atomic<uint32_t> next_{0};
  std::atomic<uint32_t> serving_{0};
  uint32_t slots_;
  std::unique_ptr<parker[]> parkers_;
};

}  // namespace baton::handoff
