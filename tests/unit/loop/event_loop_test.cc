// Unit tests for the event loop (src/core/loop/event_loop.h). Waiting is
// always done by the loop itself (its own timers, epoll, the wake eventfd);
// the tests never sleep to synchronise. A wait that should end because of a
// wake is bounded, so a lost wake fails the test instead of hanging it.
#include "core/loop/event_loop.h"

#include "core/handoff/parker.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <chrono>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace {

using baton::loop::event_loop;
using baton::loop::timer;

constexpr int bounded_wait_ms = 5000;

struct recording_timer final : baton::loop::timer_handler {
  recording_timer(std::vector<int>& log, int name) : log(log), name(name) {}
  void on_timer() override { log.push_back(name); }
  std::vector<int>& log;
  int name;
};

struct recording_io final : baton::loop::io_handler {
  void on_io(uint32_t e) override {
    ++calls;
    events = e;
  }
  int calls = 0;
  uint32_t events = 0;
};

struct pipe_fds {
  int read_end = -1;
  int write_end = -1;
  pipe_fds() {
    int fds[2];
    if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0) {
      read_end = fds[0];
      write_end = fds[1];
    }
  }
  ~pipe_fds() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
};

// Runs passes until `done()` or `max_passes` passes have run.
template <typename Done>
void run_until(event_loop& loop, Done done, int max_passes = 1000) {
  for (int i = 0; i < max_passes && !done(); ++i) loop.run_once(bounded_wait_ms);
}

int64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

TEST(EventLoop, DueTimersFireInDeadlineOrder) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h1(fired, 1), h2(fired, 2), h3(fired, 3), h4(fired, 4);
  timer t1(&h1), t2(&h2), t3(&h3), t4(&h4);
  int64_t now = loop.now_ms();
  loop.arm(t2, now - 2);
  loop.arm(t4, now - 4);
  loop.arm(t1, now - 1);
  loop.arm(t3, now - 3);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{4, 3, 2, 1}));
  EXPECT_FALSE(t1.armed());
  EXPECT_EQ(loop.armed_timers(), 0u);
}

TEST(EventLoop, FutureTimersFireInDeadlineOrder) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer ha(fired, 30), hb(fired, 10), hc(fired, 20);
  timer a(&ha), b(&hb), c(&hc);
  int64_t now = loop.now_ms();
  loop.arm(a, now + 30);
  loop.arm(b, now + 10);
  loop.arm(c, now + 20);
  run_until(loop, [&] { return fired.size() == 3; });
  EXPECT_EQ(fired, (std::vector<int>{10, 20, 30}));
  EXPECT_GE(loop.now_ms(), now + 30);
}

TEST(EventLoop, TimerDoesNotFireBeforeItsDeadline) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer later(&h);
  loop.arm(later, loop.now_ms() + 60000);
  loop.run_once(0);
  EXPECT_TRUE(fired.empty());
  EXPECT_TRUE(later.armed());
}

TEST(EventLoop, DisarmedTimerDoesNotFire) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer ha(fired, 1), hb(fired, 2);
  timer a(&ha), b(&hb);
  int64_t now = loop.now_ms();
  loop.arm(a, now - 1);
  loop.arm(b, now - 2);
  loop.disarm(b);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
}

TEST(EventLoop, DisarmedFutureTimerDoesNotShortenTheWait) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer hs(fired, 1), hl(fired, 2);
  timer soon(&hs), later(&hl);
  int64_t now = loop.now_ms();
  loop.arm(soon, now + 5);
  loop.arm(later, now + 20);
  loop.disarm(soon);
  EXPECT_EQ(loop.next_timeout_ms() >= 15, true) << loop.next_timeout_ms();
  run_until(loop, [&] { return !fired.empty(); });
  EXPECT_EQ(fired, (std::vector<int>{2}));
}

TEST(EventLoop, RearmingMovesATimerInsteadOfAddingOne) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer t(&h);
  int64_t now = loop.now_ms();
  loop.arm(t, now + 60000);
  loop.arm(t, now - 1);
  EXPECT_EQ(loop.armed_timers(), 1u);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1})) << "fired twice";
}

