#include "bridge/turn_barrier.h"

#include <ctime>

namespace baton::bridge {

int64_t turn_barrier::now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void turn_barrier::attach(PyThreadState* state) {
  if (!enabled_) {
    PyEval_RestoreThread(state);
    return;
  }
  uint32_t ticket = line_.lock();
  PyEval_RestoreThread(state);
  line_.unlock(ticket);
}

}  // namespace baton::bridge
