#include "core/loop/event_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <stdexcept>
#include <system_error>

namespace baton::loop {

event_loop::event_loop() {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;  // null marks the wake fd
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  update_clock();
}

event_loop::~event_loop() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

void event_loop::add(int fd, uint32_t events, io_handler* handler) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) < 0) {
    throw std::system_error(errno, std::generic_category(), "epoll_ctl add");
  }
}

void event_loop::modify(int fd, uint32_t events, io_handler* handler) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &ev);
}

void event_loop::remove(int fd) { epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr); }

timer_id event_loop::add_timer(int64_t deadline_ms, timer_handler* handler) {
  timer_id id = next_timer_id_++;
  timers_.push({deadline_ms, id});
  live_timers_.emplace(id, handler);
  return id;
}

void event_loop::cancel_timer(timer_id id) { live_timers_.erase(id); }

void event_loop::wake() {
  uint64_t one = 1;
  ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  (void)ignored;
}

void event_loop::update_clock() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  now_ms_ = static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void event_loop::run_due_timers() {
  while (!timers_.empty() && timers_.top().deadline <= now_ms_) {
    timer_id id = timers_.top().id;
    timers_.pop();
    auto it = live_timers_.find(id);
    if (it == live_timers_.end()) continue;  // cancelled
    timer_handler* handler = it->second;
    live_timers_.erase(it);
    handler->on_timer();
  }
  // Cancelled entries at the top would otherwise shorten every wait.
  while (!timers_.empty() && live_timers_.find(timers_.top().id) == live_timers_.end()) timers_.pop();
}

void event_loop::run_once(int max_wait_ms) {
  int timeout = max_wait_ms;
  if (!timers_.empty()) {
    int64_t until = timers_.top().deadline - now_ms_;
    if (until < 0) until = 0;
    if (timeout < 0 || until < timeout) timeout = static_cast<int>(until);
  }
  epoll_event events[256];
  int n;
  if (hooks_.before_wait != nullptr && timeout != 0) {
    hooks_.before_wait(hooks_.context);
    n = epoll_wait(epoll_fd_, events, 256, timeout);
    int saved = errno;
    if (hooks_.after_wait != nullptr) hooks_.after_wait(hooks_.context);
    errno = saved;
  } else {
    n = epoll_wait(epoll_fd_, events, 256, timeout);
  }
  update_clock();
  if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "epoll_wait");
  bool woken = false;
  for (int i = 0; i < n; ++i) {
    auto* handler = static_cast<io_handler*>(events[i].data.ptr);
    if (handler == nullptr) {
      uint64_t count;
      ssize_t ignored = ::read(wake_fd_, &count, sizeof count);
      (void)ignored;
      woken = true;
      continue;
    }
    handler->on_io(events[i].events);
  }
  if (woken && wake_handler_ != nullptr) wake_handler_->on_io(EPOLLIN);
  run_due_timers();
}

}  // namespace baton::loop
