// An exchange is one request in flight, whatever protocol carried it: the
// request head (an owned copy), its body as it arrives, and the response
// the application produces. It is the boundary between the loop, which
// owns the session and its socket, and the app side, which runs the
// application: the loop thread itself (inline), a pool thread, or an
// asyncio thread. The protocol that made it (HTTP/1 today) reads its wire
// into the exchange and writes the exchange's response onto its wire; the
// app side never sees the protocol.
//
// Threads. Methods under "app side" are called by one app-side thread at a
// time; those under "loop side" only on the loop thread. The two sides meet
// in a few fields guarded by a small lock (the published output and the body
// bytes in transit) and in one atomic word of flags. Neither side ever
// waits for the other inside an exchange method: every app-side call that
// cannot complete returns `pending`, and the app waits through its own
// waker, which the loop calls when something changes.
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
//
// Flow control. Request body bytes are buffered ahead of the app up to a
// window (the loop stops reading past it and resumes when the app has
// consumed half); response bytes are accepted while fewer than a window's
// worth are queued and unsent, and try_send returns `pending` past it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/forwarded.h"
#include "core/exchange/head.h"
#include "core/exchange/response.h"
#include "core/exchange/upgrade.h"
#include "core/handoff/notice_queue.h"
#include "core/net/output_queue.h"
#include "core/util/byte_buffer.h"
#include "core/util/spin_lock.h"

namespace baton::loop {
class event_loop;
}

namespace baton::exchange {

class exchange;

// Settings shared by every exchange of a server; read-only once serving.
struct exchange_settings {
  size_t body_window = size_t{1024} * 1024;  // request body bytes buffered ahead of the app
  size_t output_window = 1u << 20;   // response bytes queued and not yet written
  const std::atomic<bool>* stopping = nullptr;  // a graceful stop has begun: say close
};

// Called by the loop when an exchange has news for the app side (body
// bytes, output credit, cancellation). Any thread may be the caller's;
// wake() must be cheap and must not block.
class app_waker {
 public:
  virtual void wake() = 0;

 protected:
  ~app_waker() = default;
};

// The loop side's owner of exchanges (the server).
class exchange_owner {
 public:
  // Loop thread: the app side of a directly-run exchange (inline) has news.
  virtual void exchange_news(exchange* x) = 0;
  // Loop thread: the last reference to `x` is gone.
  virtual void recycle(exchange* x) = 0;

 protected:
  ~exchange_owner() = default;
};

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

class exchange final : public handoff::notice_link {
 public:
  exchange(exchange_owner& owner, loop::event_loop& loop, const exchange_settings& settings);
  ~exchange();
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  void add_ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // The last release must happen on the loop thread (see Lifetime above).
  void release();

  // ---------------------------------------------------------------- app side
  const request_head& head() const { return head_; }
  // The client: the connection's peer, or whom a trusted proxy names.
  peer_info peer() const {
    return {std::string_view(peer_address_, peer_address_length_), peer_port_, listener_};
  }
  // "https" when the connection is secure or a trusted proxy says the client used it; "http" otherwise.
  std::string_view scheme() const { return https_ ? "https" : "http"; }
  // What the connection's TLS settled on, or null when it is plain TCP
  // (whatever a proxy says).
  const net::tls_facts* tls() const { return secure_ ? &tls_ : nullptr; }
  // The port the client connected to, when a trusted proxy says; "" otherwise.
  std::string_view forwarded_port() const { return {forwarded_port_, forwarded_port_length_}; }

  enum class read_status : uint8_t { data, pending, end, error };
  // `data`: `out` holds at least one byte, valid until the next try_read or
  // consume. `pending`: nothing yet; the waker will be called. `error`: see
  // body_error_status(). The first `pending` of a request that sent
  // Expect: 100-continue asks the loop to send 100 Continue.
  read_status try_read(std::string_view& out);
  void consume(size_t n);
  // Reads the next `length` body bytes into `destination` with no copy on
  // the loop's side: what is already buffered is copied now, and the loop
  // receives the rest straight into `destination`. Returns false when all of
  // it is there already; otherwise the destination stays registered (and
  // must stay valid) until target_active() is false, which the loop makes it
  // when the destination is full or the body ends, fails or is cancelled.
  // target_filled() then says how much arrived.
  bool read_into(char* destination, size_t length);
  bool target_active() const { return target_active_.load(std::memory_order_acquire); }
  // Tests only: called inside read_into() between its last look at the
  // buffers and the registration, where a delivery can race it.
  static void (*before_register_for_tests)(exchange&);
  size_t target_filled() const { return target_filled_.load(std::memory_order_acquire); }
  // 400 (malformed or incomplete), 408 (body timeout), 413 (too large), or 0
  // when the client is gone.
  int body_error_status() const { return body_error_status_.load(std::memory_order_acquire); }

