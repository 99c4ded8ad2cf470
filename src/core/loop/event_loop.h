// The event loop: epoll readiness, a timer heap, and an eventfd so other
// threads (and signal handlers) can wake it.
//
// One thread runs a loop; every method but wake() must be called on it.
// The epoll calls sit behind this narrow class so a kqueue sibling can be
// built for macOS without touching its users.
#pragma once

#include <cstdint>
#include <queue>
#include <unordered_map>
#include <vector>

namespace baton::loop {

// Receives readiness for one file descriptor. `events` is an EPOLL* mask.
class io_handler {
 public:
  virtual void on_io(uint32_t events) = 0;

 protected:
  ~io_handler() = default;
};

class timer_handler {
 public:
  virtual void on_timer() = 0;

 protected:
  ~timer_handler() = default;
};

// Called around the blocking wait, so a caller that holds a lock (the GIL,
// in the inline shape) can release it while the loop sleeps.
struct wait_hooks {
  void (*before_wait)(void* context) = nullptr;
  void (*after_wait)(void* context) = nullptr;
  void* context = nullptr;
};

using timer_id = uint64_t;

class event_loop {
 public:
  event_loop();
  ~event_loop();
  event_loop(const event_loop&) = delete;
  event_loop& operator=(const event_loop&) = delete;

  static constexpr uint32_t readable = 0x001;  // EPOLLIN
  static constexpr uint32_t writable = 0x004;  // EPOLLOUT

  void add(int fd, uint32_t events, io_handler* handler);
  void modify(int fd, uint32_t events, io_handler* handler);
  void remove(int fd);

  // Monotonic milliseconds, read once per pass (and by refresh_clock()).
  int64_t now_ms() const { return now_ms_; }
  // Re-reads the clock: for callers that ran for long inside a pass.
  void refresh_clock() { update_clock(); }
  timer_id add_timer(int64_t deadline_ms, timer_handler* handler);
  void cancel_timer(timer_id id);

  // Thread-safe and async-signal-safe: makes the current or next wait return.
  void wake();
  int wake_fd() const { return wake_fd_; }
  // Handler run on the loop thread after a wake().
  void set_wake_handler(io_handler* handler) { wake_handler_ = handler; }
  void set_wait_hooks(wait_hooks hooks) { hooks_ = hooks; }

  // One pass: wait up to `max_wait_ms` (-1: until an event or the next
  // timer), dispatch ready events, then due timers.
  void run_once(int max_wait_ms);
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  void run() {
    while (!stopped_) run_once(-1);
  }

 private:
  void update_clock();
  void run_due_timers();

  struct timer_entry {
    int64_t deadline;
    timer_id id;
    bool operator>(const timer_entry& o) const { return deadline > o.deadline; }
  };

  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  bool stopped_ = false;
  int64_t now_ms_ = 0;
  io_handler* wake_handler_ = nullptr;
  wait_hooks hooks_;
  timer_id next_timer_id_ = 1;
  std::priority_queue<timer_entry, std::vector<timer_entry>, std::greater<>> timers_;
  std::unordered_map<timer_id, timer_handler*> live_timers_;
};

}  // namespace baton::loop
