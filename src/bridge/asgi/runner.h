// The ASGI bridge (HTTP, WebSocket, and lifespan's server side): requests
// run as tasks on an asyncio loop, with receive and send as native
// awaitables. http.cc holds the HTTP scope and messages (early_hint.cc the
// early-hint extension's), websocket.cc the WebSocket ones.
//
// Two shapes share this code:
//   - pump: the native loop runs on its own thread, detached from the GIL;
//     new streams cross to the asyncio thread in a ring, and a stream's news
//     (body bytes, output credit, a disconnect) crosses as a notice in an
//     intrusive queue. One eventfd, registered with add_reader, wakes the
//     asyncio side, and only when it is not already draining (the "parked"
//     flag: store, fence, re-check, as on the loop's side).
//   - inverted: one thread. asyncio watches the native loop's epoll fd and
//     runs one non-blocking pass when it is readable or its timer is due;
//     new streams and news are taken right after each pass, no eventfd.
// In both, everything here but asgi_request::wake() and the dispatcher's
// try_start() runs on the asyncio thread with the GIL held.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "bridge/module_state.h"
#include "bridge/py_ref.h"
#include "bridge/server_setup.h"
#include "core/handoff/notice_queue.h"
#include "core/handoff/spsc_ring.h"
#include "core/exchange/exchange.h"
#include "core/server/dispatcher.h"

namespace baton::bridge {

class asgi_runner;

// One request's ASGI side. Pooled by the runner and never freed while it
// serves, because the loop may call wake() on one whose request just ended
// (it read the stream's waker a moment before); the generation tells a stale
// notice from a live one.
struct asgi_request final : exchange::app_waker, handoff::notice_link {
  explicit asgi_request(asgi_runner& r) : runner(r) {}
  void wake() override;  // any thread

  asgi_runner& runner;
  std::atomic<bool> queued{false};  // linked in news_: set by post_news, cleared only by deliver_news
  // Asyncio thread only, from here on.
  exchange::exchange* s = nullptr;  // null while pooled
  uint64_t generation = 0;
  py_ref receive_future;  // a receive() waiting for an event
  py_ref send_future;     // a send() waiting for the output window
  py_ref scope;
  bool request_complete = false;   // the last http.request (more_body false) went out
  bool response_started = false;   // http.response.start was sent
  bool response_complete = false;  // the last body (more_body false) was sent, and the last trailers if asked for
  bool trailers_expected = false;  // http.response.start said trailers: True
  bool body_complete = false;      // the last body went, trailers are awaited
  bool protocol_error = false;     // the app broke the protocol: close after
  // A WebSocket (the core offered the switch): where its handshake stands.
  enum class ws_phase : uint8_t {
    connecting,  // websocket.connect not yet received
    handshake,   // waiting for the app's accept, close or denial
    denial,      // the app answers with an HTTP response instead
    open,        // accepted: messages both ways
    closed,      // the app sent its close; the client's is awaited
    ended,       // the app received websocket.disconnect (or was refused)
  };
  bool websocket = false;
  ws_phase phase = ws_phase::connecting;
  int close_code = 1006;  // of the websocket.disconnect, once ended
  py_ref close_reason;    // str
  // Payloads the connection's output refers to where they are (large
  // websocket.send bytes and str, immutable), kept until the loop has
  // written or dropped every byte `in_flight_unsent` counts. They may
  // outlive the request: the runner's lingering list lets go of them then.
  std::vector<py_ref> in_flight;
  std::atomic<uint64_t> in_flight_unsent{0};  // raised here, lowered by the loop thread
  bool lingering = false;                     // in the runner's lingering list
};

struct asgi_options {
  PyObject* app = nullptr;
  PyObject* loop = nullptr;            // the asyncio loop
  PyObject* log_exception = nullptr;   // callable(message, exc)
  PyObject* state = nullptr;           // lifespan state dict (shallow-copied per request), or None
  PyObject* owner = nullptr;           // what owns the runner: each receive and send keeps it alive
  std::string root_path;
  std::vector<listener_address> listeners;  // the scope's "server" by listener ("" and 0: a Unix socket)
  bool pump = true;
  bool eager_tasks = true;  // on 3.12 and later: each request's task takes its first step at once
  std::string server_cert;  // PEM, with TLS: the tls extension's server_cert
};

// Hands streams to the asyncio side: into the ring (pump) or straight onto
// the pending list (inverted, same thread). Full ring: the server queues.
class asgi_runner final : public server::dispatcher {
 public:
  // GIL held. Returns null with a Python error set on failure.
  static std::unique_ptr<asgi_runner> create(const asgi_options& options);
  ~asgi_runner();

