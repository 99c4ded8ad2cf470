#include "core/server/signals.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>

#include "core/util/log.h"

namespace baton::server {
namespace {

std::atomic<int> wake_fd{-1};
std::atomic<std::atomic<bool>*> stopping_flag{nullptr};
std::atomic<int> watchdog_fd{-1};
std::atomic<int> terminate_count{0};
std::atomic<int> interrupt_count{0};
std::atomic<int> quit_count{0};
std::atomic<int> hangup_count{0};
std::atomic<int> reopen_count{0};
// Since the handlers were installed, never reset: what the watchdog reads.
std::atomic<int> stops_seen{0};
std::atomic<int> interrupts_seen{0};
struct sigaction previous_term, previous_int, previous_quit, previous_retire, previous_usr1;
int retire_signo = 0;

void write_one(int fd) {
  if (fd < 0) return;
  uint64_t one = 1;
  ssize_t ignored = ::write(fd, &one, sizeof one);
  (void)ignored;
}

void on_signal(int signo) {
  int saved = errno;
  if (signo == SIGUSR1) {
    reopen_count.fetch_add(1);
    write_one(wake_fd.load());
    errno = saved;
    return;
  }
  if (signo == SIGINT) {
    interrupt_count.fetch_add(1);
    interrupts_seen.fetch_add(1);
  } else if (signo == SIGQUIT) {
    quit_count.fetch_add(1);
    interrupts_seen.fetch_add(2);  // the watchdog allows it only the short grace
  } else if (signo == retire_signo) {
    hangup_count.fetch_add(1);
  } else {
    terminate_count.fetch_add(1);
  }
  stops_seen.fetch_add(1);
  std::atomic<bool>* stopping = stopping_flag.load();
  if (stopping != nullptr) stopping->store(true);
  write_one(wake_fd.load());
  write_one(watchdog_fd.load());
  errno = saved;
}

int64_t monotonic_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

}  // namespace

void loop_signals::deliver(int signo) { on_signal(signo); }

loop_signals::loop_signals(int fd, std::atomic<bool>* stopping, int retire_signal, bool install)
    : installed_(install) {
  wake_fd.store(fd);
  stopping_flag.store(stopping);
  terminate_count.store(0);
  interrupt_count.store(0);
  quit_count.store(0);
  hangup_count.store(0);
  reopen_count.store(0);
  stops_seen.store(0);
  interrupts_seen.store(0);
  retire_signo = retire_signal;
  if (!install) return;
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, &previous_term);
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGQUIT, &sa, &previous_quit);
  sigaction(SIGUSR1, &sa, &previous_usr1);
  if (retire_signal != 0) sigaction(retire_signal, &sa, &previous_retire);
  // The caller may have blocked these until now, so that one arriving
  // before the handlers existed waited instead of killing the process: it
  // is delivered here, to the handler.
  sigset_t handled;
  sigemptyset(&handled);
  for (int signo : {SIGTERM, SIGINT, SIGQUIT, SIGUSR1}) sigaddset(&handled, signo);
  if (retire_signal != 0) sigaddset(&handled, retire_signal);
  pthread_sigmask(SIG_UNBLOCK, &handled, nullptr);
}

loop_signals::~loop_signals() {
  if (installed_) {
    sigaction(SIGTERM, &previous_term, nullptr);
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGQUIT, &previous_quit, nullptr);
    sigaction(SIGUSR1, &previous_usr1, nullptr);
    if (retire_signo != 0) sigaction(retire_signo, &previous_retire, nullptr);
  }
  retire_signo = 0;
  wake_fd.store(-1);
  stopping_flag.store(nullptr);
}

bool loop_signals::pending() {
  return terminate_count.load(std::memory_order_relaxed) + interrupt_count.load(std::memory_order_relaxed) +
             quit_count.load(std::memory_order_relaxed) + hangup_count.load(std::memory_order_relaxed) >
         0;
}

loop_signals::counts loop_signals::take() {
  return {terminate_count.exchange(0), interrupt_count.exchange(0), quit_count.exchange(0), hangup_count.exchange(0),
          reopen_count.exchange(0)};
}

stop_watchdog::stop_watchdog(int graceful_ms, int margin_ms) : graceful_ms_(graceful_ms), margin_ms_(margin_ms) {
  fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  watchdog_fd.store(fd_);
  thread_ = std::thread([this] { watch(); });
}

stop_watchdog::~stop_watchdog() {
  done_.store(true);
  write_one(fd_);
  if (thread_.joinable()) thread_.join();
  watchdog_fd.store(-1);
  if (fd_ >= 0) ::close(fd_);
}

void stop_watchdog::stop_requested(bool immediate) {
  int want = immediate ? 2 : 1;
  int current = requested_.load();
  while (current < want && !requested_.compare_exchange_weak(current, want)) {
  }
  write_one(fd_);
}

void stop_watchdog::watch() {
  int64_t deadline = -1;
  bool immediate = false;
  while (!done_.load()) {
    int timeout = -1;
    if (deadline >= 0) {
      int64_t left = deadline - monotonic_ms();
      timeout = left < 0 ? 0 : static_cast<int>(left);
    }
    pollfd pfd{fd_, POLLIN, 0};
    ::poll(&pfd, 1, timeout);
    uint64_t drained;
    ssize_t ignored = ::read(fd_, &drained, sizeof drained);
    (void)ignored;
    if (done_.load()) return;
    int64_t now = monotonic_ms();
    bool stop = stops_seen.load() > 0 || requested_.load() > 0;
    bool second_interrupt = interrupts_seen.load() >= 2 || (interrupts_seen.load() >= 1 && stops_seen.load() >= 2) ||
                            requested_.load() == 2;
    if (second_interrupt && !immediate) {
      immediate = true;
      deadline = now + 500;  // the loop closes everything at once; give it that long
    } else if (stop && deadline < 0) {
      deadline = now + graceful_ms_ + margin_ms_;
    }
    if (deadline >= 0 && now >= deadline) {
      log::write(log::level::warning, "%s; exiting now",
                 immediate ? "stop forced by a second interrupt did not finish"
                           : "the graceful stop's budget ran out while a request was still inside the application");
      _exit(0);
    }
  }
}

}  // namespace baton::server
