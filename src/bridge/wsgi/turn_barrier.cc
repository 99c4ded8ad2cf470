#include "bridge/wsgi/turn_barrier.h"

#include <sched.h>

#include <ctime>

namespace baton::bridge {

int64_t turn_barrier::now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void turn_barrier::attach(PyThreadState* state) {
  waiting_.fetch_add(1, std::memory_order_relaxed);
  PyEval_RestoreThread(state);
  waiting_.fetch_sub(1, std::memory_order_relaxed);
  attaches_.fetch_add(1, std::memory_order_release);
}

void turn_barrier::yield_turn_if_due(int64_t held_ns) {
  if (!due(held_ns)) return;
  yields_.fetch_add(1, std::memory_order_relaxed);
  uint64_t seen = attaches_.load(std::memory_order_acquire);
  int64_t deadline = now_ns() + yield_bound_ns;
  while (attaches_.load(std::memory_order_acquire) == seen && now_ns() < deadline) sched_yield();
}

}  // namespace baton::bridge
