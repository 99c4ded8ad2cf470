// Unit tests for the event loop (src/core/loop/event_loop.h). Waiting is
// always done by the loop itself (its own timers, epoll, the wake eventfd);
// the tests never sleep to synchronise.
#include "core/loop/event_loop.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace {

using baton::loop::event_loop;
using baton::loop::timer_id;

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
  for (int i = 0; i < max_passes && !done(); ++i) loop.run_once(-1);
}

TEST(EventLoop, DueTimersFireInDeadlineOrder) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer t1(fired, 1), t2(fired, 2), t3(fired, 3), t4(fired, 4);
  int64_t now = loop.now_ms();
  loop.add_timer(now - 2, &t2);
  loop.add_timer(now - 4, &t4);
  loop.add_timer(now - 1, &t1);
  loop.add_timer(now - 3, &t3);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{4, 3, 2, 1}));
}

TEST(EventLoop, FutureTimersFireInDeadlineOrder) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer a(fired, 30), b(fired, 10), c(fired, 20);
  int64_t now = loop.now_ms();
  loop.add_timer(now + 30, &a);
  loop.add_timer(now + 10, &b);
  loop.add_timer(now + 20, &c);
  run_until(loop, [&] { return fired.size() == 3; });
  EXPECT_EQ(fired, (std::vector<int>{10, 20, 30}));
  EXPECT_GE(loop.now_ms(), now + 30);
}

TEST(EventLoop, TimerDoesNotFireBeforeItsDeadline) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer later(fired, 1);
  loop.add_timer(loop.now_ms() + 60000, &later);
  loop.run_once(0);
  EXPECT_TRUE(fired.empty());
}

TEST(EventLoop, CancelledTimerDoesNotFire) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer a(fired, 1), b(fired, 2);
  int64_t now = loop.now_ms();
  loop.add_timer(now - 1, &a);
  timer_id cancelled = loop.add_timer(now - 2, &b);
  loop.cancel_timer(cancelled);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
}

TEST(EventLoop, CancelledFutureTimerDoesNotFire) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer soon(fired, 1), later(fired, 2);
  int64_t now = loop.now_ms();
  timer_id id = loop.add_timer(now + 5, &soon);
  loop.add_timer(now + 20, &later);
  loop.cancel_timer(id);
  run_until(loop, [&] { return !fired.empty(); });
  EXPECT_EQ(fired, (std::vector<int>{2}));
}

TEST(EventLoop, TimerCancelledByAnEarlierTimerInTheSamePassDoesNotFire) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer victim(fired, 2);
  struct canceller final : baton::loop::timer_handler {
    void on_timer() override {
      log->push_back(1);
      loop->cancel_timer(target);
    }
    event_loop* loop = nullptr;
    std::vector<int>* log = nullptr;
    timer_id target = 0;
  } first;
  int64_t now = loop.now_ms();
  first.loop = &loop;
  first.log = &fired;
  loop.add_timer(now - 2, &first);
  first.target = loop.add_timer(now - 1, &victim);
  loop.run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
}

TEST(EventLoop, TimerAddedByATimerFiresInALaterPass) {
  event_loop loop;
  std::vector<int> fired;
  recording_timer second(fired, 2);
  struct adder final : baton::loop::timer_handler {
    void on_timer() override {
      log->push_back(1);
      loop->add_timer(loop->now_ms() + 1, next);
    }
    event_loop* loop = nullptr;
    std::vector<int>* log = nullptr;
    recording_timer* next = nullptr;
  } first;
  first.loop = &loop;
  first.log = &fired;
  first.next = &second;
  loop.add_timer(loop.now_ms() - 1, &first);
  run_until(loop, [&] { return fired.size() == 2; });
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
}

TEST(EventLoop, WakeFromAnotherThreadReturnsRunOnceAndCallsWakeHandler) {
  event_loop loop;
  recording_io wake_handler;
  loop.set_wake_handler(&wake_handler);
  std::thread waker([&] { loop.wake(); });
  loop.run_once(-1);  // no timers and no fds: only the wake can end this wait
  waker.join();
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
  loop.run_once(-1);
  EXPECT_EQ(wake_handler.calls, 1);
  loop.run_once(0);
  EXPECT_EQ(wake_handler.calls, 1);
}

TEST(EventLoop, WakeWithoutHandlerStillEndsTheWait) {
  event_loop loop;
  std::thread waker([&] { loop.wake(); });
  loop.run_once(-1);
  waker.join();
  SUCCEED();
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
  loop.run_once(-1);
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
  loop.run_once(-1);
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
  loop.run_once(-1);
  waker.join();
  EXPECT_EQ(log.entries, (std::vector<std::string>{"before", "after", "wake"}));
}

TEST(EventLoop, WaitHooksSurroundAWaitForATimer) {
  event_loop loop;
  hook_log log;
  struct logging_timer final : baton::loop::timer_handler {
    void on_timer() override { log->entries.push_back("timer"); }
    hook_log* log = nullptr;
  } timer;
  timer.log = &log;
  loop.set_wait_hooks(logging_hooks(log));
  loop.add_timer(loop.now_ms() + 5, &timer);
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
  recording_timer due(fired, 1);
  loop.add_timer(loop.now_ms() - 1, &due);
  loop.run_once(-1);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  EXPECT_TRUE(log.entries.empty());
}

TEST(EventLoop, StopEndsRun) {
  event_loop loop;
  struct stopper final : baton::loop::timer_handler {
    void on_timer() override { loop->stop(); }
    event_loop* loop = nullptr;
  } stop_timer;
  stop_timer.loop = &loop;
  loop.add_timer(loop.now_ms() + 1, &stop_timer);
  EXPECT_FALSE(loop.stopped());
  loop.run();
  EXPECT_TRUE(loop.stopped());
}

}  // namespace