  // Loop thread (pump) or the asyncio thread (inverted).
  bool try_start(exchange::exchange* s) override;

  // Asyncio thread: starts new streams, at most `limit` of them, and
  // delivers the news waiting now. Returns false with a Python error set if
  // something failed badly. backlog() then says whether new streams were
  // left for the next call; the caller must make one soon (pump: no wake
  // comes for them).
  bool drain(size_t limit);
  bool backlog() const { return backlog_; }
  // A request's coroutine was made, and its task has taken its first step
  // (or the coroutine ended, or went, without one).
  void coroutine_made() { ++awaiting_first_step_; }
  void first_step_taken() { --awaiting_first_step_; }
  // The most requests whose tasks wait for their first step: a drain starts
  // new ones only up to it. Every request's scope, task and coroutine are
  // live until its task runs; hundreds at once (a pass over many
  // connections) push Python's youngest generation past its threshold (700
  // objects by default) every few dozen requests, and each collection moves
  // them all to an older one (so collections of the older ones follow).
  // A turn of asyncio's loop this size stays under it.
  static constexpr size_t requests_per_turn = 32;
  // The eventfd the asyncio side watches (pump); read it before drain().
  int wake_fd() const { return wake_fd_; }
  void clear_wake_fd();
  // Loop thread, once its run is over: wakes the asyncio side whatever it
  // is doing, so it sees the server has stopped.
  void wake_after_stop();

  // Any thread: queues `r`'s news and wakes the asyncio side if it must.
  void post_news(asgi_request* r);

  // For the request objects (asyncio thread).
  PyObject* receive(asgi_request* r, uint64_t generation);
  PyObject* send(asgi_request* r, uint64_t generation, PyObject* message);
  void finish(asgi_request* r, uint64_t generation, PyObject* error);
  void log_exception(const char* message, const exchange::exchange* s);

  // The server is closing while some requests' tasks have not finished (a
  // stop past the graceful budget): their app side is let go of, before the
  // streams go with the server. Their receive() and send() raise from now
  // on, and their end changes nothing.
  void abandon();
  PyObject* owner() const { return owner_; }

  // Counters for probes: eventfd writes to wake the asyncio side.
  uint64_t wakes() const { return wakes_.load(std::memory_order_relaxed); }