  // The response. begin_response() may be called again until the head is
  // committed (WSGI's exc_info); it discards the fields added so far.
  // `status_line` is the code and reason phrase ("200 OK").
  void begin_response(int status_code, std::string_view status_line);
  // False when the field is invalid (not a token name, CR/LF/NUL/CTL in the
  // value, a malformed or conflicting Content-Length), or once the head is
  // committed; nothing is added then.
  // The connection's own fields (Connection, Keep-Alive, Transfer-Encoding)
  // are the protocol's: they are taken note of, not added.
  bool add_header(std::string_view name, std::string_view value);
  // A field sent after the body, before finish(); false (nothing added)
  // when it is invalid, frames or routes the message, or is the
  // connection's own.
  bool add_trailer(std::string_view name, std::string_view value);
  bool has_content_length() const { return response_.length >= 0; }
  bool response_committed() const { return response_.committed; }
  int response_status() const { return response_.status; }
  // Loop side, once the app side is done: the body bytes the response
  // carried and its fields (for the access log).
  uint64_t response_body_bytes() const { return response_.sent; }
  const field_list& response_fields() const { return response_.fields; }
  const field_list& response_trailers() const { return response_.trailers; }

  enum class send_status : uint8_t { accepted, pending, gone };
  // Queues body bytes (committing the head first). `pending`: nothing was
  // taken, the output window is full; wait for the waker and try again.
  // `gone`: the client left or the response already ended; stop producing.
  send_status try_send(const char* data, size_t length);
  // Queues the bytes even past the window (the caller then waits for
  // output_ready() before its next send): for senders that cannot keep the
  // bytes to try again, like an ASGI send() that must take its message.
  send_status send_past_window(const char* data, size_t length);
  send_status send_body(const char* data, size_t length, bool external, bool past_window = false);
  // As try_send, but `data` is queued without being copied: the caller keeps
  // the memory valid until external_sent() says the loop is done with it
  // (written, or dropped because the client left).
  send_status try_send_external(const char* data, size_t length);
  // True when no external bytes of this exchange remain queued anywhere.
  // When false, the waker is called once they are gone.
  bool external_sent();
  // Queues `length` bytes of `fd` from `offset`; always takes fd (closing it
  // when the exchange is gone). Files cost no memory, so no window applies.
  send_status send_file(int fd, off_t offset, uint64_t length);
  // Hands queued output to the loop now (a streamed body piece).
  void flush();
  // The body is complete (the protocol marks the end where it frames one).
  void finish();
  // The application failed: a `status` answer if nothing was committed,
  // otherwise the connection is closed so the client sees it incomplete.
  // `close`: close after the answer even if the connection could be kept.
  void fail(int status = 500, bool close = false);
  // The server answers on its own (a native route): a whole response with
  // a fixed body, kept alive only when the request has all arrived.
  // `extra_fields` alternate names and values.
  void answer(int status, std::string_view content_type, std::string_view body,
              std::initializer_list<std::string_view> extra_fields = {}, bool close = false);
  // What a native route answering on its own says of its response: the
  // connection is kept only when the whole request has arrived.
  void keep_alive_only_if_complete() { response_.strict_keep_alive = true; }
  bool finished() const { return response_.finished; }
  bool cancelled() const { return (state_.load(std::memory_order_acquire) & k_cancelled) != 0; }
  // The client half-closed after sending the whole request (it will send
  // nothing more; it may still read the answer). ASGI reports it as
  // http.disconnect to an app that listens for one.
  bool client_finished() const { return (state_.load(std::memory_order_acquire) & k_client_eof) != 0; }
  // True when the output window has room again (or the exchange is gone).
  bool output_ready() const;
  // App side, before it waits for output credit: true when the window has
  // room now; otherwise hands the queued output to the loop, asks it to call
  // the waker once it has drained the window to half, and returns false.
  // A wait on output_ready() alone is never woken.
  bool credit_or_wake_me();

