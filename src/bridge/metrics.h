// _baton.MetricsRegion (metrics.cc) and what the option table reads from it.
#pragma once

#include "bridge/module_state.h"
#include "core/metrics/layout.h"

namespace baton::bridge {

// Makes the MetricsRegion type for `module` (its execution), into `t`.
bool metrics_types_add(PyObject* module, bridge_types& t);

// The "metrics" option's value, (MetricsRegion, slot, thread): the thread
// block a loop counts into and its worker's slot. False with an error set.
bool metrics_blocks(PyObject* value, metrics::thread_block*& block, metrics::worker_slot*& slot);

}  // namespace baton::bridge
