// The event loop: epoll readiness, timers (timer_heap.h), an inbox other
// threads post notices to, and an eventfd that wakes the loop only when it
// is parked.
//
// One thread runs a loop; every method must be called on it except post(),
// wake() and request_wake(), which any thread (and wake(), a signal handler)
// may call. The kernel's readiness interface is the backend's, in a file of
// its own (epoll.cc: registration, the wait and its dispatch), behind the
// few private functions below; a kqueue sibling can replace it for macOS
// without touching the loop's users, who see only the loop's own event bits.
//
// Another event loop can drive this one (the inverted ASGI shape): watch
// backend_fd() for readability, call run_once(0) when it is readable or when
// next_timeout_ms() has elapsed, and ask next_timeout_ms() again after each
// pass (libuv's uv_backend_fd / uv_backend_timeout / UV_RUN_NOWAIT).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/handoff/notice_queue.h"
#include "core/loop/timer_heap.h"

namespace baton::loop {

// Receives readiness for one file descriptor. `events` is a mask of the
// loop's bits (event_loop::readable, writable, error, hangup).
class io_handler {
 public:
  virtual void on_io(uint32_t events) = 0;

 protected:
  ~io_handler() = default;
};

// Receives what other threads posted, oldest first, on the loop thread.
class inbox_handler {
 public:
  virtual void on_notices(handoff::notice_link* list) = 0;

 protected:
  ~inbox_handler() = default;
};

// Called around the blocking wait, so a caller that holds a lock (the GIL,
// in the inline shape) can release it while the loop sleeps.
struct wait_hooks {
  void (*before_wait)(void* context) = nullptr;
  void (*after_wait)(void* context) = nullptr;
  void* context = nullptr;
};

class event_loop {
 public:
  event_loop();
  ~event_loop();
  event_loop(const event_loop&) = delete;
  event_loop& operator=(const event_loop&) = delete;

  // The loop's event bits: what add() and modify() take and on_io() gets.
  static constexpr uint32_t readable = 0x001;
  static constexpr uint32_t writable = 0x004;
  static constexpr uint32_t error = 0x008;   // reported whatever was asked for
  static constexpr uint32_t hangup = 0x010;  // both directions shut; reported whatever was asked for
  // With add() only: of the loops watching one descriptor (a listening
  // socket shared by several loop threads), one is woken per event, not all.
  static constexpr uint32_t exclusive = 1u << 28;

  // Throws std::system_error when the kernel refuses (ENOMEM, a bad fd).
  void add(int fd, uint32_t events, io_handler* handler);
  void modify(int fd, uint32_t events, io_handler* handler);
  void remove(int fd);

  // Monotonic milliseconds, read once per pass (and by refresh_clock()).
  // The coarse clock's: it moves at the kernel's tick (4 ms at 250 Hz) and
  // when an idle CPU wakes, not between.
  int64_t now_ms() const { return now_ms_; }
  // Re-reads the clock: for callers that ran for long inside a pass.
  void refresh_clock() { update_clock(); }
  // Arms (or re-arms) `t` to fire at `deadline_ms`, on the clock now_ms()
  // reads. The timer's handler runs on a pass at or after the deadline; the
  // timer is disarmed before it runs.
  void arm(timer& t, int64_t deadline_ms);
  // The same for a deadline that cannot wait for the coarse clock's tick:
  // `deadline_ns` on CLOCK_MONOTONIC read precisely (QUIC's pacing and loss
  // timers, microseconds to a few milliseconds ahead). The wait ends at it
  // to the microsecond (epoll_pwait2) and the clock is read precisely to see
  // it due, both only while such a timer is armed.
  void arm_precise(timer& t, int64_t deadline_ns);
  void disarm(timer& t);
  size_t armed_timers() const { return coarse_timers_.size() + precise_timers_.size(); }

