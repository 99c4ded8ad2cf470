// The server: listening sockets, the registry of sessions, the exchanges and
// their queue, signals and the graceful stop, around one event loop.
//
// An accepted connection is a session running HTTP/1. Requests become
// exchanges (recycled through a free list) that go to a dispatcher; when it
// has no free runner they wait in a FIFO, reading pauses on their sessions
// (an HTTP/1 connection has one request in flight), and accepting pauses
// once the FIFO holds max_queued_requests.
//
// Shutdown has three steps. begin: stop accepting, close the listeners,
// close idle connections, and make every later response say
// Connection: close. drain: passes keep running until no connection is left
// or the budget (graceful_timeout_ms) runs out. finish: close whatever
// remains. run() composes them with blocking passes; another loop can step
// them itself (begin_shutdown(), run_once(0) until drained(), finish()).
// A second SIGINT skips the drain.
//
// Two kinds of drain. A stop (SIGTERM, SIGINT, request_shutdown) ends the
// service: with refuse_while_draining (a health path is set) the listeners
// stay open through it and every new request gets 503, the health path
// included, so a load balancer sees the drain instead of a hung connect. A
// retire (SIGHUP, max_requests, a request over the app timeout) makes way
// for a replacement that shares the sockets: the listeners close at once.
// stop_reason() tells the caller which, and why.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/gate/request_gate.h"
#include "core/http1/encoder.h"
#include "core/http1/protocol.h"
#include "core/http2/protocol.h"
#include "core/http2/response_head.h"
#include "core/local/local_routes.h"
#include "core/loop/event_loop.h"
#include "core/metrics/record.h"
#include "core/session/session.h"
#include "core/session/proxy_preface.h"
#include "core/session/tls_handshake.h"
#include "core/server/access_log.h"
#include "core/server/admission.h"
#include "core/server/server_config.h"
#include "core/server/dispatcher.h"
#include "core/server/listeners.h"
#include "core/server/session_registry.h"
#include "core/server/signals.h"
#include "core/server/succession.h"
#include "core/ws/protocol.h"

