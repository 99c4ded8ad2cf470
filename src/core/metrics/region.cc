#include "core/metrics/region.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/metrics/stopwatch.h"

namespace baton::metrics {

namespace {

constexpr size_t header_bytes = 64;
constexpr size_t master_offset = header_bytes;
constexpr size_t retired_offset = master_offset + sizeof(master_block);
constexpr size_t slots_offset = retired_offset + sizeof(thread_block);

size_t slot_bytes_for(uint32_t threads) { return sizeof(worker_slot) + size_t{threads} * sizeof(thread_block); }

// Every counter and gauge of a block, as one flat run of 64-bit atomics
// (the layout holds nothing else), so the fold and the sum need no list.
template <typename Fn>
void each_word(thread_block& block, Fn fn) {
  static_assert(sizeof(thread_block) % sizeof(uint64_t) == 0);
  auto* words = reinterpret_cast<std::atomic<uint64_t>*>(&block);
  size_t count = offsetof(thread_block, quic_connections) / sizeof(uint64_t) + 1;
  for (size_t i = 0; i < count; ++i) fn(words[i]);
}

}  // namespace

const char* protocol_name(protocol p) {
  switch (p) {
    case protocol::http1: return "http/1.1";
    case protocol::h2: return "h2";
    case protocol::websocket: return "websocket";
    case protocol::h3: return "h3";
  }
  return "other";
}

const char* rejection_name(rejection r) {
  static const char* names[] = {"bad_request",      "request_timeout", "too_large", "uri_too_long", "header_too_large",
                                "over_concurrency", "draining",     "tls_handshake", "http2_stream_reset",
                                "proxy_header"};
  return names[static_cast<size_t>(r)];
}

const char* respawn_cause_name(respawn_cause c) {
  static const char* names[] = {"crash", "timeout", "max_requests", "memory"};
  return names[static_cast<size_t>(c)];
}

region::region(uint32_t workers, uint32_t threads) {
  stopwatch::calibrate();  // here, before the workers fork: one rate for every process
  bytes_ = slots_offset + size_t{workers} * slot_bytes_for(threads);
  memory_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory_ == MAP_FAILED) {
    memory_ = nullptr;
    throw std::system_error(errno, std::generic_category(), "mmap of the metrics region");
  }
  // A fresh anonymous mapping is zeroed: every counter, gauge and pid starts at 0.
  auto* h = static_cast<region_header*>(memory_);
  h->magic = region_magic;
  h->version = region_version;
  h->workers = workers;
  h->threads_per_worker = threads;
  h->slot_bytes = static_cast<uint32_t>(slot_bytes_for(threads));
}

region::~region() {
  if (memory_ != nullptr) munmap(memory_, bytes_);
}

master_block& region::master() const {
  return *reinterpret_cast<master_block*>(static_cast<char*>(memory_) + master_offset);
}

thread_block& region::retired() const {
  return *reinterpret_cast<thread_block*>(static_cast<char*>(memory_) + retired_offset);
}

worker_slot& region::slot(uint32_t worker) const {
  return *reinterpret_cast<worker_slot*>(static_cast<char*>(memory_) + slots_offset +
                                         size_t{worker} * header().slot_bytes);
}

thread_block& region::thread(uint32_t worker, uint32_t thread) const {
  char* first = reinterpret_cast<char*>(&slot(worker)) + sizeof(worker_slot);
  return *reinterpret_cast<thread_block*>(first + size_t{thread} * sizeof(thread_block));
}

void add_block(thread_block& into, const thread_block& from) {
  auto* source = reinterpret_cast<const std::atomic<uint64_t>*>(&from);
  size_t i = 0;
  each_word(into, [&](std::atomic<uint64_t>& word) {
    word.store(word.load(std::memory_order_relaxed) + source[i++].load(std::memory_order_relaxed),
               std::memory_order_relaxed);
  });
}

void clear_block(thread_block& block) {
  each_word(block, [](std::atomic<uint64_t>& word) { word.store(0, std::memory_order_relaxed); });
}

void region::retire_slot(uint32_t worker) {
  std::lock_guard<std::mutex> hold(fold_lock_);
  thread_block& into = retired();
  for (uint32_t t = 0; t < threads(); ++t) {
    thread_block& from = thread(worker, t);
    // The gauges die with the worker: only the counters are kept.
    from.in_flight.store(0, std::memory_order_relaxed);
    from.connections.store(0, std::memory_order_relaxed);
    from.websockets.store(0, std::memory_order_relaxed);
    from.h2_streams.store(0, std::memory_order_relaxed);
    from.quic_connections.store(0, std::memory_order_relaxed);
    add_block(into, from);
    clear_block(from);
  }
  worker_slot& s = slot(worker);
  counter& pool_wait = master().retired_pool_gil_wait_ns;
  pool_wait.store(pool_wait.load(std::memory_order_relaxed) + s.pool_gil_wait_ns.exchange(0, std::memory_order_relaxed),
                  std::memory_order_relaxed);
  s.pool_queue.store(0, std::memory_order_relaxed);
  s.pool_busy.store(0, std::memory_order_relaxed);
  s.pid.store(0, std::memory_order_relaxed);
}

}  // namespace baton::metrics
