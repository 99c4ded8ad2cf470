#include "core/server/lifecycle.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>

#include "core/server/admission.h"
#include "core/server/listeners.h"
#include "core/util/log.h"

namespace baton::server {

const char* stop_reason_name(stop_reason r) {
  switch (r) {
    case stop_reason::none: return "none";
    case stop_reason::signal: return "signal";
    case stop_reason::requested: return "requested";
    case stop_reason::hangup: return "hangup";
    case stop_reason::max_requests: return "max-requests";
    case stop_reason::app_timeout: return "app-timeout";
  }
  return "none";
}

lifecycle::lifecycle(const server_config& config, loop::event_loop& loop, listener_set& listeners,
                     session_registry& sessions, admission& admission, ws::context& websocket)
    : config_(config),
      loop_(loop),
      listeners_(listeners),
      sessions_(sessions),
      admission_(admission),
      websocket_(websocket) {
  drain_deadline_.owner = this;
  watch_.owner = this;
  loop_.set_wake_handler(this);
}

void lifecycle::make_watchdog() {
  if (config_.stop_watchdog) watchdog_ = std::make_unique<stop_watchdog>(config_.graceful_timeout_ms, 1000);
}

void lifecycle::start() {
  // One signal policy for every shape (on_io): with handle_signals off the
  // embedding program owns the signals and passes them on (deliver_signal).
  signals_ = std::make_unique<loop_signals>(loop_.wake_fd(), &draining_, config_.retire_signal, config_.handle_signals);
  if (watchdog_) signals_->watch_with(*watchdog_);
  if (config_.heartbeat != nullptr || config_.app_timeout_ms > 0 || config_.parent_pid > 0) keep_watch();
}

void lifecycle::stop_watching() {
  signals_.reset();
  watchdog_.reset();
}

void lifecycle::request_shutdown(bool immediate, bool retire) {
  if (watchdog_) watchdog_->stop_requested(immediate);
  draining_.store(true);
  int want = immediate ? 2 : retire ? 3 : 1;
  int current = shutdown_requested_.load();
  while (current < want && !shutdown_requested_.compare_exchange_weak(current, want)) {
  }
  loop_.wake();
}

void lifecycle::reopen_logs() {
  if (config_.access != nullptr) config_.access->reopen();
}

void lifecycle::on_io(uint32_t) {
  int requested = shutdown_requested_.exchange(0);
  if (requested != 0 && stop_reason_ == stop_reason::none) {
    stop_reason_ = requested == 3 ? stop_reason::hangup : stop_reason::requested;
  }
  if (requested == 2) {
    stop_now();
    return;
  }
  if (requested != 0) begin_drain(requested == 3);
  if (signals_) take_signals();
}

void lifecycle::take_signals() {
  loop_signals::counts c = signals_->take();
  if (c.reopen > 0) reopen_logs();
  int stops = c.terminate + c.interrupt + c.quit + c.hangup;
  signal_count_ += stops;
  if (stops > 0 && stop_reason_ == stop_reason::none) {
    stop_reason_ = c.hangup > 0 && c.terminate + c.interrupt + c.quit == 0 ? stop_reason::hangup : stop_reason::signal;
  }
  if (c.quit > 0 || (c.interrupt > 0 && (shutting_down_ || c.interrupt > 1))) {
    log::write(log::level::info, "%s: stopping now", c.quit > 0 ? "SIGQUIT" : "second interrupt");
    stop_now();
    return;
  }
  if (c.hangup > 0 && c.terminate + c.interrupt == 0) {
    log::write(log::level::info, "%s", config_.catch_hangup ? "SIGHUP: finishing the requests in flight, then reloading"
                                                              : "retiring: finishing the requests in flight");
    begin_drain(true);
  } else if (stops > 0) {
    begin_drain(false);
  }
}

void lifecycle::stop_now() {
  begin_shutdown();
  close_all();
  loop_.stop();
}

// A graceful drain; `retire` closes the listeners at once (someone else
// serves them), a stop with refuse_while_draining keeps them to answer 503.
void lifecycle::begin_drain(bool retire) {
  if (shutting_down_) return;
  refusing_ = !retire && config_.refuse_while_draining;
  // WebSockets close with 1012 (service restart) when a replacement takes
  // over, so their clients reconnect; with 1001 (going away) on a stop.
  websocket_.drain_code = retire ? ws::close_code::service_restart : ws::close_code::going_away;
  websocket_.drain_begun = true;
  // Reloading in place: the sockets outlive this server (take_listeners).
  if (retire && config_.catch_hangup && stop_reason_ == stop_reason::hangup) listeners_.keep_for_reload();
  begin_shutdown();
}

void lifecycle::retire(stop_reason why) {
  if (shutting_down_) return;
  if (stop_reason_ == stop_reason::none) stop_reason_ = why;
  if (watchdog_) watchdog_->stop_requested(false);
  begin_drain(true);
}

void lifecycle::begin_shutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  draining_.store(true);
  log::write(log::level::info, "shutting down: finishing %zu open connection(s), at most %d ms%s", sessions_.live(),
             config_.graceful_timeout_ms, refusing_ ? "; new requests get 503 meanwhile" : "");
  if (!refusing_) listeners_.close_all();
  sessions_.drain_all();
  loop_.arm(drain_timer_, loop_.now_ms() + config_.graceful_timeout_ms);
}

void lifecycle::drain_deadline::on_timer() {
  if (owner->sessions_.busy() > 0) {
    log::write(log::level::warning, "graceful timeout: closing %zu connection(s) still open", owner->sessions_.busy());
  }
  owner->close_all();
  owner->loop_.stop();
}

// The end: every connection closes, and the requests that waited for a
// runner leave the counts.
void lifecycle::close_all() {
  sessions_.close_all();
  listeners_.close_datagrams();
  admission_.drop_waiting();
}

// The master died (its workers were handed to init): nobody will replace
// this worker or stop it, and a server started anew must find the port
// free. Every loop of the process retires as the retire signal has it (the
// signal is counted for each; a second loop that finds the master gone
// counts it again, which changes nothing).
void lifecycle::outlived_master() {
  if (outlived_master_ || shutting_down_) return;  // a drain under way ends the process already
  outlived_master_ = true;
  log::write(log::level::warning, "the master (pid %d) is gone: finishing the requests in flight, then exiting",
             config_.parent_pid);
  loop_signals::deliver(config_.retire_signal != 0 ? config_.retire_signal : SIGTERM);
}

void lifecycle::watch::on_timer() { owner->keep_watch(); }

// Every heartbeat interval: the loop says it is alive, requests that
// overran the app timeout are given up (the thread running one cannot be
// taken back, so the worker retires and its master starts another), and a
// worker whose master has gone retires.
void lifecycle::keep_watch() {
  int64_t now = loop_.now_ms();
  if (config_.heartbeat != nullptr) config_.heartbeat->store(now, std::memory_order_relaxed);
  if (config_.parent_pid > 0 && ::getppid() != config_.parent_pid) outlived_master();
  if (config_.app_timeout_ms > 0) {
    bool overran = sessions_.abandon_overdue(now, config_.app_timeout_ms);
    overran = listeners_.abandon_overdue_datagrams(now - config_.app_timeout_ms + 1) || overran;
    if (overran) retire(stop_reason::app_timeout);
  }
  int interval = config_.heartbeat_interval_ms;
  if (config_.app_timeout_ms > 0 && config_.app_timeout_ms / 4 < interval) {
    interval = std::max(config_.app_timeout_ms / 4, 10);
  }
  loop_.arm(watch_timer_, now + interval);
}

}  // namespace baton::server
