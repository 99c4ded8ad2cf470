// Counting, on the thread that owns the block: a relaxed load and store of
// the block's own line (layout.h), no lock, no read-modify-write, no
// syscall. The functions the request path calls; each is a few
// instructions, and nothing at all when the server has no block (metrics
// off).
#pragma once

#include "core/metrics/layout.h"

namespace baton::metrics {

inline void bump(counter& c, uint64_t n = 1) {
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

inline void move(gauge& g, int64_t by) { g.store(g.load(std::memory_order_relaxed) + by, std::memory_order_relaxed); }

// A request answered: its status, the time from its head to its answer's
// last byte, and its bytes each way.
inline void request_done(thread_block& b, protocol p, int status, uint64_t latency_us, uint64_t bytes_in,
                         uint64_t bytes_out) {
  protocol_counts& a = b.answers[static_cast<size_t>(p)];
  bump(a.requests[status_class_of(status)]);
  bump(a.latency[latency_bucket_of(latency_us)]);
  bump(a.latency_sum_us, latency_us);
  bump(a.request_bytes, bytes_in);
  bump(a.response_bytes, bytes_out);
}

inline void rejected(thread_block& b, rejection why) { bump(b.rejections[static_cast<size_t>(why)]); }

// A refusal with a status (what the core answered without the app), when
// metrics are on (`b` not null).
inline void refused(thread_block* b, int status) {
  if (b == nullptr) return;
  switch (status) {
    case 400: rejected(*b, rejection::bad_request); break;
    case 408: rejected(*b, rejection::request_timeout); break;
    case 413: rejected(*b, rejection::too_large); break;
    case 414: rejected(*b, rejection::uri_too_long); break;
    case 431: rejected(*b, rejection::header_too_large); break;
    default: break;
  }
}

// The same for an event without a status, and a gauge's move.
inline void rejected(thread_block* b, rejection why) {
  if (b != nullptr) rejected(*b, why);
}
inline void move(thread_block* b, gauge thread_block::*which, int64_t by) {
  if (b != nullptr) move(b->*which, by);
}

}  // namespace baton::metrics
