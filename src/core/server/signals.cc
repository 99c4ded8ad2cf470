#include "core/server/signals.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>
#include <mutex>
#include <stdexcept>

#include "core/util/log.h"

namespace baton::server {
// One registered loop: what the handlers count and whom they wake. The
// slots are static and reused only once free, so a handler running while a
// loop unregisters never touches freed memory.
struct loop_signals::registration {
  std::atomic<bool> in_use{false};
  std::atomic<int> wake_fd{-1};
  std::atomic<std::atomic<bool>*> stopping{nullptr};
  std::atomic<int> watchdog_fd{-1};
  std::atomic<int> retire_signo{0};
  std::atomic<int> terminate{0};
  std::atomic<int> interrupt{0};
  std::atomic<int> quit{0};
  std::atomic<int> hangup{0};
  std::atomic<int> reopen{0};
  // Since registration, never reset: what the watchdog reads.
  std::atomic<int> stops_seen{0};
  std::atomic<int> interrupts_seen{0};
};

namespace {

constexpr int max_registrations = 256;  // loops of one process (threads); more is a configuration error
loop_signals::registration registrations[max_registrations];
std::mutex registry_lock;  // claiming slots and installing handlers; never taken by a handler
int installers = 0;
int installed_retire = 0;
struct sigaction previous_term, previous_int, previous_quit, previous_retire, previous_usr1;

void write_one(int fd) {
  if (fd < 0) return;
  uint64_t one = 1;
  ssize_t ignored = ::write(fd, &one, sizeof one);
  (void)ignored;
}

void count(loop_signals::registration& r, int signo) {
  if (signo == SIGUSR1) {
    r.reopen.fetch_add(1);
    write_one(r.wake_fd.load());
    return;
  }
  if (signo == SIGINT) {
    r.interrupt.fetch_add(1);
    r.interrupts_seen.fetch_add(1);
  } else if (signo == SIGQUIT) {
    r.quit.fetch_add(1);
    r.interrupts_seen.fetch_add(2);  // the watchdog allows it only the short grace
  } else if (signo == r.retire_signo.load()) {
    r.hangup.fetch_add(1);
  } else {
    r.terminate.fetch_add(1);
  }
  r.stops_seen.fetch_add(1);
  std::atomic<bool>* stopping = r.stopping.load();
  if (stopping != nullptr) stopping->store(true);
  write_one(r.wake_fd.load());
  write_one(r.watchdog_fd.load());
}

void on_signal(int signo) {
  int saved = errno;
  for (loop_signals::registration& r : registrations) {
    if (r.in_use.load()) count(r, signo);
  }
  errno = saved;
}

int64_t monotonic_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void install_handlers(int retire_signal) {
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, &previous_term);
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGQUIT, &sa, &previous_quit);
  sigaction(SIGUSR1, &sa, &previous_usr1);
  if (retire_signal != 0) sigaction(retire_signal, &sa, &previous_retire);
  installed_retire = retire_signal;
}

void restore_handlers() {
  sigaction(SIGTERM, &previous_term, nullptr);
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGQUIT, &previous_quit, nullptr);
  sigaction(SIGUSR1, &previous_usr1, nullptr);
  if (installed_retire != 0) sigaction(installed_retire, &previous_retire, nullptr);
  installed_retire = 0;
}

}  // namespace

void loop_signals::deliver(int signo) { on_signal(signo); }

loop_signals::loop_signals(int fd, std::atomic<bool>* stopping, int retire_signal, bool install)
    : slot_(nullptr), installed_(install) {
  std::lock_guard<std::mutex> hold(registry_lock);
  for (registration& r : registrations) {
    if (r.in_use.load()) continue;
    for (std::atomic<int>* c : {&r.terminate, &r.interrupt, &r.quit, &r.hangup, &r.reopen, &r.stops_seen,
                                &r.interrupts_seen}) {
      c->store(0);
    }
    r.wake_fd.store(fd);
    r.stopping.store(stopping);
    r.watchdog_fd.store(-1);
    r.retire_signo.store(retire_signal);
    r.in_use.store(true);
    slot_ = &r;
    break;
  }
  if (slot_ == nullptr) throw std::runtime_error("too many event loops in one process for its signal handlers");
  if (!install) return;
  if (installers++ == 0) install_handlers(retire_signal);
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
  std::lock_guard<std::mutex> hold(registry_lock);
  if (installed_ && --installers == 0) restore_handlers();
  slot_->wake_fd.store(-1);
  slot_->watchdog_fd.store(-1);
  slot_->stopping.store(nullptr);
  slot_->in_use.store(false);
}

loop_signals::counts loop_signals::take() {
  registration& r = *slot_;
  return {r.terminate.exchange(0), r.interrupt.exchange(0), r.quit.exchange(0), r.hangup.exchange(0),
          r.reopen.exchange(0)};
}

void loop_signals::watch_with(stop_watchdog& watchdog) {
  watchdog.signals_.store(slot_);
  slot_->watchdog_fd.store(watchdog.fd_);
}

stop_watchdog::stop_watchdog(int graceful_ms, int margin_ms) : graceful_ms_(graceful_ms), margin_ms_(margin_ms) {
  fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  thread_ = std::thread([this] { watch(); });
}

stop_watchdog::~stop_watchdog() {
  done_.store(true);
  write_one(fd_);
  if (thread_.joinable()) thread_.join();
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
    const loop_signals::registration* seen = signals_.load();
    int stops_seen = seen != nullptr ? seen->stops_seen.load() : 0;
    int interrupts_seen = seen != nullptr ? seen->interrupts_seen.load() : 0;
    bool stop = stops_seen > 0 || requested_.load() > 0;
    bool second_interrupt =
        interrupts_seen >= 2 || (interrupts_seen >= 1 && stops_seen >= 2) || requested_.load() == 2;
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
