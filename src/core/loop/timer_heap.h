// Timers and the heap that orders them: a binary heap over an array of
// pointers, each timer recording its own index, so arming, moving and
// disarming are O(log n) and nothing is allocated per arm (the array only
// grows to the largest number of timers ever armed at once).
//
// A deadline is a count on the heap's clock, in the heap's unit; which is
// the loop's business (event_loop.h keeps two heaps: the coarse clock's
// milliseconds, and the precise clock's nanoseconds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baton::loop {

class timer_handler {
 public:
  virtual void on_timer() = 0;

 protected:
  ~timer_handler() = default;
};

class timer_heap;

// A deadline owned by whoever embeds it. Arming an armed timer moves it.
struct timer {
  explicit timer(timer_handler* h = nullptr) : handler(h) {}
  timer(const timer&) = delete;
  timer& operator=(const timer&) = delete;
  bool armed() const { return heap != nullptr; }

  timer_handler* handler;
  int64_t due = 0;             // in the unit of the clock whose heap holds it
  timer_heap* heap = nullptr;  // the heap that holds it, or none
  size_t heap_index = 0;
};

class timer_heap {
 public:
  // Adds `t` (which must not be in another heap) or moves it within this one.
  void arm(timer& t, int64_t due);
  void remove(timer& t) { remove_at(t.heap_index); }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  timer* front() const { return items_.front(); }
  // Takes out and returns the earliest timer.
  timer* pop() {
    timer* t = items_.front();
    remove_at(0);
    return t;
  }

 private:
  void swap(size_t a, size_t b);
  void sift_up(size_t i);
  void sift_down(size_t i);
  void remove_at(size_t i);

  std::vector<timer*> items_;
};

}  // namespace baton::loop
