#include "core/server/server.h"

#include <signal.h>

#include <malloc.h>

#include "core/loop/thread_contract.h"
#include "core/metrics/stopwatch.h"

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

bool times_requests(const server_config& config) {
  return (config.access != nullptr && config.access->times_requests()) || config.metrics != nullptr;
}
}  // namespace

server::server(const server_config& config, const std::vector<int>& listeners)
    : config_(config),
      lifecycle_(config_, loop_, listeners_, sessions_, admission_, ws_context_),
      header_scratch_(config.requests.request_limits.max_headers),
      wire_(config.server_header),
      sessions_(loop_, config_.session, shared_input_, &output_spares_, config.metrics),
      gate_{config_.requests, *this, lifecycle_.draining(), config.local, lifecycle_.refusing(), times_requests(config),
            config_.metrics},
      http1_context_{gate_, config_.http1, header_scratch_.data(), wire_},
      h2_wire_(config.server_header),
      h2_context_{gate_, config_.http2, h2_wire_, config_.session.write_timeout_ms},
      ws_wire_(config_.websocket.deflate),
      accounting_(config_, lifecycle_),
      ws_context_{config_.websocket, accounting_.websocket_host(), inflater_},
      succession_(config_, http1_context_, h2_context_, ws_context_, ws_wire_),
      quic_(make_quic_endpoint(config_, loop_, gate_, h2_wire_)),
      alt_svc_(config_.alt_svc, quic_ != nullptr, config_.server_header, listeners),
      listeners_(config_, loop_, sessions_, succession_, listeners, quic_.get()),
      admission_(config_, loop_, listeners_) {
  config_.requests.exchanges.stopping = &lifecycle_.draining();
  if (gate_.timing) metrics::stopwatch::calibrate();
  h2_context_.extended_connect = config_.websocket.enabled;
  http1_context_.listener_wires = alt_svc_.http1_wires;
  h2_context_.alt_svc = alt_svc_.values;
  idle_trim_.owner = this;
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
  lifecycle_.make_watchdog();
  loop_.set_inbox_handler(this);
}

server::~server() {
  loop::running_pass pass(&loop_);  // this thread runs the loop's passes (loop/thread_contract.h)
  lifecycle_.stop_watching();  // first: the signal handlers write to the watchdog's descriptor
  lifecycle_.close_all();
  reap();
  listeners_.close_all();
  // Notices posted after the last pass (app sides that finished late) hold
  // references: take them so every exchange comes back before it is freed.
  loop_.run_once(0);
}

// --- running ----------------------------------------------------------------

void server::start() {
  loop::running_pass pass(&loop_);
  listeners_.watch_all();
  loop_.arm(trim_timer_, loop_.now_ms() + trim_interval_ms);
  lifecycle_.start();
}

void server::finish() {
  loop::running_pass pass(&loop_);
  lifecycle_.close_all();
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

// Between top-level passes: free closed connections, start what waits (an
// inline app that returned frees the runner), and end a finished drain.
void server::after_pass() {
  reap();
  if (config_.access != nullptr) config_.access->hand_over();
  if (admission_.has_waiting()) admission_.pump();
  if (drained()) loop_.stop();
  loop_.set_park_spin(admission_.expects_completions() ? park_spin_us : 0);
  loop_.set_park_limit_ns(admission_.look_after_waiting());
}

void server::reap() {
  if (nested_depth_ == 0) sessions_.reap();
}

void server::on_notices(handoff::notice_link* list) {
  admission_.take_notices(list);
  if (nested_depth_ == 0) admission_.pump();
}

// Once a second: connections waiting for a request give back their
// buffers. Freed memory stays resident while the heap around it is in use,
// so after a large release the allocator is asked to return the free pages
// too (what makes an idle connection cost its few hundred bytes of state).
void server::idle_trim::on_timer() { owner->trim_idle(); }

void server::trim_idle() {
  size_t freed = sessions_.release_idle_memory();
  if (quic_ != nullptr) freed += quic_->release_idle_memory();
  freed += output_spares_.release();
  freed += admission_.trim_free_list(exchanges_kept_when_idle);
  if (freed >= trim_release_bytes) malloc_trim(0);
  loop_.arm(trim_timer_, loop_.now_ms() + trim_interval_ms);
}

// --- the protocols' questions ---------------------------------------------------

exchange::exchange* server::new_exchange() { return admission_.take_exchange(); }

void server::submit(exchange::exchange* x) { admission_.submit(x); }

void server::request_done(exchange::exchange* x) { accounting_.request_done(*x); }

session::upgrade_verdict server::offer_upgrade(exchange::exchange& x) { return succession_.offer_upgrade(x); }

int server::upgrade_answer_timeout_ms() const { return succession_.upgrade_answer_timeout_ms(); }

std::unique_ptr<session::protocol> server::upgrade(session::session& s, exchange::exchange& x) {
  std::unique_ptr<session::protocol> next = succession_.upgrade(s, x);
  if (next != nullptr) accounting_.websocket_opened(x);
  return next;
}

std::unique_ptr<session::switched_protocol> server::switched_on(session::byte_stream& carrier,
                                                                exchange::exchange& x) {
  std::unique_ptr<session::switched_protocol> next = succession_.switched_on(carrier, x);
  if (next != nullptr) accounting_.websocket_opened(x);
  return next;
}

std::unique_ptr<session::protocol> server::http2_for(session::session& s) { return succession_.http2_for(s); }

std::unique_ptr<session::protocol> server::http2_upgrade(session::session& s, std::string_view settings,
                                                        const exchange::request_head& h) {
  return succession_.http2_upgrade(s, settings, h);
}

}  // namespace baton::server
