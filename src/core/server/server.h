// The server: one event loop and the parts that serve on it, composed. Each
// part has one job and its own file; the server makes them, wires them to
// each other and to the protocols' contexts, answers the protocols'
// questions by asking the part that knows, and drives the loop's passes.
//
//   listeners   (listeners.h, stream_listener.h) accept connections
//   sessions    (session_registry.h)   the open connections, freed between passes
//   succession  (succession.h)         which protocol a connection speaks, and which follows
//   admission   (admission.h)          exchanges: free list, queue, --limit-concurrency, counts
//   accounting  (accounting.h)         each answer's log line and metrics, --max-requests
//   lifecycle   (lifecycle.h)          signals, drain, retire, the heartbeat and app timeout
//
// An accepted connection is a session; its requests become exchanges that
// go to a dispatcher, or wait for a free runner (reading pauses on their
// sessions, accepting pauses once max_queued_requests wait).
//
// run() serves until the drain is over, with blocking passes; another loop
// can step the same pieces itself (start(), run_pass() or run_posted_pass(),
// begin_shutdown(), drained(), finish()). lifecycle.h says how a stop runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/gate/request_gate.h"
#include "core/http1/encoder.h"
#include "core/http1/protocol.h"
#include "core/http2/protocol.h"
#include "core/loop/event_loop.h"
#include "core/server/access_log.h"
#include "core/server/accounting.h"
#include "core/server/admission.h"
#include "core/server/alt_svc.h"
#include "core/server/dispatcher.h"
#include "core/server/lifecycle.h"
#include "core/server/listeners.h"
#include "core/server/quic_endpoint.h"
#include "core/server/server_config.h"
#include "core/server/session_registry.h"
#include "core/server/signals.h"
#include "core/server/succession.h"
#include "core/session/protocol_host.h"
#include "core/ws/protocol.h"

namespace baton::server {

class server final : private loop::inbox_handler, private session::protocol_host {
 public:
  // Listener fds are already bound and listening; the server makes them
  // non-blocking and closes them when shutdown begins.
  server(const server_config& config, const std::vector<int>& listeners);
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
  void begin_shutdown() { lifecycle_.begin_shutdown(); }
  bool drained() const { return lifecycle_.drained(); }
  void finish();

  // Any thread: a signal the embedding program caught (handle_signals off),
  // taken as the server's own handlers take theirs: TERM and INT drain (a
  // second INT stops at once), QUIT stops at once, the retire signal
  // retires, USR1 reopens the access log.
  static void deliver_signal(int signo) { loop_signals::deliver(signo); }
  // Thread-safe: asks the loop to begin a graceful shutdown (or, with
  // `immediate`, to close everything at once).
  // `retire`: the listeners close at once (a replacement takes over).
  void request_shutdown(bool immediate = false, bool retire = false) { lifecycle_.request_shutdown(immediate, retire); }
  stop_reason why_stopped() const { return lifecycle_.why_stopped(); }
  // After a SIGHUP with catch_hangup: the listening sockets, left open for
  // the caller (who reloads with them). Empty otherwise.
  std::vector<int> take_listeners() { return listeners_.take_kept(); }
  // Thread-safe: reopen the access log (SIGUSR1).
  void reopen_logs() { lifecycle_.reopen_logs(); }
  uint64_t requests_done() const { return accounting_.requests_done(); }
  bool stopped_by_signal() const { return lifecycle_.stopped_by_signal(); }
  bool shutting_down() const { return lifecycle_.shutting_down(); }

  // For an app side running on the loop thread that must wait for its
  // exchange (a body still arriving, a socket that is full): lets the
  // protocol see the exchange's news, then runs one pass of the loop, which
  // serves every other connection meanwhile. Dispatches nothing new: the
  // inline dispatcher is busy, so new requests queue.
  void run_nested_pass(exchange::exchange* x);

  // Between top-level passes (run() calls it; so must a caller that steps
  // the loop itself).
  void after_pass();

  // Counters for tests and probes (queued_requests() from any thread).
  size_t live_connections() const { return sessions_.live(); }
  size_t queued_requests() const { return admission_.queued_requests(); }
  uint32_t requests_in_app() const { return admission_.in_app(); }  // loop thread (or once it has ended)

 private:
  struct idle_trim final : loop::timer_handler {
    server* owner = nullptr;
    void on_timer() override;
  };

  // The inbox: the app sides' news and done notices.
  void on_notices(handoff::notice_link* list) override;
  // The protocols' questions, each passed to the part that knows.
  exchange::exchange* new_exchange() override;
  void submit(exchange::exchange* x) override;
  void request_done(exchange::exchange* x) override;
  session::upgrade_verdict offer_upgrade(exchange::exchange& x) override;
  int upgrade_answer_timeout_ms() const override;
  std::unique_ptr<session::protocol> upgrade(session::session& s, exchange::exchange& x) override;
  std::unique_ptr<session::switched_protocol> switched_on(session::byte_stream& carrier,
                                                          exchange::exchange& x) override;
  std::unique_ptr<session::protocol> http2_for(session::session& s) override;
  std::unique_ptr<session::protocol> http2_upgrade(session::session& s, std::string_view settings,
                                                   const exchange::request_head& h) override;

  // Closed sessions are freed between top-level passes, never inside a
  // nested pass, whose caller may be one of them.
  void reap();
  void trim_idle();

  // The order matters: each part is made after what it reads at its making
  // (the lifecycle first: the protocols' contexts hold its drain flags), and
  // taken apart in the reverse order.
  server_config config_;
  loop::event_loop loop_;
  lifecycle lifecycle_;
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
  accounting accounting_;
  ws::context ws_context_;
  succession succession_;
  // HTTP/3's endpoint (null without --http3): before the listeners, which
  // hand it datagrams, so it outlives them.
  std::unique_ptr<net::datagram_sink> quic_;
  alt_svc_by_listener alt_svc_;  // after quic_: "auto" advertises h3 only when it serves
  listener_set listeners_;
  admission admission_;
  idle_trim idle_trim_;
  loop::timer trim_timer_{&idle_trim_};
  int nested_depth_ = 0;
};

}  // namespace baton::server
