// An exchange is one request in flight, whatever protocol carried it. It is
// the boundary between the loop, which owns the session and its socket, and
// the app side, which runs the application: the loop thread itself
// (inline), a pool thread, or an asyncio thread. The protocol that made it
// reads its wire into the exchange and writes the exchange's response onto
// its wire; the app side never sees the protocol.
//
// It is made of four parts, each a file with one idea and its own thread
// contract, and the meeting point they share:
//   request.h       the head and the client, fixed once dispatched
//   body_in.h       the request body in transit, its window, the zero-copy read
//   response_out.h  the response as data and the queue of its body bytes and files
//   messages.h      what it carries after a protocol switch (a WebSocket)
//   meeting.h       the flags, lock and waker the two sides meet at
// This class holds them, the loop side's links, and the lifetime. Its
// methods are the parts', named for the app and the protocols that call
// them; each part's header says what they do.
//
// Lifetime. An exchange is reference counted. The protocol holds one
// reference while the exchange is its current request; the app side holds
// one from dispatch until app_done(); a news notice sitting in the loop's
// inbox holds one. app_done() does not drop the app side's reference: it
// posts it to the loop inside a "done" notice (or, for a directly-run
// exchange, leaves it to the dispatcher on the loop thread), and touches
// the exchange no more. So every release happens on the loop thread, which
// recycles the exchange for a later request: nothing of the old request
// survives reset_for().
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "core/exchange/body_in.h"
#include "core/exchange/forwarded.h"
#include "core/exchange/head.h"
#include "core/exchange/meeting.h"
#include "core/exchange/messages.h"
#include "core/exchange/request.h"
#include "core/exchange/response.h"
#include "core/exchange/response_out.h"
#include "core/exchange/upgrade.h"
#include "core/handoff/notice_queue.h"
#include "core/net/output_queue.h"
#include "core/loop/thread_contract.h"

namespace baton::exchange {

// The protocol an exchange belongs to, for the loop side's news about it.
class exchange_sink {
 public:
  // Loop thread: the app side published output, consumed body, or asked
  // for something (100 Continue, output now).
  virtual void on_exchange_news(exchange* x) = 0;
  // Loop thread: the app side is done (its output is published).
  virtual void on_app_done(exchange* x) = 0;

 protected:
  ~exchange_sink() = default;
};

// The notice app_done() posts; it carries the app side's reference.
struct done_notice : handoff::notice_link {
  exchange* owner = nullptr;
};

// What the loop side hangs on an exchange that is not the exchange's own:
// the exchange carries them so that no table is needed, and never reads them.
struct loop_links {
  exchange_sink* sink = nullptr;  // the protocol whose request this is; null once it let go
  int32_t sink_key = 0;           // the protocol's name for it (HTTP/2: its stream id)
  int64_t started = 0;            // when the head was parsed (a metrics::stopwatch reading), if the server times requests
  exchange* fifo_next = nullptr;  // the server's queue of exchanges waiting for a thread
  uint64_t pool_order = 0;        // the order the loop handed the job to the pool in
};

class exchange final : public handoff::notice_link {
 public:
  using read_status = baton::exchange::read_status;
  using send_status = baton::exchange::send_status;

  exchange(exchange_owner& owner, loop::event_loop& loop, const exchange_settings& settings);
  ~exchange();
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  void add_ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // The last release must happen on the loop thread (see Lifetime above).
  void release();

  // ------------------------------------------------------ the request (request.h)
  const request_head& head() const { return request_.head(); }
  peer_info peer() const { return request_.peer(); }
  std::string_view scheme() const { return request_.scheme(); }
  const net::tls_facts* tls() const { return request_.tls(); }
  std::string_view forwarded_port() const { return request_.forwarded_port(); }

  // ----------------------------------------------- the body, app side (body_in.h)
  read_status try_read(std::string_view& out) { return in_.try_read(out); }
  void consume(size_t n) { in_.consume(n); }
  bool read_into(char* destination, size_t length) { return in_.read_into(destination, length); }
  bool target_active() const { return in_.target_active(); }
  size_t target_filled() const { return in_.target_filled(); }
  // 400 (malformed or incomplete), 408 (body timeout), 413 (too large), or 0
  // when the client is gone.
  int body_error_status() const { return meeting_.body_error_status.load(std::memory_order_acquire); }

