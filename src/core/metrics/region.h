// The metrics region: the memory of layout.h, mapped shared and anonymous
// so that the master maps it once before it forks and every worker writes
// its own slot in it. A process serving alone maps one for itself.
//
// Threads. Recording threads write their own blocks (layout.h). The
// scrape and retire_slot() run in the process that serves the metrics
// (the master, or the one process): they take fold_lock(), so a scrape
// never sees a dead worker's counts both in its slot and in `retired`.
#pragma once

#include <cstdint>
#include <mutex>

#include "core/metrics/layout.h"

namespace baton::metrics {

class region {
 public:
  // Maps room for `workers` slots of `threads` loop threads each. Throws
  // std::system_error when the kernel refuses the mapping.
  region(uint32_t workers, uint32_t threads);
  ~region();
  region(const region&) = delete;
  region& operator=(const region&) = delete;

  uint32_t workers() const { return header().workers; }
  uint32_t threads() const { return header().threads_per_worker; }
  master_block& master() const;
  thread_block& retired() const;
  worker_slot& slot(uint32_t worker) const;
  thread_block& thread(uint32_t worker, uint32_t thread) const;

  // The master, when a worker has gone: adds its slot's counters to
  // `retired`, zeroes them and frees the slot (its gauges end with it; its
  // restart count stays with the slot, which the next worker takes).
  void retire_slot(uint32_t worker);
  std::mutex& fold_lock() const { return fold_lock_; }

 private:
  const region_header& header() const { return *static_cast<const region_header*>(memory_); }
  void* memory_ = nullptr;
  size_t bytes_ = 0;
  mutable std::mutex fold_lock_;
};

// Adds every counter of `from` into `into` (the gauges too, for sums).
void add_block(thread_block& into, const thread_block& from);
// Zeroes every counter and gauge of `block`.
void clear_block(thread_block& block);

}  // namespace baton::metrics
