// A first-in, first-out queue linked through the elements themselves: no
// allocation to queue or unqueue, one pointer of each element lent to it.
// `Next` names that pointer (a function returning a reference to it), so
// the element type says where its link lives and the queue needs nothing
// else of it. An element is in at most one such queue at a time (its link
// is the queue's while it is in, null once it is out).
//
// Not thread-safe: the owner's thread only.
#pragma once

#include <cstddef>

namespace baton::util {

template <class T, T*& (*Next)(T&)>
class intrusive_fifo {
 public:
  intrusive_fifo() = default;
  intrusive_fifo(const intrusive_fifo&) = delete;
  intrusive_fifo& operator=(const intrusive_fifo&) = delete;

  bool empty() const { return head_ == nullptr; }
  size_t size() const { return size_; }
  T* front() const { return head_; }

  void push_back(T* x) {
    Next(*x) = nullptr;
    if (tail_ != nullptr) Next(*tail_) = x;
    else head_ = x;
    tail_ = x;
    ++size_;
  }

  // Back at the head: an element taken out that must keep its turn.
  void push_front(T* x) {
    Next(*x) = head_;
    head_ = x;
    if (tail_ == nullptr) tail_ = x;
    ++size_;
  }

  // The oldest element, unlinked; null when the queue is empty.
  T* pop_front() {
    T* x = head_;
    if (x == nullptr) return nullptr;
    head_ = Next(*x);
    if (head_ == nullptr) tail_ = nullptr;
    Next(*x) = nullptr;
    --size_;
    return x;
  }

 private:
  T* head_ = nullptr;
  T* tail_ = nullptr;
  size_t size_ = 0;
};

}  // namespace baton::util