  // ----------------------------------------- the response, app side (response_out.h)
  void begin_response(int status_code, std::string_view status_line) { out_.begin(status_code, status_line); }
  bool add_header(std::string_view name, std::string_view value) { return out_.add_header(name, value); }
  bool add_valid_header(std::string_view name, std::string_view value) { return out_.add_valid_header(name, value); }
  bool add_trailer(std::string_view name, std::string_view value) { return out_.add_trailer(name, value); }
  // An interim response (103 Early Hints) before the head, sent at once:
  // see response_out.h.
  void begin_interim() { out_.begin_interim(); }
  bool add_interim_field(std::string_view name, std::string_view value) { return out_.add_interim_field(name, value); }
  bool send_interim(int status) { return out_.send_interim(status); }
  bool has_content_length() const { return out_.state().length >= 0; }
  bool response_committed() const { return out_.state().committed; }
  int response_status() const { return out_.state().status; }
  bool finished() const { return out_.state().finished; }
  // `pending`: nothing was taken, the output window is full; wait for the
  // waker and try again. `gone`: the client left or the response already
  // ended; stop producing.
  send_status try_send(const char* data, size_t length) { return out_.send_body(data, length, false, false); }
  // Queues the bytes even past the window (the caller then waits for
  // output_ready() before its next send): for senders that cannot keep the
  // bytes to try again, like an ASGI send() that must take its message.
  send_status send_past_window(const char* data, size_t length) { return out_.send_body(data, length, false, true); }
  send_status send_body(const char* data, size_t length, bool external, bool past_window = false) {
    return out_.send_body(data, length, external, past_window);
  }
  // As try_send, but `data` is queued without being copied: the caller keeps
  // the memory valid until external_sent() says the loop is done with it
  // (written, or dropped because the client left).
  send_status try_send_external(const char* data, size_t length) { return out_.send_body(data, length, true, false); }
  // True when no external bytes of this exchange remain queued anywhere.
  // When false, the waker is called once they are gone.
  bool external_sent() { return out_.external_sent(); }
  void drop_output_if_cancelled() { out_.drop_if_cancelled(); }
  send_status send_file(int fd, off_t offset, uint64_t length) { return out_.send_file(fd, offset, length); }
  // Hands queued output to the loop now (a streamed body piece).
  void flush() { out_.flush(); }
  // The body is complete; on the offered switch's answer, messages flow
  // from now on (messages.h).
  void finish() { out_.finish(messages_.switching(out_.state().status)); }
  // The application failed: a `status` answer if nothing was committed,
  // otherwise the connection is closed so the client sees it incomplete.
  // `close`: close after the answer even if the connection could be kept.
  void fail(int status = 500, bool close = false) { out_.fail(status, close); }
  // The server answers on its own (a native route): a whole response with
  // a fixed body, kept alive only when the request has all arrived.
  // `extra_fields` alternate names and values.
  void answer(int status, std::string_view content_type, std::string_view body,
              std::initializer_list<std::string_view> extra_fields = {}, bool close = false) {
    out_.answer(status, content_type, body, extra_fields, close);
  }
  void keep_alive_only_if_complete() { out_.keep_alive_only_if_complete(); }
  bool output_ready() const { return out_.output_ready(); }
  // App side, before it waits for output credit: true when the window has
  // room now; otherwise hands the queued output to the loop, asks it to call
  // the waker once it has drained the window to half, and returns false.
  // A wait on output_ready() alone is never woken.
  bool credit_or_wake_me() { return out_.credit_or_wake_me(); }
  bool cancelled() const { return meeting_.has(meeting::cancelled); }
  // The client half-closed after sending the whole request (it will send
  // nothing more; it may still read the answer). ASGI reports it as
  // http.disconnect to an app that listens for one.
  bool client_finished() const { return meeting_.has(meeting::client_eof); }