 private:
  asgi_runner() = default;
  void wake_asyncio();
  bool start_request(exchange::exchange* s);
  PyObject* start_task(PyObject* coroutine);
  void deliver_news(asgi_request* r);
  asgi_request* take_request();
  void recycle(asgi_request* r);
  py_ref build_scope(exchange::exchange& s);
  bool set_target(PyObject* d, const exchange::request_head& head);
  bool set_client(PyObject* d, const exchange::peer_info& peer);
  bool set_scheme_and_server(PyObject* d, exchange::exchange& s, bool websocket);
  // The tls extension (a TLS connection's scope): what its handshake settled on.
  bool add_tls_extension(PyObject* extensions, const net::tls_facts& tls);
  bool make_templates(const asgi_options& options);
  bool make_listener_addresses(const asgi_options& options);
  bool add_app_headers(asgi_request* r, PyObject* message, bool trailers);
  PyObject* event_for(asgi_request* r, bool& ready);
  // WebSocket (websocket.cc).
  PyObject* websocket_event(asgi_request* r, bool& ready);
  PyObject* websocket_message(asgi_request* r, const exchange::client_message& m);
  PyObject* websocket_disconnect(asgi_request* r);
  PyObject* send_websocket(asgi_request* r, PyObject* type, PyObject* message);
  PyObject* websocket_accept(asgi_request* r, PyObject* message);
  PyObject* websocket_send(asgi_request* r, PyObject* message);
  PyObject* websocket_close(asgi_request* r, PyObject* message);
  void finish_websocket(asgi_request* r, PyObject* error);
  PyObject* next_event(asgi_request* r, bool& ready);
  PyObject* send_start(asgi_request* r, PyObject* message);
  PyObject* send_body(asgi_request* r, PyObject* message);
  PyObject* send_pathsend(asgi_request* r, PyObject* message);
  PyObject* send_trailers(asgi_request* r, PyObject* message);
  PyObject* send_early_hint(asgi_request* r, PyObject* message);  // early_hint.cc
  void end_of_body(asgi_request* r);
  // Lets go of r's in-flight payloads once none is still queued.
  static void let_go_of_written(asgi_request* r);
  void let_go_of_lingering();
  PyObject* resolved(PyObject* value);
  PyObject* pending_future(py_ref& slot);
  void settle(py_ref& future, PyObject* value);
  PyObject* disconnect_event();

  PyObject* owner_ = nullptr;  // borrowed: it owns this runner
  py_ref app_;
  py_ref loop_;
  py_ref log_exception_;
  py_ref state_;
  py_ref create_task_;
  py_ref create_future_;
  // A request's task is made by calling asyncio.Task with these keywords,
  // unless the loop has a task factory (asked once per drain): loop.create_task
  // then. The fixed name spares the "Task-<n>" each unnamed task formats.
  py_ref task_type_;
  py_ref get_task_factory_;
  py_ref task_kwnames_;  // ("loop", "name"), and "eager_start" when eager_
  bool eager_ = false;
  py_ref task_name_;
  bool factory_checked_ = false;
  bool has_factory_ = false;
  // Every key a scope gets, in the order it has them, and the small dicts
  // each scope gets a copy of: one set for HTTP, one for WebSocket.
  struct scope_templates {
    py_ref scope;
    py_ref asgi;
    py_ref extensions;
  };
  scope_templates http_templates_;
  scope_templates websocket_templates_;
  py_ref disconnect_;  // {"type": "http.disconnect"}, shared
  py_ref websocket_connect_;  // {"type": "websocket.connect"}, shared
  py_ref last_address_;
  std::string last_address_text_;
  // Per listener: the scope's "server" (a (host, port) tuple, or None for a
  // Unix socket) and its host alone (null for a Unix socket).
  std::vector<py_ref> servers_;
  std::vector<py_ref> server_hosts_;
  py_ref server_cert_;  // str, or None without TLS
  std::string root_path_;
  bool pump_ = true;

  // Loop -> asyncio.
  std::unique_ptr<handoff::spsc_ring<exchange::exchange>> new_streams_;
  std::vector<exchange::exchange*> inverted_new_;  // inverted: same thread, no ring
  bool backlog_ = false;
  size_t awaiting_first_step_ = 0;
  handoff::notice_queue news_;
  std::atomic<bool> parked_{true};
  int wake_fd_ = -1;
  std::atomic<uint64_t> wakes_{0};

  // The pool of request objects (asyncio thread).
  std::vector<std::unique_ptr<asgi_request>> all_;
  std::vector<asgi_request*> free_;
  // Requests (ended, or serving again) whose in-flight payloads were still
  // queued when their request ended: looked at on each drain.
  std::vector<asgi_request*> lingering_;
};

// Makes the AsgiServer type for `module` (its execution), into `t`.
bool asgi_server_type_add(PyObject* module, bridge_types& t);

}  // namespace baton::bridge