  // Any thread: queues `node` for the inbox handler and wakes the loop if it
  // is parked in its wait. The Dekker pair (the loop stores parked, then
  // reads the inbox; a poster pushes, then reads parked; both sequentially
  // consistent) guarantees one of the two sees the other: no wake is lost,
  // and a loop that is running costs the poster no syscall.
  void post(handoff::notice_link* node);
  void set_inbox_handler(inbox_handler* handler) { inbox_handler_ = handler; }
  // How many times post() had to write the eventfd (tests and probes).
  uint64_t wake_writes() const { return wake_writes_.load(std::memory_order_relaxed); }
  // Any thread: whether the loop has marked itself parked for its wait (tests).
  bool parked() const { return parked_.load(std::memory_order_seq_cst); }
  // While other threads are expected to post soon (pool jobs in flight), a
  // pass that would block first polls the inbox for a while (at most
  // `microseconds`): a completion that arrives within it costs no eventfd
  // write, no wake and no context switch on either side. The while adapts:
  // it halves each time it ends empty-handed (the CPU spent spinning is then
  // taken from the threads being waited for) and doubles when it pays off.
  // 0 turns it off.
  void set_park_spin(int microseconds) { park_spin_max_us_ = microseconds; }
  // The longest the next pass may block, in nanoseconds (-1: no limit beyond
  // the timers'): for a look that must come sooner than a millisecond timer
  // could bring it (the pool's queue, watched for a thread that stalled).
  // Set before each pass; a driving loop gets it rounded up to milliseconds.
  void set_park_limit_ns(int64_t nanoseconds) { park_limit_ns_ = nanoseconds; }
  // Driven mode (another loop runs our passes on this same thread, so there
  // is never a parked wait to wake): post() calls `hook` instead of writing
  // the eventfd, once until the next pass, so the driver can schedule one.
  void set_post_hook(void (*hook)(void*), void* context) {
    post_hook_ = hook;
    post_hook_context_ = context;
  }
  // Tests only: called when a pass has decided to block, just before it
  // marks itself parked, so a test can post from inside the race window.
  void set_before_park_hook(void (*hook)(void*), void* context) {
    before_park_ = hook;
    before_park_context_ = context;
  }

  // Thread-safe and async-signal-safe: makes the current or next wait
  // return and runs the wake handler on that pass.
  void wake();
  int wake_fd() const { return wake_fd_; }
  void set_wake_handler(io_handler* handler) { wake_handler_ = handler; }
  void set_wait_hooks(wait_hooks hooks) { hooks_ = hooks; }

  // One pass: wait up to `max_wait_ms` (-1: until an event or the next
  // timer; 0: never blocks), dispatch ready events and the inbox, then due
  // timers.
  void run_once(int max_wait_ms);
  // A pass that leaves the sockets alone: the inbox and due timers only.
  // For another loop driving this one, which reads the sockets when the
  // backend fd says so and wants what its callbacks posted sent between.
  void run_inbox_and_timers();
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  void run() {
    while (!stopped_) run_once(-1);
  }

  // For another loop driving this one: the fd that is readable when a pass
  // has work, and how long that loop may wait before the next pass (0: at
  // once, -1: only when the fd is readable).
  int backend_fd() const { return epoll_fd_; }
  int next_timeout_ms() const;

 private:
  void update_clock();
  // The backend (epoll.cc): opening and closing the kernel's interface; one
  // wait of at most `timeout_ms`, or `timeout_ns` when that is not -1 (the
  // number of ready descriptors, or -1 with errno set); then the ready
  // handlers called in turn, the inbox taken between them (true when the
  // wake fd was among them).
  struct backend_state;
  void backend_open();
  void backend_close();
  int backend_wait(int timeout_ms, int64_t timeout_ns);
  bool backend_dispatch(int ready);
  void run_due_timers();
  void drain_inbox();
  bool inbox_pending() const { return !inbox_.empty(); }
  bool spin_for_inbox();
  bool poll_inbox(int microseconds) const;
  // How long until the earliest precise timer, in nanoseconds (-1: none);
  // the sooner of that and the park limit; and the millisecond timeout
  // for a wait that must end by `fine_ns` (-1: no such bound).
  int64_t precise_wait_ns() const;
  int64_t fine_wait_ns() const;
  int next_timeout_ms(int64_t fine_ns) const;

  int epoll_fd_ = -1;  // the backend's descriptor (backend_fd())
  int wake_fd_ = -1;
  std::unique_ptr<backend_state> backend_;
  bool stopped_ = false;
  int64_t now_ms_ = 0;
  io_handler* wake_handler_ = nullptr;
  inbox_handler* inbox_handler_ = nullptr;
  wait_hooks hooks_;
  timer_heap coarse_timers_;   // due in now_ms()'s milliseconds
  timer_heap precise_timers_;  // due in the precise clock's nanoseconds
  handoff::notice_queue inbox_;
  std::atomic<bool> parked_{false};
  std::atomic<uint64_t> wake_writes_{0};
  void (*post_hook_)(void*) = nullptr;
  void* post_hook_context_ = nullptr;
  bool post_hook_called_ = false;
  int park_spin_max_us_ = 0;
  int park_spin_us_ = 0;      // the current budget, within [0, max]
  int park_spin_rest_ = 0;    // parks left before a budget of 0 is tried again
  int64_t park_limit_ns_ = -1;
  void (*before_park_)(void*) = nullptr;
  void* before_park_context_ = nullptr;
};

}  // namespace baton::loop
