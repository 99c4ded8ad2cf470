// The server's life once it serves: how it stops, and the watch it keeps
// until then.
//
// Stopping has three steps. begin: stop accepting, close the listeners,
// close idle connections, and make every later response say
// Connection: close. drain: passes keep running until no connection is left
// or the budget (graceful_timeout_ms) runs out. finish: close whatever
// remains (close_all). A second SIGINT, SIGQUIT or an immediate request
// skips the drain.
//
// Two kinds of drain. A stop (SIGTERM, SIGINT, request_shutdown) ends the
// service: with refuse_while_draining (a health path is set) the listeners
// stay open through it and every new request gets 503, the health path
// included, so a load balancer sees the drain instead of a hung connect. A
// retire (SIGHUP, max_requests, a request over the app timeout, a master
// that died) makes way for a replacement that shares the sockets: the
// listeners close at once, or with catch_hangup stay open for the caller to
// reload with. why_stopped() tells which, and why.
//
// The watch, every heartbeat interval: the loop's clock stamped for the
// master, requests past the app timeout given up, the master's life checked.
//
// Loop thread, except request_shutdown() and the flags the signal handlers
// raise.
#pragma once

#include <atomic>
#include <memory>

#include "core/loop/event_loop.h"
#include "core/server/listeners.h"
#include "core/server/server_config.h"
#include "core/server/session_registry.h"
#include "core/server/signals.h"
#include "core/ws/endpoint.h"

namespace baton::server {

class admission;
class listener_set;

class lifecycle final : private loop::io_handler {
 public:
  // Takes the loop's wake (the signals and requests to stop). The parts it
  // stops are only stored here; they may be made after it.
  lifecycle(const server_config& config, loop::event_loop& loop, listener_set& listeners,
            session_registry& sessions, admission& admission, ws::context& websocket);
  lifecycle(const lifecycle&) = delete;
  lifecycle& operator=(const lifecycle&) = delete;

  // Raised when any stop is asked for (a signal handler may raise it before
  // the loop hears): every later response says Connection: close.
  std::atomic<bool>& draining() { return draining_; }
  // Raised for a stop that keeps the listeners open: new requests get 503.
  const bool* refusing() const { return &refusing_; }

  // The stop watchdog (with stop_watchdog set): made with the server, so
  // request_shutdown() from another thread never races its creation.
  void make_watchdog();
  // Serving starts: the signal handlers and the watch.
  void start();
  // Before the server is taken apart: the handlers write to the watchdog's
  // descriptor, so both go, the handlers first.
  void stop_watching();

  // Any thread.
  void request_shutdown(bool immediate, bool retire);
  void reopen_logs();

  void begin_shutdown();
  void retire(stop_reason why);
  void close_all();
  bool shutting_down() const { return shutting_down_; }
  // The drain is over (every pass ends by asking, so it inlines).
  bool drained() const {
    return loop_.stopped() || (shutting_down_ && sessions_.busy() == 0 && listeners_.datagram_connections() == 0);
  }
  stop_reason why_stopped() const { return stop_reason_; }
  bool stopped_by_signal() const { return signal_count_ > 0; }

 private:
  struct drain_deadline final : loop::timer_handler {
    lifecycle* owner = nullptr;
    void on_timer() override;
  };
  // The heartbeat, the app timeout and the master's life.
  struct watch final : loop::timer_handler {
    lifecycle* owner = nullptr;
    void on_timer() override;
  };

  void on_io(uint32_t events) override;  // the loop's wake
  void take_signals();
  void stop_now();
  void begin_drain(bool retire);
  void outlived_master();
  void keep_watch();

  const server_config& config_;
  loop::event_loop& loop_;
  listener_set& listeners_;
  session_registry& sessions_;
  admission& admission_;
  ws::context& websocket_;
  std::atomic<bool> draining_{false};
  bool refusing_ = false;  // draining, listeners open, every new request answered 503
  drain_deadline drain_deadline_;
  loop::timer drain_timer_{&drain_deadline_};
  watch watch_;
  loop::timer watch_timer_{&watch_};
  stop_reason stop_reason_ = stop_reason::none;
  bool outlived_master_ = false;  // the heartbeat found config_.parent_pid gone (once)
  std::unique_ptr<loop_signals> signals_;
  std::unique_ptr<stop_watchdog> watchdog_;
  std::atomic<int> shutdown_requested_{0};  // 1 graceful, 2 immediate, 3 graceful retire
  bool shutting_down_ = false;
  int signal_count_ = 0;
};

}  // namespace baton::server