  // ------------------------------------------- after a switch of protocols
  // The switch the request may make (upgrade().websocket() is false when it
  // may make none). finish() on a 101 for it switches: from then on the
  // exchange carries messages (see upgrade.h), and the protocol that read
  // the request hands its session to the one switched to.
  const upgrade_offer& upgrade() const { return upgrade_; }
  bool switched() const { return (state_.load(std::memory_order_acquire) & k_switched) != 0; }
  // Begins the 101 that makes the offered switch, with the fields the
  // switch needs (Upgrade, Sec-WebSocket-Accept, and the extensions agreed);
  // the app adds its own (a subprotocol), then finish() sends it.
  void begin_switch_response();
  // The next message from the client: `data` with its kind and payload
  // (valid until consume_message()), `pending` (the waker will be called),
  // `end` after the client's close (which came as a message of its own), or
  // `error` when the connection went without one.
  read_status try_read_message(message_kind& kind, std::string_view& payload);
  void consume_message();
  // Queues a message for the client, framed by the offer's wire, past the
  // window (wait for output_ready() before the next, as after
  // send_past_window). A close is the app's last message. `gone`: the client
  // left, or the app has closed already.
  send_status send_message(message_kind kind, const char* data, size_t length);
  // Loop side: the app's close has been queued (take its output after
  // asking, and the close is in it).
  bool app_closed() const { return (state_.load(std::memory_order_acquire) & k_app_closed) != 0; }
  // Loop side, before dispatch: the switch on offer. The head is kept in
  // storage of its own size from now on: a WebSocket holds it for as long
  // as it is open.
  upgrade_offer& offer_upgrade();
  // Loop side, after a switch: frees the storage of the channels' buffers
  // that hold nothing (an open WebSocket between messages keeps none).
  // Returns the bytes freed.
  size_t release_channel_memory();
  // Loop side: asks the app side to give back its own storage (an idle
  // WebSocket's), which it does on the wake this makes.
  void ask_app_to_release_memory();
  // App side, on a wake: when the loop asked, frees the app side's
  // buffers that hold nothing. Returns the bytes freed.
  size_t release_app_memory_if_asked();
  // Tests only (reads both sides' storage unguarded): the bytes of storage
  // the exchange holds beside itself, for its head, channels and response.
  size_t storage_bytes() const;
  // Loop side: a whole message from the client, for the app.
  void deliver_message(message_kind kind, const char* data, size_t length);
  // The same, from a buffer the exchange may take instead of copying it
  // (when the buffer has front room for a message's header and the app
  // has taken everything before it). `payload` is left empty.
  void deliver_message(message_kind kind, byte_buffer& payload);

  void set_waker(app_waker* waker) { waker_.store(waker, std::memory_order_release); }
  // The app side is done with the exchange: publishes what is left, unhooks
  // the waker and hands the app side's reference to the loop. The caller
  // must not touch the exchange afterwards.
  void app_done();
  // The app side's reference, taken at dispatch.
  void attach_app() { add_ref(); }

  // --------------------------------------------------------------- loop side
  // Makes the exchange the request whose head is `parsed`, whose views all
  // point into raw[0, raw_length) (or are constants): copies those bytes
  // and re-points every view into the copy. `wire` writes its response.
  // `proxy`: the peer is a trusted proxy; its forwarding headers decide
  // peer(), scheme() and forwarded_port().
  void reset_for(const request_head& parsed, const char* raw, size_t raw_length, const peer_info& peer,
                 const response_wire& wire, const proxy_settings* proxy = nullptr);
  // News goes to the owner directly (the app runs on the loop thread) or
  // through the loop's inbox (another thread).
  void set_direct(bool direct) { direct_ = direct; }
  bool direct() const { return direct_; }

