// Stress tests for the handoff primitives (src/core/handoff): the SPSC ring,
// the notice queue and the parker. Millions of items cross between threads
// with random pauses; every item must arrive exactly once and in order, and
// no wake may be lost (waits are bounded, so a lost wake fails rather than
// hangs). They run in the ThreadSanitizer build too.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "core/handoff/notice_queue.h"
#include "core/handoff/parker.h"
#include "core/handoff/spmc_ring.h"
#include "core/handoff/spsc_ring.h"

namespace {

using baton::handoff::backoff;
using baton::handoff::notice_link;
using baton::handoff::notice_queue;
using baton::handoff::parker;
using baton::handoff::spmc_ring;
using baton::handoff::spsc_ring;

#if defined(__SANITIZE_THREAD__)
constexpr uint64_t scale = 10;  // ThreadSanitizer runs everything ~10x slower
#else
constexpr uint64_t scale = 1;
#endif

int64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

// An occasional pause of up to `max_us`, so each side sometimes runs ahead.
void maybe_pause(std::mt19937& rng, unsigned one_in, unsigned max_us) {
  if (rng() % one_in == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % max_us));
}

TEST(SpscRing, CapacityIsAPowerOfTwoAtLeastAsked) {
  spsc_ring<int> ring(5);
  EXPECT_EQ(ring.capacity(), 8u);
}

TEST(SpscRing, PushFailsWhenFullAndPopWhenEmpty) {
  spsc_ring<int> ring(4);
  int items[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(ring.try_pop(), nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ring.try_push(&items[i]));
  EXPECT_FALSE(ring.try_push(&items[4]));
  EXPECT_EQ(ring.try_pop(), &items[0]);
  EXPECT_TRUE(ring.try_push(&items[4]));
  for (int i = 1; i < 5; ++i) EXPECT_EQ(ring.try_pop(), &items[i]);
  EXPECT_EQ(ring.try_pop(), nullptr);
  EXPECT_TRUE(ring.empty());
}

// Millions of sequence numbers through a small ring: each arrives once, in order.
TEST(SpscRing, MillionsOfItemsArriveOnceInOrderUnderRandomPauses) {
  const uint64_t n = 3'000'000 / scale;
  spsc_ring<const uint64_t> ring(64);
  std::vector<uint64_t> values(n);
  for (uint64_t i = 0; i < n; ++i) values[i] = i;
  std::thread producer([&] {
    std::mt19937 rng(1);
    for (uint64_t i = 0; i < n; ++i) {
      while (!ring.try_push(&values[i])) std::this_thread::yield();
      maybe_pause(rng, 100000, 300);
    }
  });
  std::mt19937 rng(2);
  uint64_t expected = 0;
  uint64_t out_of_order = 0;
  while (expected < n) {
    const uint64_t* item = ring.try_pop();
    if (item == nullptr) {
      std::this_thread::yield();
      continue;
    }
    if (*item != expected) ++out_of_order;
    expected = *item + 1;
    maybe_pause(rng, 100000, 300);
  }
  producer.join();
  EXPECT_EQ(out_of_order, 0u);
  EXPECT_EQ(ring.try_pop(), nullptr) << "an item arrived twice";
}

TEST(SpmcRing, PushFailsWhenFullAndPopWhenEmpty) {
  spmc_ring<int> ring(4);
  int items[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(ring.capacity(), 4u);
  EXPECT_EQ(ring.try_pop(), nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ring.try_push(&items[i]));
  EXPECT_FALSE(ring.try_push(&items[4]));
  EXPECT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring.try_pop(), &items[0]);
  EXPECT_TRUE(ring.try_push(&items[4]));
  for (int i = 1; i < 5; ++i) EXPECT_EQ(ring.try_pop(), &items[i]);
  EXPECT_EQ(ring.try_pop(), nullptr);
  EXPECT_TRUE(ring.empty());
}

// Millions of sequence numbers through a small ring to three consumers that
// race for every item: each item goes to exactly one of them, and each sees
// its own share in the order pushed.
TEST(SpmcRing, MillionsOfItemsEachArriveAtExactlyOneConsumerUnderRandomPauses) {
  const uint64_t n = 3'000'000 / scale;
  constexpr int consumers = 3;
  spmc_ring<const uint64_t> ring(64);
  std::vector<uint64_t> values(n);
  for (uint64_t i = 0; i < n; ++i) values[i] = i;
  std::vector<std::atomic<uint8_t>> seen(n);
  std::atomic<uint64_t> taken{0};
  // Bounded, so that a broken ring fails the test rather than hanging it.
  std::atomic<bool> gave_up{false};
  auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> out_of_order{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < consumers; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 rng(static_cast<unsigned>(20 + c));
      uint64_t last = 0;
      bool first = true;
      while (taken.load(std::memory_order_relaxed) < n && !gave_up.load(std::memory_order_relaxed)) {
        const uint64_t* item = ring.try_pop();
        if (item == nullptr) {
          std::this_thread::yield();
          continue;
        }
        if (!first && *item <= last) out_of_order.fetch_add(1, std::memory_order_relaxed);
        first = false;
        last = *item;
        seen[*item].fetch_add(1, std::memory_order_relaxed);
        taken.fetch_add(1, std::memory_order_relaxed);
        maybe_pause(rng, 100000, 300);
      }
    });
  }
  std::mt19937 rng(3);
  for (uint64_t i = 0; i < n && !gave_up.load(); ++i) {
    while (!ring.try_push(&values[i])) {
      if (elapsed_ms(start) > 60'000) {
        gave_up.store(true);
        break;
      }
      std::this_thread::yield();
    }
    maybe_pause(rng, 100000, 300);
  }
  while (taken.load() < n && elapsed_ms(start) <= 60'000) std::this_thread::yield();
  gave_up.store(true);
  for (auto& t : threads) t.join();
  uint64_t missing = 0;
  uint64_t twice = 0;
  for (auto& s : seen) {
    uint8_t k = s.load(std::memory_order_relaxed);
    missing += k == 0 ? 1 : 0;
    twice += k > 1 ? 1 : 0;
  }
  EXPECT_EQ(missing, 0u);
  EXPECT_EQ(twice, 0u);
  EXPECT_EQ(out_of_order.load(), 0u);
  EXPECT_EQ(ring.try_pop(), nullptr);
}

