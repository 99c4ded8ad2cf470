#include "core/loop/event_loop.h"

#include <algorithm>

#include "core/handoff/parker.h"

#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <system_error>

namespace baton::loop {

// --- timers ---

namespace {

int64_t precise_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

void event_loop::arm(timer& t, int64_t deadline_ms) {
  if (t.heap == &precise_timers_) precise_timers_.remove(t);
  coarse_timers_.arm(t, deadline_ms);
}

void event_loop::arm_precise(timer& t, int64_t deadline_ns) {
  if (t.heap == &coarse_timers_) coarse_timers_.remove(t);
  precise_timers_.arm(t, deadline_ns);
}

void event_loop::disarm(timer& t) {
  if (t.heap != nullptr) t.heap->remove(t);
}

void event_loop::run_due_timers() {
  // A timer armed by a handler for a time already due fires on the next
  // pass, not this one, so a handler that keeps re-arming cannot starve I/O
  // (on either clock: both budgets are counted before either runs).
  size_t budget = coarse_timers_.size();
  size_t precise_budget = precise_timers_.size();
  while (budget-- > 0 && !coarse_timers_.empty() && coarse_timers_.front()->due <= now_ms_) {
    timer* t = coarse_timers_.pop();
    t->handler->on_timer();
  }
  if (precise_budget == 0 || precise_timers_.empty()) return;
  const int64_t now_ns = precise_now_ns();
  while (precise_budget-- > 0 && !precise_timers_.empty() && precise_timers_.front()->due <= now_ns) {
    timer* t = precise_timers_.pop();
    t->handler->on_timer();
  }
}

int64_t event_loop::precise_wait_ns() const {
  if (precise_timers_.empty()) return -1;
  return std::max<int64_t>(precise_timers_.front()->due - precise_now_ns(), 0);
}

// --- waking ---

void event_loop::post(handoff::notice_link* node) {
  inbox_.push(node);
  if (post_hook_ != nullptr) {
    if (!post_hook_called_) {
      post_hook_called_ = true;
      post_hook_(post_hook_context_);
    }
    return;
  }
  if (parked_.load(std::memory_order_seq_cst) && parked_.exchange(false, std::memory_order_acq_rel)) {
    wake_writes_.fetch_add(1, std::memory_order_relaxed);
    uint64_t one = 1;
    ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
    (void)ignored;
  }
}

void event_loop::wake() {
  uint64_t one = 1;
  ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  (void)ignored;
}

void event_loop::drain_inbox() {
  handoff::notice_link* list = inbox_.take_all();
  if (list != nullptr && inbox_handler_ != nullptr) inbox_handler_->on_notices(list);
}

bool event_loop::spin_for_inbox() {
  if (park_spin_us_ == 0) {
    if (park_spin_rest_ > 0) {
      --park_spin_rest_;
      return false;
    }
    park_spin_us_ = 1;
  }
  if (park_spin_us_ > park_spin_max_us_) park_spin_us_ = park_spin_max_us_;
  bool found = poll_inbox(park_spin_us_);
  if (found) {
    park_spin_us_ = park_spin_us_ * 2 < park_spin_max_us_ ? park_spin_us_ * 2 : park_spin_max_us_;
  } else {
    park_spin_us_ /= 2;
    if (park_spin_us_ == 0) park_spin_rest_ = 64;
  }
  return found;
}

bool event_loop::poll_inbox(int microseconds) const {
  timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int64_t limit_ns = static_cast<int64_t>(microseconds) * 1000;
  while (true) {
    for (int i = 0; i < 32; ++i) {
      if (inbox_pending()) return true;
      handoff::cpu_relax();
    }
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t spent = (now.tv_sec - start.tv_sec) * 1000000000 + (now.tv_nsec - start.tv_nsec);
    if (spent >= limit_ns) return inbox_pending();
  }
}

void event_loop::update_clock() {
  // The coarse clock is a read of what the kernel last stored (no counter
  // read at all): plenty for deadlines kept in milliseconds and meant in
  // seconds, and cheap enough to re-read after every inline app call.
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  now_ms_ = static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

int64_t event_loop::fine_wait_ns() const {
  int64_t fine = precise_wait_ns();
  if (park_limit_ns_ >= 0 && (fine < 0 || park_limit_ns_ < fine)) fine = park_limit_ns_;
  return fine;
}

int event_loop::next_timeout_ms() const { return next_timeout_ms(fine_wait_ns()); }

int event_loop::next_timeout_ms(int64_t fine_ns) const {
  if (inbox_pending()) return 0;
  // -1: nothing to wait for; a timer already due waits 0.
  int64_t until = -1;
  if (!coarse_timers_.empty()) until = std::max<int64_t>(coarse_timers_.front()->due - now_ms_, 0);
  if (fine_ns >= 0) {
    int64_t fine_ms = (fine_ns + 999'999) / 1'000'000;
    if (until < 0 || fine_ms < until) until = fine_ms;
  }
  if (until < 0) return -1;
  if (until == 0) return 0;
  return until > INT32_MAX ? INT32_MAX : static_cast<int>(until);
}

void event_loop::run_inbox_and_timers() {
  post_hook_called_ = false;
  update_clock();
  drain_inbox();
  run_due_timers();
}

void event_loop::run_once(int max_wait_ms) {
  post_hook_called_ = false;
  int timeout = max_wait_ms;
  // The park limit or the earliest precise timer, read once for the pass;
  // the wait ends within the millisecond next_timeout_ms() rounded it up to.
  int64_t precise_ns = -1;
  if (timeout != 0) {
    const int64_t fine = fine_wait_ns();
    int until = next_timeout_ms(fine);
    if (until >= 0 && (timeout < 0 || until < timeout)) timeout = until;
    if (timeout != 0 && fine >= 0 && static_cast<int64_t>(timeout) * 1'000'000 >= fine) precise_ns = fine;
  }
  if (timeout != 0 && park_spin_max_us_ > 0 && spin_for_inbox()) timeout = 0;
  if (timeout != 0) {
    if (before_park_ != nullptr) before_park_(before_park_context_);
    // Parked from here: a poster that sees this writes the eventfd. The
    // re-check below catches a post that raced ahead of the store.
    parked_.store(true, std::memory_order_seq_cst);
    if (inbox_pending()) {
      parked_.store(false, std::memory_order_relaxed);
      timeout = 0;
    }
  }
  int n;
  if (hooks_.before_wait != nullptr && timeout != 0) {
    hooks_.before_wait(hooks_.context);
    n = backend_wait(timeout, precise_ns);
    int saved = errno;
    if (hooks_.after_wait != nullptr) hooks_.after_wait(hooks_.context);
    errno = saved;
  } else {
    n = backend_wait(timeout, timeout == 0 ? -1 : precise_ns);
  }
  if (timeout != 0) parked_.store(false, std::memory_order_relaxed);
  update_clock();
  if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "waiting for events");
  bool woken = backend_dispatch(n);
  drain_inbox();
  if (woken && wake_handler_ != nullptr) wake_handler_->on_io(readable);
  run_due_timers();
}

}  // namespace baton::loop