namespace baton::server {

class server final : private loop::io_handler,
                     private loop::inbox_handler,
                     private session::protocol_host,
                     private ws::host {
 public:
  // Listener fds are already bound and listening; the server makes them
  // non-blocking and closes them when shutdown begins.
  server(const server_config& config, std::vector<int> listeners);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  loop::event_loop& event_loop() { return loop_; }
  // What this loop counts into (null: metrics off), for the app side's own counts.
  metrics::thread_block* metrics() const { return config_.metrics; }
  metrics::worker_slot* metrics_slot() const { return config_.metrics_slot; }
  void set_dispatcher(baton::server::dispatcher* d) { admission_.set_dispatcher(d); }
  // Before run(): how many streams of one HTTP/2 connection the dispatcher
  // runs at once (a pool's share; 0: no limit).
  void limit_streams_in_app(uint32_t n) { config_.http2.max_streams_in_app = n; }

  // Installs SIGTERM/SIGINT/SIGQUIT handlers (unless handle_signals is off);
  // they, and the stop watchdog, stay until the server is destroyed, so they
  // also cover what the caller does after run() (joining threads). Returns
  // when the drain is over.
  void run();
  // The pieces run() is made of, for a caller that drives the loop itself:
  // start(), then run_pass() whenever backend_fd() is readable or
  // next_timeout_ms() has passed (and after anything the caller did that
  // posts to the loop), until done(); begin_shutdown() when asked to stop,
  // then finish().
  void start();
  // One pass that never blocks, and the work between passes.
  void run_pass();
  // The same, less the sockets: what was posted to the loop (answers to
  // send, exchanges that ended) and due timers. A caller that runs it after
  // its own callbacks posted, and run_pass() only when backend_fd() is
  // readable, reads every ready socket once per turn of its own loop: the
  // requests of one turn start together, and their answers leave together.
  void run_posted_pass();
  bool done() const { return loop_.stopped(); }
  void begin_shutdown();
  bool drained() const { return loop_.stopped() || (shutting_down_ && busy_connections() == 0); }
  void finish();

  // Any thread: a signal the embedding program caught (handle_signals off),
  // taken as the server's own handlers take theirs: TERM and INT drain (a
  // second INT stops at once), QUIT stops at once, the retire signal
  // retires, USR1 reopens the access log.
  static void deliver_signal(int signo) { loop_signals::deliver(signo); }
  // Thread-safe: asks the loop to begin a graceful shutdown (or, with
  // `immediate`, to close everything at once).
  // `retire`: the listeners close at once (a replacement takes over).
  void request_shutdown(bool immediate = false, bool retire = false);
  stop_reason why_stopped() const { return stop_reason_; }
  // After a SIGHUP with catch_hangup: the listening sockets, left open for
  // the caller (who reloads with them). Empty otherwise.
  std::vector<int> take_listeners();
  // Thread-safe: reopen the access log (SIGUSR1).
  void reopen_logs();
  uint64_t requests_done() const { return requests_done_; }
  bool stopped_by_signal() const { return signal_count_ > 0; }
  bool shutting_down() const { return shutting_down_; }

  // For an app side running on the loop thread that must wait for its
  // exchange (a body still arriving, a socket that is full): lets the
  // protocol see the exchange's news, then runs one pass of the loop, which
  // serves every other connection meanwhile. Dispatches nothing new: the
  // inline dispatcher is busy, so new requests queue.
  void run_nested_pass(exchange::exchange* x);

  // Counters for tests and probes (queued_requests() from any thread).
  size_t live_connections() const { return sessions_.live(); }
  size_t queued_requests() const { return admission_.queued_requests(); }
  uint32_t requests_in_app() const { return admission_.in_app(); }  // loop thread (or once it has ended)

 private:
  struct drain_deadline final : loop::timer_handler {
    server* owner = nullptr;
    void on_timer() override;
  };
  struct idle_trim final : loop::timer_handler {
    server* owner = nullptr;
    void on_timer() override;
  };
  // The heartbeat, the app timeout and the master's life.
  struct watch final : loop::timer_handler {
    server* owner = nullptr;
    void on_timer() override;
  };

  void on_io(uint32_t events) override;  // the loop's wake
  void on_notices(handoff::notice_link* list) override;
  exchange::exchange* new_exchange() override;
  void submit(exchange::exchange* x) override;
  // Sessions a drain waits for: those not merely lingering.
  size_t busy_connections() const { return sessions_.busy(); }
  void request_done(exchange::exchange* x) override;
  session::upgrade_verdict offer_upgrade(exchange::exchange& x) override;
  int upgrade_answer_timeout_ms() const override;
  std::unique_ptr<session::protocol> upgrade(session::session& s, exchange::exchange& x) override;
  std::unique_ptr<session::switched_protocol> switched_on(session::byte_stream& carrier,
                                                          exchange::exchange& x) override;
  void count_websocket_open(const exchange::exchange& x);
  void websocket_closed(exchange::exchange& x, const ws::closed_record& r) override;
  std::unique_ptr<session::protocol> http2_for(session::session& s) override;
  std::unique_ptr<session::protocol> http2_upgrade(session::session& s, std::string_view settings,
                                                   const exchange::request_head& h) override;
  void log_access(exchange::exchange& x, int status, uint64_t bytes_out, uint64_t bytes_in,
                  uint64_t request_body_bytes = 0);
  void count_answer(exchange::exchange& x);
  void count_request();  // a response (or a WebSocket) is done: max_requests counts it
  void outlived_master();  // the heartbeat found the master gone
  void retire(stop_reason why);
  void begin_drain(bool retire);

  void close_all();
  void reap();

 public:
  // Between top-level passes (run() calls it; so must a caller that steps
  // the loop itself).
  void after_pass();

 private:
  server_config config_;
  loop::event_loop loop_;
  std::atomic<bool> draining_{false};
  session::receive_buffer shared_input_;
  net::output_queue::spares output_spares_;  // before the contexts and the sessions: they park storage here
  std::vector<http1::header> header_scratch_;
  http1::encoder wire_;
  session_registry sessions_;
  gate::request_gate gate_;  // every protocol's requests pass through it
  http1::context http1_context_;
  http2::framing h2_wire_;
  http2::context h2_context_;
  ws::inflater inflater_;  // the loop's: every WebSocket session's decompressor
  ws::wire ws_wire_;
  ws::context ws_context_;
  succession succession_;
  listener_set listeners_;
  admission admission_;
  drain_deadline drain_deadline_;
  loop::timer drain_timer_{&drain_deadline_};
  idle_trim idle_trim_;
  loop::timer trim_timer_{&idle_trim_};
  watch watch_;
  loop::timer watch_timer_{&watch_};
  stop_reason stop_reason_ = stop_reason::none;
  bool refusing_ = false;  // draining, listeners open, every new request answered 503
  bool outlived_master_ = false;  // the heartbeat found config_.parent_pid gone (once)
  uint64_t requests_done_ = 0;
  std::unique_ptr<loop_signals> signals_;
  std::unique_ptr<stop_watchdog> watchdog_;
  std::atomic<int> shutdown_requested_{0};  // 1 graceful, 2 immediate, 3 graceful retire
  bool shutting_down_ = false;
  int signal_count_ = 0;
  int nested_depth_ = 0;
};

}  // namespace baton::server
