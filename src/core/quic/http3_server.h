// The HTTP/3 side of one QUIC connection: nghttp3 over the connection's
// streams (the control stream and QPACK's two, opened once the handshake is
// done, and the client's request streams), each request stream an
// exchange, exactly as an HTTP/2 stream is: its fields checked and made a
// request head (exchange/pseudo_head.h: the pseudo-fields, the authority,
// --max-headers and the field section's size, 431), passed through the
// request gate (the health path, static files, the drain's 503), handed to
// the host's app; its body fed to the exchange, the stream's credit given
// back as the app consumes; the response's head encoded from the
// exchange's data (exchange/pseudo_response.h) and its body read from the
// exchange's output into memory nghttp3 points at until acknowledged.
//
// An extended CONNECT (RFC 9220) is offered to the host as a switch, and
// after its app's 200 the stream carries the protocol the host gives it (a
// WebSocket), as HTTP/2's streams do (RFC 8441).
//
// Files: http3_server.cc (the connection's nghttp3, its callbacks, the
// streams' records), http3_requests.cc (a request's way to the app),
// http3_responses.cc (a response's way out), http3_switched.cc (streams
// that switch protocols).
//
// Owned by its connection; loop thread only. The calls that feed it return
// nghttp3's negative error code on a connection error, which the
// connection turns into its CONNECTION_CLOSE.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>

#include "core/exchange/exchange.h"
#include "core/exchange/pseudo_head.h"
#include "core/exchange/pseudo_response.h"
#include "core/quic/context.h"
#include "core/quic/request_stream.h"

namespace baton::quic {

// What the HTTP/3 side needs of its QUIC connection.
class connection_link {
 public:
  virtual const char* peer_for_log() const = 0;
  virtual exchange::peer_info peer() const = 0;
  // Output is due (a response's bytes, credit for the client): written
  // now, or after the datagram being read.
  virtual void wake() = 0;
  // The loop's clock, in milliseconds.
  virtual int64_t now_ms() const = 0;
  // A switched stream's deadline moved: the connection's timer is set again.
  virtual void replan() = 0;
  // Whether QUIC keeps the connection alive when nothing is said (PINGs
  // before the idle timeout): on while a switched protocol rides it.
  virtual void keep_alive(bool on) = 0;

 protected:
  ~connection_link() = default;
};

class http3_server final : public exchange::exchange_sink {
 public:
  http3_server(const context& ctx, connection_link& link);
  ~http3_server();
  http3_server(const http3_server&) = delete;
  http3_server& operator=(const http3_server&) = delete;

  // Once the handshake is done: nghttp3 made and its own streams opened on
  // `quic`. 0, or a negative error (ngtcp2's or nghttp3's).
  int start(ngtcp2_conn* quic);
  bool started() const { return h3_ != nullptr; }
  nghttp3_conn* native() const { return h3_; }

  // Bytes of a stream, in order; how many count against flow control as
  // consumed (nghttp3's own streams' bytes; request bodies are credited as
  // their apps consume them), or a negative nghttp3 error.
  int64_t read_stream(int64_t stream_id, const uint8_t* data, size_t length, bool fin, uint64_t now_ns);
  // After a datagram: the requests whose heads came in it go to the app.
  void dispatch_ready();
  // QUIC's news about a stream, passed on.
  int acked(int64_t stream_id, uint64_t length);
  int stream_closed(int64_t stream_id, uint64_t app_error_code);
  // The last of a stream's output and its FIN are in a packet.
  void sent_to_end(int64_t stream_id);
  void peer_reset(int64_t stream_id);
  // nghttp3 found the request on `stream_id` malformed (`why`): the stream
  // is reset (H3_MESSAGE_ERROR), the connection goes on.
  void malformed(int64_t stream_id, const char* why);
  void shutdown_read(int64_t stream_id);
  void unblock(int64_t stream_id);
  void allow_client_streams(uint64_t max_streams);
  // The connection is going: every stream lets go of its exchange (those
  // still in their apps are cancelled).
  void close_streams();
  // The requests inside their apps since before `entered_before_ms` (the
  // loop's clock): each logged, answered 504 if nothing of its answer went
  // out, else reset; what its app writes from now on is dropped. True when
  // there was one.
  bool abandon_overdue(int64_t entered_before_ms);
  size_t open_streams() const { return streams_.size(); }