TEST(EventLoop, TimerDisarmedByAnEarlierTimerInTheSamePassDoesNotFire) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer victim_handler(fired, 2);
  timer victim(&victim_handler);
  struct disarmer final : baton::loop::timer_handler {
    void on_timer() override {
      log->push_back(1);
      loop->disarm(*target);
    }
    event_loop* loop = nullptr;
    std::vector<int>* log = nullptr;
    timer* target = nullptr;
  } first;
  timer first_timer(&first);
  int64_t now = loop.now_ms();
  first.loop = &loop;
  first.log = &fired;
  first.target = &victim;
  loop.arm(first_timer, now - 2);
  loop.arm(victim, now - 1);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
}

// A coarse timer's handler arms a second timer for a time already due,
// with `arm_second`; the second must fire on the next pass, not this one.
template <typename ArmSecond>
void expect_a_timer_armed_for_now_fires_in_a_later_pass(ArmSecond arm_second) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer second_handler(fired, 2);
  timer second(&second_handler);
  struct arming final : baton::loop::timer_handler {
    explicit arming(std::function<void()> then) : then(std::move(then)) {}
    void on_timer() override {
      log->push_back(1);
      then();
    }
    std::function<void()> then;
    std::vector<int>* log = nullptr;
  } first([&] { arm_second(loop, second); });
  timer first_timer(&first);
  first.log = &fired;
  loop.arm(first_timer, loop.now_ms() - 1);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
}

TEST(EventLoop, TimerArmedByATimerForNowFiresInALaterPass) {
  expect_a_timer_armed_for_now_fires_in_a_later_pass([](event_loop& loop, timer& t) { loop.arm(t, loop.now_ms() - 1); });
}

