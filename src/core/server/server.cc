#include "core/server/server.h"

#include <signal.h>
#include <unistd.h>

#include <malloc.h>

#include <algorithm>

#include "core/loop/thread_contract.h"
#include "core/metrics/stopwatch.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
constexpr int trim_interval_ms = 1000;
// How long the loop polls its inbox before parking while pool jobs run: a
// few jobs' worth of a fast view, so at full load completions are taken
// without a wake.
constexpr int park_spin_us = 20;
// Freeing this much in one trim pass is worth a malloc_trim.
constexpr size_t trim_release_bytes = 1u << 20;
// Exchanges the free list keeps across an idle second: enough for the
// requests in flight at once lately, not the peak of a burst long gone.
constexpr size_t exchanges_kept_when_idle = 64;
}  // namespace

server::server(const server_config& config, std::vector<int> listeners)
    : config_(config),
      header_scratch_(config.requests.request_limits.max_headers),
      wire_(config.server_header),
      sessions_(loop_, config_.session, shared_input_, &output_spares_, config.metrics),
      gate_{config_.requests, *this, draining_, config.local, &refusing_,
            (config.access != nullptr && config.access->times_requests()) || config.metrics != nullptr,
            config_.metrics},
      http1_context_{gate_, config_.http1, header_scratch_.data(), wire_},
      h2_wire_(config.server_header),
      h2_context_{gate_, config_.http2, h2_wire_, config_.session.write_timeout_ms},
      ws_wire_(config_.websocket.deflate),
      ws_context_{config_.websocket, *this, inflater_},
      succession_(config_, http1_context_, h2_context_, ws_context_, ws_wire_),
      listeners_(config_, loop_, sessions_, succession_, listeners),
      admission_(config_, loop_, listeners_) {
  config_.requests.exchanges.stopping = &draining_;
  if (gate_.timing) metrics::stopwatch::calibrate();
  h2_context_.extended_connect = config_.websocket.enabled;
  drain_deadline_.owner = this;
  idle_trim_.owner = this;
  watch_.owner = this;
  // Large request and response buffers (a 1 MiB upload) come from the heap
  // and are reused, not mapped and unmapped per request. With glibc's
  // dynamic thresholds, blocks over 128 KiB in a fresh process are mmapped
  // (a page fault per 4 KiB touched, munmap on free) until the first such
  // free raises the mmap threshold and doubles the trim threshold: a server
  // loaded straight after start served 1 MiB POSTs at a third of the rate it
  // reached once one had passed. Fixing both thresholds removes the cliff;
  // freed memory still goes back to the system through the idle trim's
  // malloc_trim.
  // (Process-wide: set here, before the caller starts pool threads.)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);   // NOLINT(concurrency-mt-unsafe)
  mallopt(M_TRIM_THRESHOLD, 128 << 20);  // NOLINT(concurrency-mt-unsafe)
  // Made here, not in run(), so request_shutdown() from another thread
  // never races its creation.
  if (config_.stop_watchdog) watchdog_ = std::make_unique<stop_watchdog>(config_.graceful_timeout_ms, 1000);
  loop_.set_wake_handler(this);
  loop_.set_inbox_handler(this);
}

server::~server() {
  loop::running_pass pass(&loop_);  // this thread runs the loop's passes (loop/thread_contract.h)
  signals_.reset();  // first: the handlers write to the watchdog's descriptor
  watchdog_.reset();
  close_all();
  reap();
  listeners_.close_all();
  // Notices posted after the last pass (app sides that finished late) hold
  // references: take them so every exchange comes back before it is freed.
  loop_.run_once(0);
}

// --- running ----------------------------------------------------------------

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

void server::start() {
  loop::running_pass pass(&loop_);
  // One signal policy for every shape (on_io): with handle_signals off the
  // embedding program owns the signals and passes them on (deliver_signal).
  signals_ = std::make_unique<loop_signals>(loop_.wake_fd(), &draining_, config_.retire_signal, config_.handle_signals);
  if (watchdog_) signals_->watch_with(*watchdog_);
  listeners_.watch_all();
  loop_.arm(trim_timer_, loop_.now_ms() + trim_interval_ms);
  if (config_.heartbeat != nullptr || config_.app_timeout_ms > 0 || config_.parent_pid > 0) watch_.on_timer();
}

