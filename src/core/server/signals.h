// SIGTERM / SIGINT / SIGQUIT (and SIGHUP, SIGUSR1 when asked) turned into
// loop wakes, and a watchdog that ends the process when a stop cannot
// finish.
//
// The handlers only bump counters and write to eventfds, which is
// async-signal-safe. The loop does the real work on its next pass. The
// watchdog is the backstop for when the loop cannot get there: an app that
// hangs on the loop thread (inline) or on a pool thread the stop must join.
#pragma once

#include <atomic>
#include <thread>

namespace baton::server {

class stop_watchdog;

class loop_signals {
 public:
  // Registers a loop: a stop signal sets `stopping` at once (so a response
  // being built on any thread already says Connection: close) and wakes the
  // loop through `wake_fd`. Several loops may be registered at once (the
  // --threads shape: one per thread); every signal reaches each of them.
  // `retire_signal` (SIGHUP for a process serving alone, which reloads
  // after it; SIGUSR2 for a worker whose master starts its replacement; 0
  // for none) is a graceful stop that closes the listeners at once; other
  // signals keep whatever disposition they had. SIGUSR1 asks for log files
  // to be reopened.
  //
  // With `install` true the handlers are installed (once for the process,
  // while any registration that asked for them lives) and the signals
  // unblocked in the calling thread. With it false none is installed: the
  // embedding program owns the signals (asyncio, in the ASGI shapes; the
  // main thread, with --threads) and passes each on with deliver(), so one
  // policy (server::on_io) serves every shape.
  loop_signals(int wake_fd, std::atomic<bool>* stopping, int retire_signal = 0, bool install = true);
  ~loop_signals();  // unregisters; the last installer restores the previous handlers
  loop_signals(const loop_signals&) = delete;
  loop_signals& operator=(const loop_signals&) = delete;

  // Signals received since the last call, by kind.
  struct counts {
    int terminate = 0;  // SIGTERM: graceful
    int interrupt = 0;  // SIGINT: graceful, a second one immediate
    int quit = 0;       // SIGQUIT: immediate
    int hangup = 0;     // the retire signal: graceful, listeners closed at once
    int reopen = 0;     // SIGUSR1: reopen log files
  };
  counts take();
  // Any thread (and async-signal-safe): counts `signo` for every registered
  // loop as the handlers would, and wakes each.
  static void deliver(int signo);
  // The watchdog that ends the process when this loop's stop cannot finish
  // sees the signals this loop sees.
  void watch_with(stop_watchdog& watchdog);

  struct registration;

 private:
  registration* slot_;
  bool installed_;
};

// Runs beside the loop while the server runs. Once a stop is asked for (a
// signal, or stop_requested()), it allows the graceful budget plus a margin;
// a second SIGINT allows a short grace. Past either, it logs and ends the
// process with _exit(0): a hung view must not keep a stopped server alive.
// Destroying it (the server finished normally) ends the thread.
class stop_watchdog {
 public:
  stop_watchdog(int graceful_ms, int margin_ms);
  ~stop_watchdog();
  stop_watchdog(const stop_watchdog&) = delete;
  stop_watchdog& operator=(const stop_watchdog&) = delete;
  // A stop requested without a signal (the embedding program's own
  // handler): starts the budget as a signal would. Thread-safe.
  void stop_requested(bool immediate);

 private:
  friend class loop_signals;
  void watch();
  int fd_ = -1;
  int graceful_ms_;
  int margin_ms_;
  std::atomic<bool> done_{false};
  std::atomic<int> requested_{0};  // 1 graceful, 2 immediate
  std::atomic<const loop_signals::registration*> signals_{nullptr};  // the stops its loop has seen
  std::thread thread_;
};

}  // namespace baton::server