TEST(EventLoop, HeapKeepsDeadlineOrderUnderRandomArmsAndDisarms) {
  event_loop loop;
  std::vector<int> fired;
  constexpr int n = 400;
  std::vector<std::unique_ptr<recording_timer>> handlers;
  std::vector<std::unique_ptr<timer>> timers;
  std::vector<int64_t> deadline(n, 0);
  std::vector<bool> armed(n, false);
  for (int i = 0; i < n; ++i) {
    handlers.push_back(std::make_unique<recording_timer>(fired, i));
    timers.push_back(std::make_unique<timer>(handlers.back().get()));
  }
  std::mt19937 rng(7);
  int64_t base = loop.now_ms() - 100000;
  for (int step = 0; step < 5000; ++step) {
    int i = static_cast<int>(rng() % n);
    if (rng() % 3 == 0) {
      loop.disarm(*timers[static_cast<size_t>(i)]);
      armed[static_cast<size_t>(i)] = false;
    } else {
      int64_t d = base + static_cast<int64_t>(rng() % 1000) * 10 + i % 10;  // distinct per timer slot
      loop.arm(*timers[static_cast<size_t>(i)], d);
      deadline[static_cast<size_t>(i)] = d;
      armed[static_cast<size_t>(i)] = true;
    }
  }
  std::vector<std::pair<int64_t, int>> expected;
  for (int i = 0; i < n; ++i) {
    if (armed[static_cast<size_t>(i)]) expected.emplace_back(deadline[static_cast<size_t>(i)], i);
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(loop.armed_timers(), expected.size());
  loop.run_once(0);
  ASSERT_EQ(fired.size(), expected.size());
  for (size_t k = 0; k + 1 < fired.size(); ++k) {
    EXPECT_LE(deadline[static_cast<size_t>(fired[k])], deadline[static_cast<size_t>(fired[k + 1])]) << k;
  }
}

TEST(EventLoop, WakeFromAnotherThreadEndsAWaitAndCallsTheWakeHandler) {
  event_loop loop;
  recording_io wake_handler;
  loop.set_wake_handler(&wake_handler);
  auto start = std::chrono::steady_clock::now();
  std::thread waker([&] { loop.wake(); });
  loop.run_once(bounded_wait_ms);  // no timers and no fds: only the wake ends this early
  waker.join();
  EXPECT_LT(elapsed_ms(start), bounded_wait_ms) << "the wake did not end the wait";
  EXPECT_EQ(wake_handler.calls, 1);
  EXPECT_NE(wake_handler.events & event_loop::readable, 0u);

  // The wake was consumed: a further pass does not call the handler again.
  loop.run_once(0);
  EXPECT_EQ(wake_handler.calls, 1);
}

TEST(EventLoop, SeveralWakesBeforeAPassCallTheHandlerOnce) {
  event_loop loop;
  recording_io wake_handler;
  loop.set_wake_handler(&wake_handler);
  std::thread waker([&] {
    for (int i = 0; i < 5; ++i) loop.wake();
  });
  waker.join();
  loop.run_once(bounded_wait_ms);
  EXPECT_EQ(wake_handler.calls, 1);
  loop.run_once(0);
  EXPECT_EQ(wake_handler.calls, 1);
}

TEST(EventLoop, WakeWithoutHandlerStillEndsTheWait) {
  event_loop loop;
  auto start = std::chrono::steady_clock::now();
  std::thread waker([&] { loop.wake(); });
  loop.run_once(bounded_wait_ms);
  waker.join();
  EXPECT_LT(elapsed_ms(start), bounded_wait_ms);
}

struct counting_inbox final : baton::loop::inbox_handler {
  void on_notices(baton::handoff::notice_link* list) override {
    for (; list != nullptr; list = list->notice_next) ++taken;
  }
  std::atomic<uint64_t> taken{0};
};

TEST(EventLoop, PostFromAnotherThreadWakesAParkedLoop) {
  event_loop loop;
  counting_inbox inbox;
  loop.set_inbox_handler(&inbox);
  baton::handoff::notice_link node;
  auto start = std::chrono::steady_clock::now();
  std::thread poster([&] {
    while (!loop.parked()) std::this_thread::yield();  // the loop has parked (it is in, or entering, its wait)
    loop.post(&node);
  });
  loop.run_once(bounded_wait_ms);
  poster.join();
  EXPECT_LT(elapsed_ms(start), bounded_wait_ms) << "the post did not wake the parked loop";
  EXPECT_EQ(inbox.taken.load(), 1u);
  EXPECT_EQ(loop.wake_writes(), 1u);
}

TEST(EventLoop, PostToARunningLoopWritesNoEventfd) {
  event_loop loop;
  counting_inbox inbox;
  loop.set_inbox_handler(&inbox);
  baton::handoff::notice_link nodes[100];
  for (auto& n : nodes) loop.post(&n);  // the loop is not parked: nobody to wake
  EXPECT_EQ(loop.wake_writes(), 0u);
  EXPECT_EQ(loop.next_timeout_ms(), 0) << "pending notices make the next pass non-blocking";
  loop.run_once(-1);
  EXPECT_EQ(inbox.taken.load(), 100u);
}

// Producers post one notice and wait (with random pauses around it) until
// the loop has taken it, so the loop parks between posts over and over: a
// lost wake leaves a producer waiting, which the bounded wait reports.
struct counted_node : baton::handoff::notice_link {
  std::atomic<uint64_t> taken{0};
};

struct node_counting_inbox final : baton::loop::inbox_handler {
  void on_notices(baton::handoff::notice_link* list) override {
    while (list != nullptr) {
      baton::handoff::notice_link* next = list->notice_next;  // the node may be reposted once counted
      static_cast<counted_node*>(list)->taken.fetch_add(1);
      list = next;
    }
  }
};

// The race the parked flag exists for, forced: a post lands after the pass
// decided to block but before it marked itself parked, so the poster sees
// "not parked" and writes no eventfd. The pass must notice it anyway.
TEST(EventLoop, APostJustBeforeParkingEndsTheWaitAtOnce) {
  event_loop loop;
  counting_inbox inbox;
  loop.set_inbox_handler(&inbox);
  baton::handoff::notice_link node;
  struct racer {
    event_loop* loop;
    baton::handoff::notice_link* node;
    bool fired = false;
  } race{&loop, &node};
  loop.set_before_park_hook(
      [](void* c) {
        auto* r = static_cast<racer*>(c);
        if (r->fired) return;
        r->fired = true;
        r->loop->post(r->node);
      },
      &race);
  auto start = std::chrono::steady_clock::now();
  loop.run_once(bounded_wait_ms);
  EXPECT_TRUE(race.fired);
  EXPECT_LT(elapsed_ms(start), 1000) << "the pass slept with a notice in its inbox";
  EXPECT_EQ(inbox.taken.load(), 1u);
  EXPECT_EQ(loop.wake_writes(), 0u) << "the poster saw the loop parked";
}

TEST(EventLoop, NoPostIsLostAcrossManyParks) {
  event_loop loop;
  node_counting_inbox inbox;
  loop.set_inbox_handler(&inbox);
  // One producer spins on the loop's progress and posts again after a
  // random number of pause instructions, so over many rounds its post lands
  // at every point of the loop's way from taking a notice to parking.
  constexpr uint64_t rounds = 100000;
  std::atomic<int> lost{0};
  std::atomic<bool> finished{false};
  counted_node node;
  std::thread producer([&] {
    std::mt19937 rng(11);
    for (uint64_t i = 1; i <= rounds; ++i) {
      unsigned delay = rng() % 400;
      for (unsigned k = 0; k < delay; ++k) baton::handoff::cpu_relax();
      if (rng() % 4096 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      loop.post(&node);
      auto start = std::chrono::steady_clock::now();
      bool reported = false;
      while (node.taken.load(std::memory_order_acquire) < i) {
        if (!reported && elapsed_ms(start) > 2000) {
          lost.fetch_add(1);
          reported = true;
          loop.wake();  // unstick the test; the failure is recorded
        }
        baton::handoff::cpu_relax();
      }
    }
    finished.store(true);
    loop.wake();
  });
  while (!finished.load()) loop.run_once(-1);
  producer.join();
  EXPECT_EQ(lost.load(), 0) << "a post did not wake the parked loop";
  EXPECT_EQ(node.taken.load(), rounds);
  EXPECT_GT(loop.wake_writes(), 0u);
}

TEST(EventLoop, IoHandlerOnPipeIsCalledReadableWhenWritten) {
  event_loop loop;
  pipe_fds p;
  ASSERT_GE(p.read_end, 0);
  recording_io handler;
  loop.add(p.read_end, event_loop::readable, &handler);

  loop.run_once(0);
  EXPECT_EQ(handler.calls, 0) << "called before anything was written";

  ASSERT_EQ(::write(p.write_end, "x", 1), 1);
  loop.run_once(bounded_wait_ms);
  EXPECT_EQ(handler.calls, 1);
  EXPECT_NE(handler.events & event_loop::readable, 0u);
  loop.remove(p.read_end);
}

TEST(EventLoop, RemovedFdIsNotReported) {
  event_loop loop;
  pipe_fds p;
  ASSERT_GE(p.read_end, 0);
  recording_io handler;
  loop.add(p.read_end, event_loop::readable, &handler);
  loop.remove(p.read_end);
  ASSERT_EQ(::write(p.write_end, "x", 1), 1);
  loop.run_once(0);
  EXPECT_EQ(handler.calls, 0);
}

TEST(EventLoop, ModifySwitchesInterestAndHandler) {
  event_loop loop;
  pipe_fds p;
  ASSERT_GE(p.write_end, 0);
  recording_io first, second;
  loop.add(p.write_end, event_loop::readable, &first);
  loop.run_once(0);
  EXPECT_EQ(first.calls, 0);  // an empty pipe's write end is never readable
  loop.modify(p.write_end, event_loop::writable, &second);
  loop.run_once(bounded_wait_ms);
  EXPECT_EQ(first.calls, 0);
  EXPECT_EQ(second.calls, 1);
  EXPECT_NE(second.events & event_loop::writable, 0u);
  loop.remove(p.write_end);
}

TEST(EventLoop, AddingAnInvalidFdThrows) {
  event_loop loop;
  recording_io handler;
  EXPECT_THROW(loop.add(-1, event_loop::readable, &handler), std::system_error);
}

TEST(EventLoop, BackendFdIsReadableWhenAPassHasWork) {
  event_loop loop;
  pipe_fds p;
  recording_io handler;
  loop.add(p.read_end, event_loop::readable, &handler);
  pollfd pfd{loop.backend_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&pfd, 1, 0), 0) << "readable with nothing to do";
  ASSERT_EQ(::write(p.write_end, "x", 1), 1);
  EXPECT_EQ(::poll(&pfd, 1, bounded_wait_ms), 1);
  loop.run_once(0);
  EXPECT_EQ(handler.calls, 1);
  loop.remove(p.read_end);
}

// What a driving loop runs after its own callbacks posted: the inbox and
// due timers, and not the ready fd (read only on the backend fd's word).
TEST(EventLoop, AnInboxAndTimersPassLeavesReadyFdsAlone) {
  event_loop loop;
  counting_inbox inbox;
  loop.set_inbox_handler(&inbox);
  int hooks = 0;
  loop.set_post_hook([](void* context) { ++*static_cast<int*>(context); }, &hooks);
  pipe_fds p;
  recording_io handler;
  loop.add(p.read_end, event_loop::readable, &handler);
  ASSERT_EQ(::write(p.write_end, "x", 1), 1);
  std::vector<int> fired;
  recording_timer due(fired, 1);
  timer t(&due);
  loop.arm(t, loop.now_ms() - 1);
  baton::handoff::notice_link first, second;
  loop.post(&first);
  loop.run_inbox_and_timers();
  EXPECT_EQ(inbox.taken.load(), 1u);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  EXPECT_EQ(handler.calls, 0) << "the pass read a ready fd";
  loop.post(&second);  // a post after the pass asks the driver for another
  EXPECT_EQ(hooks, 2);
  loop.run_once(0);
  EXPECT_EQ(handler.calls, 1);
  EXPECT_EQ(inbox.taken.load(), 2u);
  loop.remove(p.read_end);
}

TEST(EventLoop, NextTimeoutFollowsTheEarliestTimer) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer t(&h);
  EXPECT_EQ(loop.next_timeout_ms(), -1);
  loop.arm(t, loop.now_ms() + 250);
  int next = loop.next_timeout_ms();
  EXPECT_GT(next, 200);
  EXPECT_LE(next, 250);
  loop.arm(t, loop.now_ms() - 5);
  EXPECT_EQ(loop.next_timeout_ms(), 0);
}