void server::finish() {
  loop::running_pass pass(&loop_);
  close_all();
  reap();
}

void server::run() {
  loop::running_pass pass(&loop_);
  // A peer that goes away mid-sendfile must fail the write, not kill us.
  // (Left ignored after run(): CPython ignores SIGPIPE too.)
  struct sigaction ignore{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, nullptr);
  start();
  while (!loop_.stopped()) {
    loop_.run_once(-1);
    after_pass();
  }
  finish();
}

void server::run_pass() {
  loop::running_pass pass(&loop_);
  loop_.run_once(0);
  after_pass();
}

void server::run_posted_pass() {
  loop::running_pass pass(&loop_);
  loop_.run_inbox_and_timers();
  after_pass();
}

void server::run_nested_pass(exchange::exchange* x) {
  if (x->links.sink != nullptr) x->links.sink->on_exchange_news(x);
  if (x->cancelled() || loop_.stopped()) return;
  ++nested_depth_;
  loop_.run_once(-1);
  --nested_depth_;
}

void server::request_shutdown(bool immediate, bool retire) {
  if (watchdog_) watchdog_->stop_requested(immediate);
  draining_.store(true);
  int want = immediate ? 2 : retire ? 3 : 1;
  int current = shutdown_requested_.load();
  while (current < want && !shutdown_requested_.compare_exchange_weak(current, want)) {
  }
  loop_.wake();
}

void server::reopen_logs() {
  if (config_.access != nullptr) config_.access->reopen();
}

