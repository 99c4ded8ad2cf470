#include "core/server/signals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace baton::server {
namespace {

std::atomic<int> wake_fd{-1};
std::atomic<int> terminate_count{0};
std::atomic<int> interrupt_count{0};
struct sigaction previous_term, previous_int, previous_quit;

void on_signal(int signo) {
  if (signo == SIGINT) interrupt_count.fetch_add(1);
  else terminate_count.fetch_add(1);
  int fd = wake_fd.load();
  if (fd >= 0) {
    uint64_t one = 1;
    ssize_t ignored = ::write(fd, &one, sizeof one);
    (void)ignored;
  }
}

}  // namespace

loop_signals::loop_signals(int fd) {
  wake_fd.store(fd);
  terminate_count.store(0);
  interrupt_count.store(0);
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, &previous_term);
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGQUIT, &sa, &previous_quit);
}

loop_signals::~loop_signals() {
  sigaction(SIGTERM, &previous_term, nullptr);
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGQUIT, &previous_quit, nullptr);
  wake_fd.store(-1);
}

bool loop_signals::pending() {
  return terminate_count.load(std::memory_order_relaxed) + interrupt_count.load(std::memory_order_relaxed) > 0;
}

loop_signals::counts loop_signals::take() {
  return {terminate_count.exchange(0), interrupt_count.exchange(0)};
}

}  // namespace baton::server
