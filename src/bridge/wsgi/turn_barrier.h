// The turn barrier: fair GIL hand-off between pool threads (design note 000).
//
// With the loop detached from the GIL, a pool thread that finishes a job,
// releases the GIL and at once re-attaches for the next one wins the GIL back
// before the threads it left waiting are scheduled; their jobs wait out a
// convoy and a fast route's tail goes to hundreds of milliseconds. Two
// counters fix it: threads parked inside their re-attach, and attaches
// completed. A thread that held the GIL for a full slice and is about to
// re-attach while a waiter exists first lets an attach complete (yielding,
// bounded by the slice), so the waiter, already inside its acquisition, gets
// the GIL. No syscall on the common path (a waiter is only counted, never
// signalled), nothing is held across a job, and a pool of one has no barrier.
//
// The barrier decides when the GIL changes hands, not which job runs next:
// with one job in each waiting thread's hand, the job started next was the
// one whose thread won CPython's acquisition, and a job could lose that race
// round after round (the pool-fairness probe's p99 stayed near 19 ms). So
// with the barrier on, the pool also starts jobs oldest first
// (thread_pool::take_oldest): the thread that gets the GIL starts the oldest
// job in any thread's hand and leaves its own in that thread's. The GIL is
// never left idle for it, and the probe's p99 fell to 7 ms at the same rate.
//
// Rejected before, kept out on purpose: a token passed through a datagram
// pair (it left the GIL idle while the next taker woke: throughput halved),
// and N-1 tokens (no order once a thread sleeps inside a view). Also tried
// and taken out: a FIFO line of re-attaching threads (a parked ticket lock
// held across PyEval_RestoreThread, one thread at a time inside CPython's
// acquisition). It halved the pool-fairness probe's p99 on two shared
// cores (18 to 9 ms), but with nobody allowed past the one waiter, every
// hand-off waited for that thread to wake on the other core: Django's fast
// view at 16 connections fell from 3.4-3.5k to 2.3-2.8k rps, below uWSGI.
#pragma once

#include <atomic>
#include <cstdint>

#include "bridge/py_ref.h"

namespace baton::bridge {

class turn_barrier {
 public:
  // The run of GIL ownership after which a thread hands over, and the
  // longest it then waits for the hand-over to happen.
  static constexpr int64_t slice_ns = 1'000'000;
  static constexpr int64_t yield_bound_ns = 1'000'000;

  explicit turn_barrier(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  // Re-attaches the calling thread (GIL released) as a counted waiter.
  void attach(PyThreadState* state);
  // GIL released, before attach(): when the thread's last run of the GIL
  // lasted `held_ns` (a full slice or more) and another thread waits inside
  // its attach, yields until an attach completes (at most yield_bound_ns).
  void yield_turn_if_due(int64_t held_ns);
  // True when a thread that has held the GIL for `held_ns` should release
  // it and re-attach through the barrier before its next job.
  bool due(int64_t held_ns) const {
    return enabled_ && held_ns >= slice_ns && waiting_.load(std::memory_order_relaxed) > 0;
  }
  // Whether some thread is inside its attach, waiting for the GIL. Counted
  // whether or not the barrier is enabled (a thread never spins holding the
  // GIL while another waits for it).
  bool someone_waiting() const { return waiting_.load(std::memory_order_relaxed) > 0; }

  // Monotonic nanoseconds (the clock the slice is measured with).
  static int64_t now_ns();

  // For tests and probes: how many hand-overs the barrier forced.
  uint64_t yields() const { return yields_.load(std::memory_order_relaxed); }

 private:
  bool enabled_;
  std::atomic<int> waiting_{0};
  std::atomic<uint64_t> attaches_{0};
  std::atomic<uint64_t> yields_{0};
};

}  // namespace baton::bridge