void server::on_io(uint32_t) {
  int requested = shutdown_requested_.exchange(0);
  if (requested != 0 && stop_reason_ == stop_reason::none) {
    stop_reason_ = requested == 3 ? stop_reason::hangup : stop_reason::requested;
  }
  if (requested == 2) {
    begin_shutdown();
    close_all();
    loop_.stop();
    return;
  }
  if (requested != 0) begin_drain(requested == 3);
  if (!signals_) return;
  loop_signals::counts c = signals_->take();
  if (c.reopen > 0) reopen_logs();
  int stops = c.terminate + c.interrupt + c.quit + c.hangup;
  signal_count_ += stops;
  if (stops > 0 && stop_reason_ == stop_reason::none) {
    stop_reason_ = c.hangup > 0 && c.terminate + c.interrupt + c.quit == 0 ? stop_reason::hangup : stop_reason::signal;
  }
  if (c.quit > 0 || (c.interrupt > 0 && (shutting_down_ || c.interrupt > 1))) {
    log::write(log::level::info, "%s: stopping now", c.quit > 0 ? "SIGQUIT" : "second interrupt");
    begin_shutdown();
    close_all();
    loop_.stop();
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

// A graceful drain; `retire` closes the listeners at once (someone else
// serves them), a stop with refuse_while_draining keeps them to answer 503.
void server::begin_drain(bool retire) {
  if (shutting_down_) return;
  refusing_ = !retire && config_.refuse_while_draining;
  // WebSockets close with 1012 (service restart) when a replacement takes
  // over, so their clients reconnect; with 1001 (going away) on a stop.
  ws_context_.drain_code = retire ? ws::close_code::service_restart : ws::close_code::going_away;
  ws_context_.drain_begun = true;
  // Reloading in place: the sockets outlive this server (take_listeners).
  if (retire && config_.catch_hangup && stop_reason_ == stop_reason::hangup) listeners_.keep_for_reload();
  begin_shutdown();
}

std::vector<int> server::take_listeners() { return listeners_.take_kept(); }

void server::retire(stop_reason why) {
  if (shutting_down_) return;
  if (stop_reason_ == stop_reason::none) stop_reason_ = why;
  if (watchdog_) watchdog_->stop_requested(false);
  begin_drain(true);
}

// The metrics of an answered request: its protocol and status, the time
// from its head to now (its answer's last byte is queued), its bytes.
// Inlined into request_done, its only caller: every answer pays for it.
__attribute__((always_inline)) inline void server::count_answer(exchange::exchange& x) {
  uint64_t latency_us = x.links.started > 0 ? metrics::stopwatch::elapsed_us(x.links.started, metrics::stopwatch::now()) : 0;
  metrics::request_done(*config_.metrics, x.head().version_major == 2 ? metrics::protocol::h2 : metrics::protocol::http1,
                        x.response_status(), latency_us, x.bytes_received(), x.response_body_bytes());
}

void server::request_done(exchange::exchange* x) {
  if (config_.access != nullptr) log_access(*x, x->response_status(), x->response_body_bytes(), 0, x->body_bytes_received());
  if (config_.metrics != nullptr) count_answer(*x);
  count_request();
}

// An HTTP/1.1 request with an Upgrade field: a WebSocket opening, when the
// app serves them.
session::upgrade_verdict server::offer_upgrade(exchange::exchange& x) { return succession_.offer_upgrade(x); }

int server::upgrade_answer_timeout_ms() const { return succession_.upgrade_answer_timeout_ms(); }

std::unique_ptr<session::protocol> server::upgrade(session::session& s, exchange::exchange& x) {
  std::unique_ptr<session::protocol> next = succession_.upgrade(s, x);
  if (next != nullptr) count_websocket_open(x);
  return next;
}

std::unique_ptr<session::switched_protocol> server::switched_on(session::byte_stream& carrier,
                                                                exchange::exchange& x) {
  std::unique_ptr<session::switched_protocol> next = succession_.switched_on(carrier, x);
  if (next != nullptr) count_websocket_open(x);
  return next;
}

std::unique_ptr<session::protocol> server::http2_for(session::session& s) { return succession_.http2_for(s); }

std::unique_ptr<session::protocol> server::http2_upgrade(session::session& s, std::string_view settings,
                                                        const exchange::request_head& h) {
  return succession_.http2_upgrade(s, settings, h);
}

void server::count_websocket_open(const exchange::exchange& x) {
  if (config_.metrics == nullptr) return;
  metrics::move(config_.metrics->websockets, 1);
  // Its class: 1xx for HTTP/1.1's 101, 2xx for HTTP/2's 200.
  size_t status_class = x.response_status() >= 200 ? 1 : 0;
  metrics::bump(config_.metrics->answers[static_cast<size_t>(metrics::protocol::websocket)].requests[status_class]);
}

// One access log line per WebSocket, when it ends: the switch's answer (a
// 101, or over HTTP/2 a 200 to its CONNECT), how long the
// connection lasted, and the bytes each way.
void server::websocket_closed(exchange::exchange& x, const ws::closed_record& r) {
  if (metrics::thread_block* m = config_.metrics) {
    auto ws = static_cast<size_t>(metrics::protocol::websocket);
    metrics::move(m->websockets, -1);
    metrics::bump(m->ws_closes[metrics::ws_close_class_of(r.code)]);
    metrics::bump(m->answers[ws].request_bytes, r.bytes_in);
    metrics::bump(m->answers[ws].response_bytes, r.bytes_out);
  }
  if (config_.access != nullptr) log_access(x, x.response_status(), r.bytes_out, r.bytes_in);
  count_request();
}

void server::log_access(exchange::exchange& x, int status, uint64_t bytes_out, uint64_t bytes_in,
                        uint64_t request_body_bytes) {
  access_record r;
  r.head = &x.head();
  exchange::peer_info peer = x.peer();
  r.client = peer.address;
  r.client_port = peer.port;
  r.request_body_bytes = request_body_bytes;
  r.status = status;
  r.body_bytes = bytes_out;
  r.received_bytes = bytes_in;
  r.duration_us = x.links.started > 0 ? static_cast<int64_t>(metrics::stopwatch::elapsed_us(x.links.started, metrics::stopwatch::now())) : 0;
  r.response_fields = &x.response_fields();
  config_.access->record(r);
}

// The master died (its workers were handed to init): nobody will replace
// this worker or stop it, and a server started anew must find the port
// free. Every loop of the process retires as the retire signal has it (the
// signal is counted for each; a second loop that finds the master gone
// counts it again, which changes nothing).
void server::outlived_master() {
  if (outlived_master_ || shutting_down_) return;  // a drain under way ends the process already
  outlived_master_ = true;
  log::write(log::level::warning, "the master (pid %d) is gone: finishing the requests in flight, then exiting",
             config_.parent_pid);
  loop_signals::deliver(config_.retire_signal != 0 ? config_.retire_signal : SIGTERM);
}

void server::count_request() {
  ++requests_done_;
  if (config_.max_requests != 0 && requests_done_ == config_.max_requests) {
    log::write(log::level::info, "served %llu requests (--max-requests): recycling this worker",
               static_cast<unsigned long long>(requests_done_));
    retire(stop_reason::max_requests);
  }
}

// Every heartbeat interval: the loop says it is alive, requests that
// overran the app timeout are given up (the thread running one cannot be
// taken back, so the worker retires and its master starts another), and a
// worker whose master has gone retires.
void server::watch::on_timer() {
  loop::event_loop& loop = owner->loop_;
  int64_t now = loop.now_ms();
  const server_config& config = owner->config_;
  if (config.heartbeat != nullptr) config.heartbeat->store(now, std::memory_order_relaxed);
  if (config.parent_pid > 0 && ::getppid() != config.parent_pid) owner->outlived_master();
  if (config.app_timeout_ms > 0 && owner->sessions_.abandon_overdue(now, config.app_timeout_ms)) {
    owner->retire(stop_reason::app_timeout);
  }
  int interval = config.heartbeat_interval_ms;
  if (config.app_timeout_ms > 0 && config.app_timeout_ms / 4 < interval) interval = std::max(config.app_timeout_ms / 4, 10);
  loop.arm(owner->watch_timer_, now + interval);
}

// --- exchanges ----------------------------------------------------------------

exchange::exchange* server::new_exchange() { return admission_.take_exchange(); }

void server::submit(exchange::exchange* x) { admission_.submit(x); }

void server::on_notices(handoff::notice_link* list) {
  admission_.take_notices(list);
  if (nested_depth_ == 0) admission_.pump();
}

// --- connections ----------------------------------------------------------------

// Connections are deleted between passes, never inside their own callbacks
// (and never inside a nested pass, whose caller may be one of them).
void server::reap() {
  if (nested_depth_ == 0) sessions_.reap();
}

// Between top-level passes: free closed connections, start what waits (an
// inline app that returned frees the runner), and end a finished drain.
void server::after_pass() {
  reap();
  if (config_.access != nullptr) config_.access->hand_over();
  if (admission_.has_waiting()) admission_.pump();
  if (drained()) loop_.stop();
  loop_.set_park_spin(admission_.expects_completions() ? park_spin_us : 0);
}

// Once a second: connections waiting for a request give back their
// buffers. Freed memory stays resident while the heap around it is in use,
// so after a large release the allocator is asked to return the free pages
// too (what makes an idle connection cost its few hundred bytes of state).
void server::idle_trim::on_timer() {
  size_t freed = owner->sessions_.release_idle_memory();
  freed += owner->output_spares_.release();
  freed += owner->admission_.trim_free_list(exchanges_kept_when_idle);
  if (freed >= trim_release_bytes) malloc_trim(0);
  owner->loop_.arm(owner->trim_timer_, owner->loop_.now_ms() + trim_interval_ms);
}

// --- stopping ----------------------------------------------------------------

void server::begin_shutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  draining_.store(true);
  log::write(log::level::info, "shutting down: finishing %zu open connection(s), at most %d ms%s", sessions_.live(),
             config_.graceful_timeout_ms, refusing_ ? "; new requests get 503 meanwhile" : "");
  if (!refusing_) listeners_.close_all();
  sessions_.drain_all();
  loop_.arm(drain_timer_, loop_.now_ms() + config_.graceful_timeout_ms);
}

void server::drain_deadline::on_timer() {
  if (owner->busy_connections() > 0) {
    log::write(log::level::warning, "graceful timeout: closing %zu connection(s) still open",
               owner->busy_connections());
  }
  owner->close_all();
  owner->loop_.stop();
}

void server::close_all() {
  sessions_.close_all();
  admission_.drop_waiting();
}

}  // namespace baton::server
