// The event loop's Linux backend: epoll for readiness, an eventfd for wakes.
// The only file of the project that includes <sys/epoll.h>; the loop's own
// event bits are epoll's values, so no translation is paid on the hot path
// (the static_asserts keep it so). A kqueue sibling would implement the
// same functions.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <system_error>

#include "core/loop/event_loop.h"
#include "core/util/direct_syscalls.h"

namespace baton::loop {

static_assert(event_loop::readable == EPOLLIN && event_loop::writable == EPOLLOUT && event_loop::error == EPOLLERR &&
              event_loop::hangup == EPOLLHUP && event_loop::exclusive == EPOLLEXCLUSIVE);

struct event_loop::backend_state {
  static constexpr int capacity = 256;
  epoll_event events[capacity];
};

// Here rather than beside the rest of the loop: they own the backend's state,
// whose type only this file knows.
event_loop::event_loop() {
  backend_open();
  update_clock();
}

event_loop::~event_loop() { backend_close(); }

void event_loop::backend_open() {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    int saved = errno;
    ::close(epoll_fd_);
    throw std::system_error(saved, std::generic_category(), "eventfd");
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;  // null marks the wake fd
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  backend_ = std::make_unique<backend_state>();
}

void event_loop::backend_close() {
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

int event_loop::backend_wait(int timeout_ms, int64_t timeout_ns) {
  if (timeout_ns >= 0) {
    // epoll_pwait2 (Linux 5.11) takes a timespec; a kernel without it gets
    // the millisecond wait, which next_timeout_ms() rounded up.
    timespec ts{static_cast<time_t>(timeout_ns / 1'000'000'000), static_cast<long>(timeout_ns % 1'000'000'000)};
    int n = static_cast<int>(::syscall(SYS_epoll_pwait2, epoll_fd_, backend_->events, backend_state::capacity, &ts,
                                       nullptr, static_cast<size_t>(_NSIG / 8)));
    if (n >= 0 || errno != ENOSYS) return n;
  }
#ifdef BATON_LIBC_SYSCALLS
  return epoll_wait(epoll_fd_, backend_->events, backend_state::capacity, timeout_ms);
#else
  // epoll_pwait with no signal mask is epoll_wait, on every architecture
  // (some have no epoll_wait of their own); see util/direct_syscalls.h.
  return static_cast<int>(::syscall(SYS_epoll_pwait, epoll_fd_, backend_->events, backend_state::capacity, timeout_ms,
                                    nullptr, static_cast<size_t>(_NSIG / 8)));
#endif
}

bool event_loop::backend_dispatch(int ready) {
  bool woken = false;
  for (int i = 0; i < ready; ++i) {
    auto* handler = static_cast<io_handler*>(backend_->events[i].data.ptr);
    if (handler == nullptr) {
      uint64_t count;
      ssize_t ignored = ::read(wake_fd_, &count, sizeof count);
      (void)ignored;
      woken = true;
      continue;
    }
    handler->on_io(backend_->events[i].events);
    // Completions from other threads are taken between events, not only
    // once per pass: a pool thread waiting for its next job should not wait
    // for a whole pass of socket work.
    if (inbox_pending()) drain_inbox();
  }
  return woken;
}

}  // namespace baton::loop