struct sequenced : notice_link {
  int producer = 0;
  uint64_t sequence = 0;
  std::atomic<bool> in_queue{false};
};

// Several producers push their own nodes again and again; the consumer takes
// everything at once. Per producer the sequence numbers arrive in order,
// none missing and none twice.
TEST(NoticeQueue, ManyProducersEveryNoticeArrivesOnceInPerProducerOrder) {
  constexpr int producers = 3;
  const uint64_t per_producer = 500'000 / scale;
  notice_queue queue;
  constexpr int nodes_each = 64;
  std::vector<std::vector<sequenced>> nodes(producers);
  for (auto& v : nodes) v = std::vector<sequenced>(nodes_each);
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      std::mt19937 rng(static_cast<unsigned>(10 + p));
      for (uint64_t i = 0; i < per_producer; ++i) {
        sequenced& node = nodes[static_cast<size_t>(p)][i % nodes_each];
        while (node.in_queue.load(std::memory_order_acquire)) std::this_thread::yield();
        node.producer = p;
        node.sequence = i;
        node.in_queue.store(true, std::memory_order_relaxed);
        queue.push(&node);
        maybe_pause(rng, 50000, 200);
      }
      done.fetch_add(1);
    });
  }
  std::vector<uint64_t> next(producers, 0);
  uint64_t errors = 0;
  uint64_t received = 0;
  while (true) {
    bool all_done = done.load() == producers;
    notice_link* list = queue.take_all();
    if (list == nullptr) std::this_thread::yield();
    while (list != nullptr) {
      notice_link* following = list->notice_next;
      auto* node = static_cast<sequenced*>(list);
      if (node->sequence != next[static_cast<size_t>(node->producer)]) ++errors;
      next[static_cast<size_t>(node->producer)] = node->sequence + 1;
      ++received;
      node->in_queue.store(false, std::memory_order_release);
      list = following;
    }
    if (all_done && queue.empty()) break;
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(received, producers * per_producer);
}

TEST(NoticeQueue, PushReportsWhetherTheQueueWasEmpty) {
  notice_queue queue;
  notice_link a, b;
  EXPECT_TRUE(queue.push(&a));
  EXPECT_FALSE(queue.push(&b));
  notice_link* list = queue.take_all();
  EXPECT_EQ(list, &a);
  EXPECT_EQ(list->notice_next, &b);
  EXPECT_EQ(b.notice_next, nullptr);
  EXPECT_TRUE(queue.empty());
  EXPECT_TRUE(queue.push(&a));
}

TEST(Parker, WaitReturnsAtOnceWhenNotifiedAfterPrepare) {
  parker p;
  uint64_t key = p.prepare_wait();
  p.notify();
  auto start = std::chrono::steady_clock::now();
  p.wait(key, 5000);
  EXPECT_LT(elapsed_ms(start), 1000);
}

TEST(Parker, WaitTimesOutWithoutANotify) {
  parker p;
  uint64_t key = p.prepare_wait();
  auto start = std::chrono::steady_clock::now();
  p.wait(key, 30);
  EXPECT_GE(elapsed_ms(start), 25);
}

TEST(Parker, NotifyWithoutWaitersMakesNoSyscall) {
  parker p;
  for (int i = 0; i < 1000; ++i) p.notify();
  EXPECT_EQ(p.wake_calls(), 0u);
}

// A consumer that spins briefly and then parks takes items from a ring that
// a producer fills in bursts with random pauses; the producer notifies after
// every push. No item may be lost, and a lost wake shows as a consumer stuck
// past the bound with items waiting.
TEST(Parker, ConsumerParkedOnARingNeverMissesAnItem) {
  const uint64_t n = 2'000'000 / scale;
  spsc_ring<const uint64_t> ring(256);
  parker p;
  std::vector<uint64_t> values(n);
  for (uint64_t i = 0; i < n; ++i) values[i] = i;
  std::atomic<bool> stuck{false};
  std::thread producer([&] {
    std::mt19937 rng(3);
    for (uint64_t i = 0; i < n; ++i) {
      while (!ring.try_push(&values[i])) std::this_thread::yield();
      p.notify();
      maybe_pause(rng, 2000, 100);
    }
  });
  uint64_t expected = 0;
  uint64_t errors = 0;
  while (expected < n) {
    const uint64_t* item = nullptr;
    auto start = std::chrono::steady_clock::now();
    // A small spin so that most waits really park.
    baton::handoff::park_until(p, [&] { return (item = ring.try_pop()) != nullptr || elapsed_ms(start) > 3000; },
                               backoff{20, 1});
    if (item == nullptr) {
      stuck.store(true);
      break;
    }
    if (*item != expected) ++errors;
    expected = *item + 1;
  }
  producer.join();
  EXPECT_FALSE(stuck.load()) << "the consumer stayed parked with an item in the ring";
  EXPECT_EQ(errors, 0u);
  EXPECT_GT(p.wake_calls(), 0u) << "the consumer never parked: the test did not exercise the futex";
}

}  // namespace
