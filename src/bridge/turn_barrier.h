// The turn barrier: fair GIL hand-off between pool threads (design note 000).
//
// With the loop detached from the GIL, a pool thread that finishes a job,
// releases the GIL and at once re-attaches for the next one wins the GIL back
// before the threads it left waiting are scheduled; their jobs wait out a
// convoy and a fast route's tail goes to hundreds of milliseconds. And among
// the threads that do wait, CPython hands the GIL to whichever its condition
// variable wakes, in no set order: with four threads on a 0.3 ms view a job
// could be passed over again and again (p99 18 ms where the mean wait was
// 5.7 ms, measured with the pool-fairness probe).
//
// So pool threads re-attach in the order they asked, through a ticket lock
// held across PyEval_RestoreThread only: one pool thread at a time waits
// inside CPython's acquisition, the rest sleep in the lock in order. When
// that thread gets the GIL it lets the next one in, which then waits inside
// the acquisition while the first runs its job: the GIL never sits free
// while the next taker wakes from the kernel (what sank the token designs of
// note 000), and nobody barges past it. A thread that finished a job goes to
// the back of the line like any other. Uncontended, the lock is two atomic
// adds and no syscall; contended, one futex wake per hand-off, made by the
// thread that just got the GIL. Nothing is held across a job, so a view that
// blocks (the GIL released inside it) contends with nobody; threads
// re-attaching inside a view (after a blocking call) go straight to CPython.
// A pool of one has no barrier.
//
// Rejected before, kept out on purpose: a token passed through a datagram
// pair (it left the GIL idle while the next taker woke: throughput halved),
// and N-1 tokens (no order once a thread sleeps inside a view).
#pragma once

#include <cstdint>

#include "bridge/py_ref.h"
#include "core/handoff/ticket_lock.h"

namespace baton::bridge {

class turn_barrier {
 public:
  // The run of GIL ownership after which a thread holding a next job goes
  // to the back of the line before running it.
  static constexpr int64_t slice_ns = 1'000'000;

  turn_barrier(bool enabled, int threads) : enabled_(enabled), line_(static_cast<uint32_t>(threads)) {}
  bool enabled() const { return enabled_; }

  // Re-attaches the calling thread (GIL released): in line when enabled.
  void attach(PyThreadState* state);
  // True when a thread that has held the GIL for `held_ns` should release
  // it and re-attach through the barrier before its next job.
  bool due(int64_t held_ns) const { return enabled_ && held_ns >= slice_ns && someone_waiting(); }
  // Whether some thread is inside its attach, waiting for the GIL (with the
  // barrier off, none is ever counted).
  bool someone_waiting() const { return line_.takers() > 0; }

  // Monotonic nanoseconds (the clock the slice is measured with).
  static int64_t now_ns();

 private:
  bool enabled_;
  handoff::ticket_lock line_;
};

}  // namespace baton::bridge