  // Streams that switched protocols (http3_switched.cc): when one of them
  // (or a switch awaiting its app's answer) next needs doing (the loop's
  // clock; INT64_MAX: never), and doing it.
  int64_t switched_deadline() const;
  void switched_deadlines(int64_t now);
  // A drain: each switched protocol closes its own way (a WebSocket's 1001).
  void drain_switched();
  size_t release_idle_memory();

  // exchange::exchange_sink
  void on_exchange_news(exchange::exchange* x) override;
  void on_app_done(exchange::exchange* x) override;

 private:
  friend struct h3_callbacks;
  friend struct stream_carrier;

  const gate::request_gate& gate() const { return context_.gate; }
  request_stream* find(int64_t id) const;
  request_stream* find(const exchange::exchange* x) const;
  request_stream& open(int64_t id);
  void free_stream(request_stream* s);
  int stream_closed_by_h3(int64_t id, uint64_t code);
  void return_slot_when_done(request_stream& s);

  // A request's way to the app (http3_requests.cc).
  void add_field(int64_t id, std::string_view name, std::string_view value);
  void start_stream(int64_t id, bool body_ends);
  void deliver(int64_t id, const uint8_t* data, size_t length);
  void end_body(int64_t id);
  void refuse(request_stream& s, int status, const char* reason);
  void reset_malformed(request_stream& s, const char* reason);
  void reset_stream(request_stream& s, uint64_t code);
  bool answer_locally(request_stream& s);
  void give_back_credit(request_stream& s);
  void give_up_on_app(request_stream& s);

  // A response's way out (http3_responses.cc).
  void take_output(request_stream& s);
  bool submit_interim(request_stream& s);
  void submit_trailers(request_stream& s);
  nghttp3_ssize read_body(int64_t id, nghttp3_vec* vec, size_t count, uint32_t* flags);
  static nghttp3_ssize read_body_callback(nghttp3_conn*, int64_t id, nghttp3_vec* vec, size_t count, uint32_t* flags,
                                          void* self, void* stream_data);
  void finish_stream(request_stream& s);

  // Streams that switch protocols (http3_switched.cc).
  bool offer_switch(request_stream& s);
  void switch_stream(request_stream& s);
  void feed_switched(request_stream& s, const uint8_t* data, size_t length);
  void give_back_switched_credit(request_stream& s);
  bool push_switched(request_stream& s);
  void finish_switched(request_stream& s);
  void abort_switched(request_stream& s);
  void answer_timed_out(request_stream& s);
  // The client acknowledged `length` more of a stream's response bytes.
  void acknowledged(request_stream& s, uint64_t length);

  const context& context_;
  connection_link& link_;
  ngtcp2_conn* quic_ = nullptr;
  nghttp3_conn* h3_ = nullptr;
  std::unordered_map<int64_t, std::unique_ptr<request_stream>> streams_;
  std::vector<int64_t> ready_;  // streams whose head is complete, dispatched after the datagram
  exchange::pseudo_limits limits_;
  exchange::encoded_pairs<nghttp3_nv> head_scratch_;
  exchange::field_list interim_scratch_;
  bool peer_trusted_ = false;
  size_t switched_count_ = 0;
  // Request stream slots (return_slot_when_done): those of streams done
  // both ways still held until QUIC closes them, those already given back
  // ahead of the close, and how many held slots are given back at once.
  uint64_t slots_held_ = 0;
  uint64_t slots_lent_ = 0;
  uint64_t slots_returned_together_ = 1;
  // An extended CONNECT was offered to an app on this connection: only
  // then can a stream have a switch deadline (most never look for one).
  bool switch_offered_ = false;
  // Response bytes handed to nghttp3 and not yet acknowledged, all streams
  // together (http3_responses.cc: the connection's budget), and whether a
  // stream waits for the budget.
  uint64_t unacknowledged_ = 0;
  bool budget_waiters_ = false;
};

}  // namespace baton::quic
