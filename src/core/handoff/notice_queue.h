// An intrusive multi-producer / single-consumer queue of notices: "this
// object has news for you". Any thread pushes; one thread takes everything
// at once.
//
// Producers push onto a lock-free stack (one compare-and-swap); the consumer
// detaches the whole stack with one exchange and reverses it, so notices come
// out in the order they went in. Taking the whole list at once is what makes
// the stack safe: nobody ever pops a single node, so the ABA problem of a
// Treiber stack cannot arise. The queue never fills, so a producer never
// waits for the consumer.
//
// The node is embedded in the object (a notice_link member or base), so a
// push allocates nothing. An object must not be pushed again before the
// consumer has taken it: owners keep a "queued" flag for that.
#pragma once

#include <atomic>
#include <cstdint>

namespace baton::handoff {

struct notice_link {
  notice_link* notice_next = nullptr;
  uint8_t notice_kind = 0;  // lets an owner with several notices tell them apart
};

class notice_queue {
 public:
  // Any thread. Returns true when the queue was empty before this push.
  bool push(notice_link* node) {
    notice_link* old = head_.load(std::memory_order_relaxed);
    do {
      node->notice_next = old;
    } while (!head_.compare_exchange_weak(old, node, std::memory_order_seq_cst, std::memory_order_relaxed));
    return old == nullptr;
  }

  // Consumer only: every node pushed so far, oldest first, linked through
  // notice_next (null-terminated); null when there are none.
  notice_link* take_all() {
    notice_link* list = head_.exchange(nullptr, std::memory_order_acquire);
    notice_link* ordered = nullptr;
    while (list != nullptr) {
      notice_link* next = list->notice_next;
      list->notice_next = ordered;
      ordered = list;
      list = next;
    }
    return ordered;
  }

  // Any thread; seq_cst so it pairs with a parked flag (store, then this).
  bool empty() const { return head_.load(std::memory_order_seq_cst) == nullptr; }

 private:
  std::atomic<notice_link*> head_{nullptr};
};

}  // namespace baton::handoff
