#include "core/loop/timer_heap.h"

#include <utility>

namespace baton::loop {

void timer_heap::arm(timer& t, int64_t due) {
  if (t.heap == this) {
    int64_t old = t.due;
    t.due = due;
    if (due < old) sift_up(t.heap_index);
    else sift_down(t.heap_index);
    return;
  }
  t.due = due;
  t.heap = this;
  t.heap_index = items_.size();
  items_.push_back(&t);
  sift_up(t.heap_index);
}

void timer_heap::swap(size_t a, size_t b) {
  std::swap(items_[a], items_[b]);
  items_[a]->heap_index = a;
  items_[b]->heap_index = b;
}

void timer_heap::sift_up(size_t i) {
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (items_[parent]->due <= items_[i]->due) break;
    swap(i, parent);
    i = parent;
  }
}

void timer_heap::sift_down(size_t i) {
  size_t n = items_.size();
  while (true) {
    size_t smallest = i;
    size_t left = 2 * i + 1;
    size_t right = left + 1;
    if (left < n && items_[left]->due < items_[smallest]->due) smallest = left;
    if (right < n && items_[right]->due < items_[smallest]->due) smallest = right;
    if (smallest == i) return;
    swap(i, smallest);
    i = smallest;
  }
}

void timer_heap::remove_at(size_t i) {
  size_t last = items_.size() - 1;
  items_[i]->heap = nullptr;
  if (i != last) {
    items_[i] = items_[last];
    items_[i]->heap_index = i;
  }
  items_.pop_back();
  if (i < items_.size()) {
    if (i > 0 && items_[i]->due < items_[(i - 1) / 2]->due) sift_up(i);
    else sift_down(i);
  }
}

}  // namespace baton::loop
