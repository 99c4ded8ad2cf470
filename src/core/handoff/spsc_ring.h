// A bounded single-producer / single-consumer ring of pointers.
//
// One thread pushes, one thread pops; neither ever blocks or makes a
// syscall. The release store of an index publishes the slot written before
// it, and the acquire load on the other side is the fence that makes the
// slot's contents visible (as in Lamport's queue). Each side keeps a cached
// copy of the other side's index and reloads it only when the cache says the
// ring is full (producer) or empty (consumer), so at steady state a push and
// a pop touch only their own cache line.
//
// The ring carries pointers only: the data stays wherever the pointer leads.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace baton::handoff {

inline constexpr size_t cache_line = 64;

// A ring's slot count: `capacity` rounded up to a power of two (at least 2),
// so an index maps to its slot with a mask.
inline size_t ring_slots(size_t capacity) {
  size_t n = 2;
  while (n < capacity) n *= 2;
  return n;
}

template <typename T>
class spsc_ring {
 public:
  // `capacity` is rounded up to a power of two.
  explicit spsc_ring(size_t capacity) : mask_(ring_slots(capacity) - 1), slots_(std::make_unique<T*[]>(mask_ + 1)) {}
  spsc_ring(const spsc_ring&) = delete;
  spsc_ring& operator=(const spsc_ring&) = delete;

  size_t capacity() const { return mask_ + 1; }

  // Producer only. False when the ring is full (nothing is written then).
  bool try_push(T* item) {
    size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_cache_ > mask_) {
      head_cache_ = head_.load(std::memory_order_acquire);
      if (tail - head_cache_ > mask_) return false;
    }
    slots_[tail & mask_] = item;
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

  // Consumer only. Null when the ring is empty.
  T* try_pop() {
    size_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_cache_) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (head == tail_cache_) return nullptr;
    }
    T* item = slots_[head & mask_];
    head_.store(head + 1, std::memory_order_release);
    return item;
  }

  // Either side: a snapshot, exact only when the other side is quiet.
  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_acquire);
  }

 private:
  // The consumer's line: its index and its cache of the producer's.
  alignas(cache_line) std::atomic<size_t> head_{0};
  size_t tail_cache_ = 0;
  // The producer's line.
  alignas(cache_line) std::atomic<size_t> tail_{0};
  size_t head_cache_ = 0;
  alignas(cache_line) size_t mask_ = 0;
  std::unique_ptr<T*[]> slots_;
};

}  // namespace baton::handoff