  // --------------------------------------------- after a switch (messages.h)
  const upgrade_offer& upgrade() const { return messages_.offer(); }
  bool switched() const { return messages_.switched(); }
  void begin_switch_response() { messages_.begin_switch_response(); }
  read_status try_read_message(client_message& m) { return messages_.try_read(m); }
  void consume_message() { messages_.consume(); }
  send_status send_message(message_kind kind, const char* data, size_t length, in_place_payload* keep = nullptr) {
    return messages_.send(kind, data, length, keep);
  }
  // App side, on a wake: when the loop asked, frees the app side's
  // buffers that hold nothing. Returns the bytes freed.
  size_t release_app_memory_if_asked();

  void set_waker(app_waker* waker) { meeting_.waker.store(waker, std::memory_order_release); }
  // The app side is done with the exchange: publishes what is left, unhooks
  // the waker and hands the app side's reference to the loop. The caller
  // must not touch the exchange afterwards.
  void app_done();
  // The app side's reference, taken at dispatch.
  void attach_app() { add_ref(); }

  // ------------------------------------------------------------- loop side
  // Makes the exchange the request whose head is `parsed` (see
  // request::assign); `wire` writes its response. `proxy`: the peer is a
  // trusted proxy; its forwarding headers decide peer(), scheme() and
  // forwarded_port().
  void reset_for(const request_head& parsed, const char* raw, size_t raw_length, const peer_info& peer,
                 const response_wire& wire, const proxy_settings* proxy = nullptr);
  // The same, taking the head's bytes and field array without a copy (see
  // request::adopt).
  void reset_for(const request_head& parsed, byte_buffer& bytes, std::vector<field>& fields, const peer_info& peer,
                 const response_wire& wire, const proxy_settings* proxy = nullptr);
  void set_direct(bool direct) { meeting_.direct = direct; }
  bool direct() const { return meeting_.direct; }

  void deliver_body(const char* data, size_t length, bool last = false) {
    loop_side("exchange::deliver_body");
    in_.deliver(data, length, last);
  }
  void deliver_body_end() {
    loop_side("exchange::deliver_body_end");
    in_.deliver_end();
  }
  void deliver_body_error(int status) {
    loop_side("exchange::deliver_body_error");
    in_.deliver_error(status);
  }
  char* body_space(size_t length) { return in_.space(length); }
  void body_received(size_t length, bool last) {
    loop_side("exchange::body_received");
    in_.received(length, last);
  }
  char* target_space(size_t& room) { return in_.target_space(room); }
  void target_received(size_t length, bool last) { in_.target_received(length, last); }
  bool body_ended() const { return in_.ended(); }
  size_t body_buffered() const { return in_.buffered(); }
  bool pause_reading(size_t window, uint32_t messages = 0) { return in_.pause_reading(window, messages); }
  uint32_t messages_waiting() const { return in_.units_waiting(); }
  bool app_reading() const { return in_.app_reading(); }
  bool reading_paused() const { return meeting_.has(meeting::read_paused); }
  uint64_t bytes_received() const { return in_.bytes_received(); }
  uint64_t body_bytes_received() const { return in_.body_bytes_received(); }

  bool head_ready() const { return out_.head_ready(); }
  // The response is finished on the app side (its app may still be at
  // work: a WSGI close(), an ASGI background task). Look before taking the
  // output: what is taken after it reads true is all the rest.
  bool response_whole() const { return out_.whole(); }
  // The interim responses waiting for a protocol that sends heads as data;
  // false when none waits. Look at head_ready() first: interim responses
  // queued before the head are then all here.
  bool take_interim(field_list& dest) { return out_.take_interim(dest); }
  const response_state& response_head() const { return out_.state(); }
  // Once the app side is done: the body bytes the response carried and its
  // fields (for the access log).
  uint64_t response_body_bytes() const { return out_.state().sent; }
  const field_list& response_fields() const { return out_.state().fields; }
  const field_list& response_trailers() const { return out_.state().trailers; }
  uint64_t take_output(net::output_queue& dest) {
    loop_side("exchange::take_output");
    return out_.take_output(dest);
  }
  void set_backlog(uint64_t bytes) { out_.set_backlog(bytes); }
  bool close_after() const { return out_.close_after(); }
  // True once (and clears it) when the app asked for the body of an
  // Expect: 100-continue request.
  bool take_continue_request() { return meeting_.take(meeting::wants_continue); }
  // True once (and clears it) when the app asked for output to go out now.
  bool take_flush_request() { return meeting_.take(meeting::flush); }
  bool app_is_done() const { return meeting_.has(meeting::app_done); }
  // The client is gone: the app side's reads fail, its writes return gone,
  // and its waker is called.
  void cancel();
  void mark_client_finished();
  // Taken from the inbox: clears the queued mark (before looking at the
  // exchange, so news posted from now on posts again).
  void clear_queued() { meeting_.lower(meeting::queued); }

