// SIGTERM / SIGINT / SIGQUIT turned into loop wakes. The handlers only
// bump counters and write to an eventfd, which is async-signal-safe.
#pragma once

namespace baton::server {

class loop_signals {
 public:
  explicit loop_signals(int wake_fd);  // installs the handlers
  ~loop_signals();                     // restores the previous ones
  loop_signals(const loop_signals&) = delete;
  loop_signals& operator=(const loop_signals&) = delete;

  // Signals received since the last call, by kind.
  struct counts {
    int terminate = 0;  // SIGTERM, SIGQUIT
    int interrupt = 0;  // SIGINT
  };
  counts take();
  // True once a stop signal has arrived and not yet been taken. Cheap: two
  // relaxed loads, so a response being built can ask it.
  static bool pending();
};

}  // namespace baton::server
