// The Python side of the pool shape (core's thread_pool runs the threads):
// each thread attaches to the interpreter once, at start, and lets go of the
// GIL only while it waits (for a job, or for its stream) and inside blocking
// calls the app makes; its re-attaches go through the turn barrier.
#pragma once

#include <atomic>

#include "bridge/wsgi/turn_barrier.h"
#include "bridge/wsgi/handler.h"
#include "core/server/dispatcher.h"
#include "core/metrics/layout.h"
#include "core/server/thread_pool.h"

namespace baton::bridge {

class python_pool_hooks final : public server::thread_pool_hooks {
 public:
  // `turn`: the turn barrier (BATON_X_POOL_TURN); a pool of one has none.
  // `gil_free`: the interpreter runs without a GIL (a free-threaded build
  // that has not enabled it): the threads run Python side by side, there is
  // no GIL to hand over, and neither the barrier nor its A/B convoy applies.
  // `metrics`: the worker's slot, where the time taking the GIL back is counted (null: off).
  // `runner`: with the barrier, jobs are left a moment to the running thread
  // (runner_budget_ns; BATON_X_POOL_RUNNER=0 turns it off).
  python_pool_hooks(int threads, bool turn, bool gil_free = false, metrics::worker_slot* metrics = nullptr,
                    bool runner = true)
      : barrier_(turn && threads > 1 && !gil_free),
        convoy_(!turn && threads > 1 && !gil_free),
        runner_(runner),
        metrics_(metrics) {}
  void thread_started(int index) override;
  void thread_stopping(int index) override;
  void detach() override;
  void attach() override;
  bool hand_over_due() override;
  // The barrier's other half: a thread that just finished keeps the GIL to
  // wait for its next job only while nobody else waits for the GIL. With the
  // barrier off (the A/B arm), it keeps it whoever waits, for up to CPython's
  // switch interval, and wins it back job after job: the convoy that the
  // pool-fairness probe exists to catch.
  bool may_spin_attached() override { return convoy_ || !barrier_.someone_waiting(); }
  int64_t attached_spin_ns() override { return convoy_ ? 5'000'000 : 20'000; }
  // The barrier's third part: whichever thread wins the GIL starts the oldest
  // job waiting, so a job does not wait on its own thread's luck.
  bool oldest_first() override { return barrier_.enabled(); }
  // With the barrier, a job is left a moment for the thread that holds the
  // GIL and runs jobs back to back (thread_pool_hooks::runner_budget_ns):
  // waking another would only hand the GIL over between the two. Without a
  // GIL every thread runs at once, and an idle one is woken as before.
  // 200 us: about twice a fast Django view's time under the GIL. Budgets of
  // 100 us to 1 ms served alike in a probe (Django, 16 and 64 connections,
  // two 200 ms views in flight).
  int64_t runner_budget_ns() override { return barrier_.enabled() && runner_ ? 200'000 : 0; }
  const turn_barrier& barrier() const { return barrier_; }
  // How often a thread handed the GIL over between two jobs (hand_over_due
  // said so): with the barrier off, never.
  uint64_t handovers() const { return handovers_.load(std::memory_order_relaxed); }

 private:
  turn_barrier barrier_;
  bool convoy_;
  bool runner_;
  metrics::worker_slot* metrics_;
  std::atomic<uint64_t> handovers_{0};
};

// The predecessor's fallback, kept as an A/B arm (BATON_X_POOL_FALLBACK=inline):
// with every pool thread busy, the loop thread runs the request itself,
// attaching to the interpreter for the call. One at a time.
class attaching_inline_dispatcher final : public server::dispatcher {
 public:
  explicit attaching_inline_dispatcher(server::request_handler& handler) : handler_(handler) {}
  bool try_start(exchange::exchange* s) override;

 private:
  server::request_handler& handler_;
  bool busy_ = false;
};

}  // namespace baton::bridge