  // Before dispatch: the switch on offer (the head kept in storage of its
  // own size from now on: a WebSocket holds it for as long as it is open).
  upgrade_offer& offer_upgrade() {
    request_.keep_exact();
    return messages_.offer();
  }
  void deliver_message(message_kind kind, const char* data, size_t length, bool ascii = false) {
    loop_side("exchange::deliver_message");
    messages_.deliver(kind, data, length, ascii);
  }
  void deliver_message(message_kind kind, byte_buffer& payload, bool ascii = false) {
    loop_side("exchange::deliver_message");
    messages_.deliver(kind, payload, ascii);
  }
  bool app_closed() const { return messages_.app_closed(); }
  // After a switch: frees the storage of the channels' buffers that hold
  // nothing (an open WebSocket between messages keeps none). Returns the
  // bytes freed.
  size_t release_channel_memory() { return in_.release_loop_memory() + out_.release_loop_memory(); }
  // Asks the app side to give back its own storage (an idle WebSocket's),
  // which it does on the wake this makes.
  void ask_app_to_release_memory() {
    meeting_.raise(meeting::release_asked);
    meeting_.wake_app();
  }
  // Tests only (reads both sides' storage unguarded): the bytes of storage
  // the exchange holds beside itself.
  size_t storage_bytes() const {
    return request_.storage_bytes() + in_.storage_bytes() + out_.storage_bytes() + messages_.storage_bytes();
  }

  // The inbox delivers an exchange's news as the exchange itself (kind 0)
  // and its done notice with kind k_done_notice.
  static constexpr uint8_t k_done_notice = 1;
  static exchange* from_notice(handoff::notice_link* link, bool& done) {
    done = link->notice_kind == k_done_notice;
    return done ? static_cast<done_notice*>(link)->owner : static_cast<exchange*>(link);
  }

  loop_links links;
  uint64_t generation = 0;  // bumped by reset_for(): which request this is

  // A direct exchange (its app runs on the loop thread, inside a pass) used
  // from a thread the app started, while the loop thread waits in the app
  // for it: that thread has the loop, paused inside the app, for as long as
  // this lives (loop/thread_contract.h). Nothing in a release build.
#ifndef NDEBUG
  class loop_borrow {
   public:
    explicit loop_borrow(const exchange& x) : pass_(x.direct() ? x.owner_.loop_of() : loop::running_loop()) {}

   private:
    loop::running_pass pass_;
  };
#else
  class loop_borrow {
   public:
    explicit loop_borrow(const exchange&) {}
  };
#endif

 private:
  // Where checks are built in: aborts unless this thread runs the owner's
  // loop. Nothing at all in a release build, not even the owner's virtual
  // loop_of(), which the compiler could not drop on its own.
#ifndef NDEBUG
  void loop_side(const char* call) const { loop::expect_loop(owner_.loop_of(), call); }
#else
  void loop_side(const char*) const {}
#endif

  // What every reset_for does once the request has its head.
  void reset_rest(uint64_t head_bytes, const peer_info& peer, const response_wire& wire, const proxy_settings* proxy);

  exchange_owner& owner_;
  std::atomic<int> refs_{0};
  meeting meeting_;
  request request_;
  body_in in_;
  response_out out_;
  messages messages_;
  done_notice done_notice_;
};

}  // namespace baton::exchange
