// A bounded single-producer / multi-consumer ring of pointers.
//
// One thread pushes; any number pop, each item going to exactly one of them.
// Nobody blocks or makes a syscall. The producer writes a slot and publishes
// it with a release store of the tail; a consumer reads the slot at the head
// and claims it with a compare-and-swap of the head, which fails (and it
// tries the next) when another consumer claimed that slot first. A slot is
// written again only once the head has passed it, and the producer sees that
// through an acquire load of the head, which the winning consumer's CAS
// released after its read: so a consumer whose CAS succeeds read the item
// the producer published for that index, never a later one.
//
// Slots are atomics (relaxed) because a losing consumer may read a slot the
// producer is writing again; what it read is then discarded.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "core/handoff/spsc_ring.h"

namespace baton::handoff {

template <typename T>
class spmc_ring {
 public:
  // `capacity` is rounded up to a power of two.
  explicit spmc_ring(size_t capacity)
      : mask_(ring_slots(capacity) - 1), slots_(std::make_unique<std::atomic<T*>[]>(mask_ + 1)) {}
  spmc_ring(const spmc_ring&) = delete;
  spmc_ring& operator=(const spmc_ring&) = delete;

  size_t capacity() const { return mask_ + 1; }

  // Producer only. False when the ring is full (nothing is written then).
  bool try_push(T* item) {
    size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_.load(std::memory_order_acquire) > mask_) return false;
    slots_[tail & mask_].store(item, std::memory_order_relaxed);
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

  // Any thread. Null when the ring is empty.
  T* try_pop() {
    size_t head = head_.load(std::memory_order_acquire);
    while (true) {
      if (head == tail_.load(std::memory_order_acquire)) return nullptr;
      T* item = slots_[head & mask_].load(std::memory_order_relaxed);
      if (head_.compare_exchange_weak(head, head + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
        return item;
      }
    }
  }

  // Any thread: a snapshot.
  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_acquire);
  }
  size_t size() const {
    size_t head = head_.load(std::memory_order_acquire);
    size_t tail = tail_.load(std::memory_order_acquire);
    return tail >= head ? tail - head : 0;
  }

 private:
  alignas(cache_line) std::atomic<size_t> head_{0};  // the consumers'
  alignas(cache_line) std::atomic<size_t> tail_{0};  // the producer's
  alignas(cache_line) size_t mask_ = 0;
  std::unique_ptr<std::atomic<T*>[]> slots_;
};

}  // namespace baton::handoff