  // Body bytes for the app. `last`: they complete the body, and the app must
  // never see them without also seeing the end (its answer's keep-alive
  // depends on it), so the end is marked under the same lock.
  void deliver_body(const char* data, size_t length, bool last = false);
  void deliver_body_end();
  void deliver_body_error(int status);
  // For a socket read straight into the exchange (no copy on the way in):
  // room for `length` bytes, then how many arrived. The bytes go to the app
  // side by swapping buffers, not copying, when it has taken the last ones.
  char* body_space(size_t length) { return loop_in_.prepare(length); }
  void body_received(size_t length, bool last);
  // Loop: where a direct read should go when the app has registered a
  // destination (read_into); null when it has not. `room` is what it takes.
  char* target_space(size_t& room);
  void target_received(size_t length, bool last);
  bool body_ended() const { return (state_.load(std::memory_order_acquire) & (k_body_end | k_body_error)) != 0; }
  // Unconsumed body bytes anywhere in the exchange.
  // Sequentially consistent: HTTP/2 reads it after raising the read-paused
  // flag, against the app side's consume (which lowers it, then reads the flag).
  size_t body_buffered() const { return in_buffered_.load(std::memory_order_seq_cst); }
  // Loop: reading stops because `window` is full (or, for messages, more
  // than `messages` wait). Returns false (and reading may continue) when
  // the app consumed enough meanwhile. Reading resumes once the app has
  // consumed half of the body window, and of the messages.
  bool pause_reading(size_t window, uint32_t messages = 0);
  // Messages delivered that the app has not consumed.
  uint32_t messages_waiting() const { return messages_waiting_.load(std::memory_order_acquire); }
  // The app has asked for body bytes (read, consumed or registered a
  // destination). Until then the loop holds only a first, small window of a
  // large body: the rest waits in the socket, and a read_into() then takes
  // it from there with no copy in user space.
  bool app_reading() const { return app_reading_.load(std::memory_order_relaxed); }
  bool reading_paused() const { return (state_.load(std::memory_order_acquire) & k_read_paused) != 0; }

  // The response head is committed: its status, fields and length are fixed
  // from here on, and a protocol that sends the head as data (HTTP/2) reads
  // them through response_head() on the loop thread. Seen before (or with)
  // the first body bytes the app publishes.
  bool head_ready() const { return (state_.load(std::memory_order_acquire) & k_head_ready) != 0; }
  const response_state& response_head() const { return response_; }
  // Moves the output the app published into `dest`. Returns the bytes moved.
  uint64_t take_output(net::output_queue& dest);
  // The bytes the connection still holds unsent for this exchange; wakes an
  // app waiting for output credit when they fall under half the window.
  void set_backlog(uint64_t bytes);
  // True once (and clears it) when the app asked for the body of an
  // Expect: 100-continue request.
  bool take_continue_request();
  bool app_is_done() const { return (state_.load(std::memory_order_acquire) & k_app_done) != 0; }
  // Whether the response asked to close the connection after it.
  bool close_after() const { return close_after_.load(std::memory_order_acquire); }
  // The client is gone: the app side's reads fail, its writes return gone,
  // and its waker is called.
  void cancel();
  void mark_client_finished();
  // Taken from the inbox: clears the queued mark (before looking at the
  // exchange, so news posted from now on posts again).
  void clear_queued() { state_.fetch_and(~k_queued, std::memory_order_acq_rel); }
  // True once (and clears it) when the app asked for output to go out now.
  bool take_flush_request() {
    return (state_.fetch_and(~k_flush, std::memory_order_acq_rel) & k_flush) != 0;
  }
  // The inbox delivers an exchange's news as the exchange itself (kind 0)
  // and its done notice with kind k_done_notice.
  static constexpr uint8_t k_done_notice = 1;
  static exchange* from_notice(handoff::notice_link* link, bool& done) {
    done = link->notice_kind == k_done_notice;
    return done ? static_cast<done_notice*>(link)->owner : static_cast<exchange*>(link);
  }

  // Loop-side links.
  exchange_sink* sink = nullptr;  // the protocol whose request this is; null once it let go
  int64_t started = 0;            // when the head was parsed (a metrics::stopwatch reading), if the server times requests
  exchange* fifo_next = nullptr;  // the server's queue of exchanges waiting for a thread
  uint64_t pool_order = 0;        // set by the loop when it hands the job to the pool: the order it did so in
  uint64_t generation = 0;        // bumped by reset_for(): which request this is
  int32_t stream_id = 0;          // HTTP/2: the stream the request came on
  uint64_t bytes_received = 0;    // the request's head and the body bytes delivered so far (the metrics)

 private:
  static constexpr uint32_t k_cancelled = 1u << 0;
  static constexpr uint32_t k_body_end = 1u << 1;
  static constexpr uint32_t k_body_error = 1u << 2;
  static constexpr uint32_t k_app_done = 1u << 3;
  static constexpr uint32_t k_queued = 1u << 4;
  static constexpr uint32_t k_read_paused = 1u << 5;
  static constexpr uint32_t k_wants_continue = 1u << 6;
  static constexpr uint32_t k_wants_credit = 1u << 7;
  static constexpr uint32_t k_flush = 1u << 8;
  static constexpr uint32_t k_wants_external = 1u << 9;
  static constexpr uint32_t k_client_eof = 1u << 10;
  static constexpr uint32_t k_switched = 1u << 11;
  static constexpr uint32_t k_app_closed = 1u << 12;
  static constexpr uint32_t k_release_asked = 1u << 13;
  static constexpr uint32_t k_head_ready = 1u << 14;
  // A message in the body channel: its kind, then its length (4 bytes,
  // little-endian), then the payload; delivered whole, so it never spans
  // the two buffers the app side swaps.
  static constexpr size_t message_header_size = 5;