// A park limit shorter than a millisecond ends a wait that has nothing else
// to end it (no timer, no event) within about that long: epoll_pwait2's
// nanoseconds, not a millisecond timeout rounded up. A wake from another
// thread after three seconds bounds the test if the limit is lost.
TEST(EventLoop, AParkLimitEndsAWaitWithNothingElseToEndIt) {
  event_loop loop;
  std::atomic<bool> done{false};
  std::thread backstop([&] {
    for (int i = 0; i < 300 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    loop.wake();
  });
  loop.set_park_limit_ns(200'000);
  EXPECT_EQ(loop.next_timeout_ms(), 1) << "a driving loop gets the limit rounded up to milliseconds";
  constexpr int passes = 20;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < passes; ++i) loop.run_once(-1);
  auto each = (std::chrono::steady_clock::now() - start) / passes;
  done = true;
  backstop.join();
  EXPECT_GE(each, std::chrono::microseconds(150));
  // A millisecond wait would make each pass at least 1 ms.
  EXPECT_LT(each, std::chrono::microseconds(950)) << "the limit was rounded to a millisecond wait";
  loop.set_park_limit_ns(-1);
  EXPECT_EQ(loop.next_timeout_ms(), -1);
}

int64_t precise_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Re-arms itself `gap_ns` ahead on the precise clock until it has fired
// `rounds` times, noting how late each firing came.
struct pacing_timer final : baton::loop::timer_handler {
  pacing_timer(event_loop& loop, int64_t gap_ns, int rounds) : loop(loop), gap_ns(gap_ns), rounds(rounds) {}
  void start() {
    due = precise_now_ns() + gap_ns;
    loop.arm_precise(t, due);
  }
  void on_timer() override {
    int64_t now = precise_now_ns();
    if (now < due) early = true;
    latest = std::max(latest, now - due);
    if (++fired < rounds) start();
  }
  event_loop& loop;
  int64_t gap_ns;
  int rounds;
  timer t{this};
  int64_t due = 0;
  int fired = 0;
  bool early = false;
  int64_t latest = 0;
};

// A precise timer a fifth of a millisecond ahead fires a fifth of a
// millisecond later, not at the coarse clock's next tick (4 ms at 250 Hz)
// nor after a millisecond wait: QUIC's pacer lives on it. The loop waits
// with nothing but the timer to end the wait; a wake from another thread
// after three seconds bounds the test if the timer is lost.
TEST(EventLoop, APreciseTimerFiresAtItsMicrosecondNotAtTheCoarseClocksTick) {
  event_loop loop;
  std::atomic<bool> done{false};
  std::thread backstop([&] {
    for (int i = 0; i < 300 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    loop.wake();
  });
  constexpr int rounds = 20;
  pacing_timer pacer(loop, 200'000, rounds);
  pacer.start();
  EXPECT_EQ(loop.next_timeout_ms(), 1) << "a driving loop gets it rounded up to milliseconds";
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10 * rounds && pacer.fired < rounds; ++i) loop.run_once(-1);
  auto each = (std::chrono::steady_clock::now() - start) / rounds;
  done = true;
  backstop.join();
  EXPECT_EQ(pacer.fired, rounds);
  EXPECT_FALSE(pacer.early) << "a precise timer fired before its deadline";
  EXPECT_GE(each, std::chrono::microseconds(200));
  // On the coarse clock each round would take a tick; after a millisecond
  // wait, at least a millisecond.
  EXPECT_LT(each, std::chrono::microseconds(950)) << "the timer waited for a millisecond or a tick";
  EXPECT_EQ(loop.armed_timers(), 0u);
}

TEST(EventLoop, APreciseTimerDoesNotFireBeforeItsDeadline) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer t(&h);
  loop.arm_precise(t, precise_now_ns() + 30'000'000);
  loop.run_once(0);
  EXPECT_TRUE(fired.empty());
  EXPECT_TRUE(t.armed());
  int next = loop.next_timeout_ms();
  EXPECT_GT(next, 20);
  EXPECT_LE(next, 30);
  loop.arm_precise(t, precise_now_ns() - 1);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  EXPECT_FALSE(t.armed());
}

// One timer, moved between the two clocks, is one entry: it fires once,
// at the deadline it was armed with last, and a disarm takes it from
// whichever clock holds it.
// As on one clock: a handler on the coarse clock that arms a precise timer
// for a time already due has it fire on the next pass, not this one.
TEST(EventLoop, APreciseTimerArmedByACoarseTimerForNowFiresInALaterPass) {
  expect_a_timer_armed_for_now_fires_in_a_later_pass(
      [](event_loop& loop, timer& t) { loop.arm_precise(t, precise_now_ns() - 1); });
}

TEST(EventLoop, ATimerMovedBetweenClocksIsOneTimer) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer t(&h);
  loop.arm(t, loop.now_ms() + 60'000);
  loop.arm_precise(t, precise_now_ns() - 1);
  EXPECT_EQ(loop.armed_timers(), 1u);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  EXPECT_EQ(loop.armed_timers(), 0u);

  loop.arm_precise(t, precise_now_ns() - 1);
  loop.arm(t, loop.now_ms() + 60'000);
  EXPECT_EQ(loop.armed_timers(), 1u);
  loop.run_once(0);
  EXPECT_EQ(fired.size(), 1u) << "the timer fired at the deadline it was moved from";

  loop.arm_precise(t, precise_now_ns() - 1);
  loop.disarm(t);
  EXPECT_EQ(loop.armed_timers(), 0u);
  loop.run_once(0);
  EXPECT_EQ(fired.size(), 1u);
}

TEST(EventLoop, DueTimersOnBothClocksFireInOnePass) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer coarse_handler(fired, 1), precise_handler(fired, 2), later_handler(fired, 3);
  timer coarse(&coarse_handler), precise(&precise_handler), later(&later_handler);
  loop.arm(coarse, loop.now_ms() - 1);
  loop.arm_precise(precise, precise_now_ns() - 1);
  loop.arm_precise(later, precise_now_ns() + 60'000'000'000);
  loop.run_once(0);
  std::sort(fired.begin(), fired.end());
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
  EXPECT_EQ(loop.armed_timers(), 1u);
  loop.disarm(later);
}

struct hook_log {
  std::vector<std::string> entries;
};

struct logging_io final : baton::loop::io_handler {
  explicit logging_io(hook_log& log) : log(log) {}
  void on_io(uint32_t) override { log.entries.push_back("wake"); }
  hook_log& log;
};

baton::loop::wait_hooks logging_hooks(hook_log& log) {
  baton::loop::wait_hooks hooks;
  hooks.before_wait = [](void* c) { static_cast<hook_log*>(c)->entries.push_back("before"); };
  hooks.after_wait = [](void* c) { static_cast<hook_log*>(c)->entries.push_back("after"); };
  hooks.context = &log;
  return hooks;
}

TEST(EventLoop, WaitHooksSurroundABlockingWait) {
  event_loop loop;
  hook_log log;
  logging_io wake_handler(log);
  loop.set_wake_handler(&wake_handler);
  loop.set_wait_hooks(logging_hooks(log));

  std::thread waker([&] { loop.wake(); });
  loop.run_once(bounded_wait_ms);
  waker.join();
  EXPECT_EQ(log.entries, (std::vector<std::string>{"before", "after", "wake"}));
}

TEST(EventLoop, WaitHooksSurroundAWaitForATimer) {
  event_loop loop;
  hook_log log;
  struct logging_timer final : baton::loop::timer_handler {
    void on_timer() override { log->entries.push_back("timer"); }
    hook_log* log = nullptr;
  } handler;
  handler.log = &log;
  timer t(&handler);
  loop.set_wait_hooks(logging_hooks(log));
  loop.arm(t, loop.now_ms() + 5);
  run_until(loop, [&] { return !log.entries.empty() && log.entries.back() == "timer"; });
  ASSERT_GE(log.entries.size(), 3u);
  EXPECT_EQ(log.entries.back(), "timer");
  for (size_t i = 0; i + 1 < log.entries.size(); i += 2) {
    EXPECT_EQ(log.entries[i], "before");
    EXPECT_EQ(log.entries[i + 1], "after");
  }
}

TEST(EventLoop, WaitHooksAreNotCalledWhenTheTimeoutIsZero) {
  event_loop loop;
  hook_log log;
  loop.set_wait_hooks(logging_hooks(log));
  loop.run_once(0);
  EXPECT_TRUE(log.entries.empty());

  // A timer already due also makes the wait non-blocking.
  std::vector<int> fired;
  recording_timer h(fired, 1);
  timer due(&h);
  loop.arm(due, loop.now_ms() - 1);
  loop.run_once(-1);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  EXPECT_TRUE(log.entries.empty());
}

TEST(EventLoop, StopEndsRun) {
  event_loop loop;
  struct stopper final : baton::loop::timer_handler {
    void on_timer() override { loop->stop(); }
    event_loop* loop = nullptr;
  } stop_handler;
  timer stop_timer(&stop_handler);
  stop_handler.loop = &loop;
  loop.arm(stop_timer, loop.now_ms() + 1);
  EXPECT_FALSE(loop.stopped());
  loop.run();
  EXPECT_TRUE(loop.stopped());
}

}  // namespace
