// The metrics as they lie in memory: what each thread counts, what each
// worker's slot holds, and what the master keeps, in one region that the
// master maps (shared, anonymous) before it forks, so that whoever serves
// the scrape sums every worker without asking it.
//
// Writers. A thread_block belongs to one loop thread, the only writer of its
// counters and gauges: a count is a relaxed load and store of its own cache
// lines (no lock, no read-modify-write, no syscall). The pool's fields of a
// worker_slot are written by its pool threads and its loop with relaxed
// atomic adds. The master writes the master_block and each slot's pid
// (the scrape reads each live worker's RSS from /proc). Readers (the scrape) load everything relaxed: a sum may mix a
// request's counter with the previous one's histogram, never tear a value.
//
// A dead worker's counters are folded into `retired` by the master before
// its slot is reused, so no counter the scrape reports goes backwards.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace baton::metrics {

// What carried the request.
enum class protocol : uint8_t { http1, h2, websocket, h3 };
constexpr size_t protocol_count = 4;
const char* protocol_name(protocol p);

// Status classes 1xx to 5xx (index 0 to 4).
constexpr size_t status_class_count = 5;
// By the hundreds digit, found without a division (for 0 <= s < 1000,
// s * 41 >> 12 is s / 100); anything outside 100-599 counts as 5xx.
inline size_t status_class_of(int status) {
  constexpr uint8_t by_hundreds[10] = {4, 0, 1, 2, 3, 4, 4, 4, 4, 4};
  auto s = static_cast<unsigned>(status);
  return s < 1000 ? by_hundreds[(s * 41) >> 12] : 4;
}

// Why the core refused or cut something, without the app.
enum class rejection : uint8_t {
  bad_request,       // 400
  request_timeout,   // 408 (a head or a body not whole in time)
  too_large,         // 413
  uri_too_long,      // 414
  header_too_large,  // 431
  overloaded,        // 503 past --limit-concurrency
  draining,          // 503 while draining
  tls_handshake,     // a TLS handshake that failed or timed out
  h2_stream_reset,   // an HTTP/2 stream we reset
  proxy_header,      // a connection closed for its PROXY header (untrusted, malformed, missing, late)
};
constexpr size_t rejection_count = 10;
const char* rejection_name(rejection r);

// WebSocket close codes, by class.
constexpr uint16_t ws_close_codes[] = {1000, 1001, 1002, 1003, 1006, 1007, 1008, 1009, 1011, 1012};
constexpr size_t ws_close_class_count = sizeof ws_close_codes / sizeof ws_close_codes[0] + 1;  // + "other"
inline size_t ws_close_class_of(uint16_t code) {
  for (size_t i = 0; i < ws_close_class_count - 1; ++i) {
    if (ws_close_codes[i] == code) return i;
  }
  return ws_close_class_count - 1;
}

// The latency histogram's upper bounds, in microseconds: log-linear from
// 50 us (a hello on loopback) through 1 ms (a p99 to alert on) to 10 s (a
// tail worth seeing), then +Inf.
constexpr uint64_t latency_bounds_us[] = {50,    100,    250,    500,    1000,    2500,    5000,    10000,
                                          25000, 50000,  100000, 250000, 500000, 1000000, 2500000, 5000000,
                                          10000000};
constexpr size_t latency_bound_count = sizeof latency_bounds_us / sizeof latency_bounds_us[0];
constexpr size_t latency_bucket_count = latency_bound_count + 1;  // + +Inf

// The bucket in constant time, as every answer pays for it: a value of w
// bits lies in [2^(w-1), 2^w), above every bound below 2^(w-1) (their
// count, from the table) and, since each bound is at least twice the one
// before, above at most one more.
constexpr bool bounds_double() {
  for (size_t i = 1; i < latency_bound_count; ++i) {
    if (latency_bounds_us[i] < 2 * latency_bounds_us[i - 1]) return false;
  }
  return true;
}
static_assert(bounds_double(), "latency_bucket_of needs each bound at least twice the one before");
struct bounds_below_table {
  uint8_t count[65] = {};  // by bit width: how many bounds lie below 2^(width-1)
  constexpr bounds_below_table() {
    for (size_t width = 1; width <= 64; ++width) {
      uint64_t low = uint64_t{1} << (width - 1);
      uint8_t n = 0;
      while (n < latency_bound_count && latency_bounds_us[n] < low) ++n;
      count[width] = n;
    }
  }
};
inline constexpr bounds_below_table bounds_below{};
inline size_t latency_bucket_of(uint64_t us) {
  size_t width = us == 0 ? 0 : 64 - static_cast<size_t>(__builtin_clzll(us));
  size_t i = bounds_below.count[width];
  return i + static_cast<size_t>(i < latency_bound_count && us > latency_bounds_us[i]);
}

using counter = std::atomic<uint64_t>;
using gauge = std::atomic<int64_t>;
static_assert(counter::is_always_lock_free && gauge::is_always_lock_free, "shared between processes");

// One protocol's answers, side by side: an answer counted touches one
// place, its fields at fixed offsets from it.
struct protocol_counts {
  counter requests[status_class_count];
  counter latency[latency_bucket_count];  // per bucket, not cumulative
  counter latency_sum_us;
  counter request_bytes;
  counter response_bytes;
};

// QUIC's own events (HTTP/3), beside the answers it carries.
struct quic_counts {
  counter datagrams_received;  // every datagram read on the UDP sockets, QUIC or not
  counter datagrams_sent;
  counter handshakes;          // connections whose handshake completed
  counter handshakes_failed;   // connections that ended before it did (an error, a timeout, a peer's close)
  counter packets_lost;        // by QUIC's loss detection, counted as each connection ends
  counter version_negotiations_sent;  // first packets in a version not spoken, answered with the ones that are
  counter stateless_resets_sent;      // packets for a connection gone (its worker died, or it closed)
  counter retries_sent;               // new connections asked to prove their address (Retry)
};

// One loop thread's counts. 64-byte aligned: no two threads share a line.
struct alignas(64) thread_block {
  protocol_counts answers[protocol_count];
  counter rejections[rejection_count];
  counter ws_closes[ws_close_class_count];
  quic_counts quic;
  counter loop_gil_wait_ns;  // the loop thread waiting to take the GIL (the shapes it runs Python in)
  gauge in_flight;           // requests (and open WebSockets) inside the app
  gauge connections;
  gauge websockets;
  gauge h2_streams;
  gauge quic_connections;
};

// A worker process: its loop threads, and what its pool threads share.
struct alignas(64) worker_slot {
  std::atomic<int32_t> pid;        // 0: free
  counter restarts;                // processes this slot has had past its first
  counter pool_gil_wait_ns;        // the pool threads waiting to take the GIL
  gauge pool_queue;                // requests waiting for a pool thread
  gauge pool_busy;                 // pool threads inside the app
  // thread_block threads[threads_per_worker] follows.
};

struct alignas(64) master_block {
  counter workers_started;
  counter respawns[4];               // by cause: crash, timeout, max_requests, memory
  counter retired_pool_gil_wait_ns;  // the pool GIL waits of workers gone
};
enum class respawn_cause : uint8_t { crash, timeout, max_requests, memory };
const char* respawn_cause_name(respawn_cause c);

struct region_header {
  uint64_t magic;
  uint32_t version;
  uint32_t workers;            // slots
  uint32_t threads_per_worker;  // thread_blocks in each slot
  uint32_t slot_bytes;
};

constexpr uint64_t region_magic = 0x6261746f6e6d6574ull;  // "batonmet"
constexpr uint32_t region_version = 1;

}  // namespace baton::metrics