  // Held while touching what both sides share. A direct exchange's two
  // sides are one thread, so it takes no lock at all.
  class shared_guard {
   public:
    explicit shared_guard(exchange& x) : lock_(x.direct_ ? nullptr : &x.lock_) {
      if (lock_ != nullptr) lock_->lock();
    }
    ~shared_guard() {
      if (lock_ != nullptr) lock_->unlock();
    }
    shared_guard(const shared_guard&) = delete;
    shared_guard& operator=(const shared_guard&) = delete;

   private:
    util::spin_lock* lock_;
  };

  void copy_head(const request_head& parsed, const char* raw, size_t raw_length);
  void set_client(const peer_info& peer, const proxy_settings* proxy);
  void reset_channels();
  void wake_app();
  // Tells the loop the exchange has news. Direct exchanges tell the owner
  // only when `urgent` (the inline dispatcher looks at the exchange after
  // the app returns anyway).
  void notify_loop(bool urgent);
  bool consume_and_resume(size_t n);
  void mark_app_reading() {
    if (!app_reading_.load(std::memory_order_relaxed)) app_reading_.store(true, std::memory_order_relaxed);
  }
  void publish();
  void commit(bool body_is_empty);
  bool replace_with_body_error();
  bool refuse_after_finish();
  bool body_complete() const { return (state_.load(std::memory_order_acquire) & k_body_end) != 0; }
  // The part of a body that send_body() or send_file() may still queue
  // under the app's Content-Length.
  uint64_t clip_to_length(uint64_t length);
  void release_target();
  size_t fill_target(const char*& data, size_t length, bool last);

  exchange_owner& owner_;
  loop::event_loop& loop_;
  const exchange_settings& settings_;
  const response_wire* wire_ = nullptr;
  std::atomic<int> refs_{0};
  std::atomic<uint32_t> state_{0};
  std::atomic<app_waker*> waker_{nullptr};
  bool direct_ = false;

  // The head: a copy of the raw bytes, and views into it.
  byte_buffer head_bytes_;
  std::vector<field> fields_;
  request_head head_;
  char peer_address_[48] = {};
  size_t peer_address_length_ = 0;
  uint16_t peer_port_ = 0;
  uint16_t listener_ = 0;
  bool https_ = false;
  bool secure_ = false;  // the connection is TLS (tls_ holds what it settled on)
  net::tls_facts tls_;
  char forwarded_port_[6] = {};
  size_t forwarded_port_length_ = 0;

  // Body in transit: the loop appends to shared_in_; the app swaps it with
  // its own app_in_ when that runs dry.
  util::spin_lock lock_;
  byte_buffer shared_in_;         // guarded by lock_
  net::output_queue shared_out_;  // guarded by lock_
  byte_buffer app_in_;            // app side only
  byte_buffer loop_in_;           // loop side only: a socket read in progress
  // The app's registered destination (read_into): set by the app, filled
  // and released by the loop.
  char* target_ = nullptr;
  size_t target_size_ = 0;
  std::atomic<size_t> target_filled_{0};
  std::atomic<bool> target_active_{false};
  std::atomic<size_t> in_buffered_{0};
  std::atomic<uint32_t> messages_waiting_{0};
  std::atomic<uint32_t> message_limit_{0};  // the `messages` of the last pause_reading
  std::atomic<bool> app_reading_{false};   // set by the app side only
  std::atomic<int> body_error_status_{0};  // written before k_body_error is set
  bool continue_asked_ = false;            // app side

  // Output: built by the app in app_out_, published to shared_out_.
  net::output_queue app_out_;
  std::atomic<uint64_t> published_{0};  // bytes in shared_out_
  std::atomic<uint64_t> backlog_{0};    // bytes the connection holds unsent
  std::atomic<bool> close_after_{false};
  std::atomic<uint64_t> external_unsent_{0};  // bytes of external runs still queued
  done_notice done_notice_;

  response_state response_;  // app side only (read by the loop once the app side is done)
  upgrade_offer upgrade_;    // written by the loop before dispatch, read by the app side
  size_t message_taken_ = 0; // app side: the bytes of the message try_read_message returned
};

}  // namespace baton::exchange
