// Streams that switch protocols (RFC 9220): an extended CONNECT is offered
// to the host as a switch; once its app's 200 is submitted, the stream
// carries the protocol the host gives it (a WebSocket) as a byte stream.
// Its DATA from the client feeds that protocol, and the stream's credit
// goes back only for the bytes it has decoded, so a client flooding a slow
// app is held back by its own stream; what the protocol writes goes out as
// DATA, and its end as the stream's FIN (or a reset, when it gives up).
// HTTP/3 knows nothing of the protocol above: the host makes it.
#include <algorithm>

#include "core/quic/http3_server.h"
#include "core/util/log.h"

namespace baton::quic {

net::output_queue& stream_carrier::output() { return s.pending; }
bool stream_carrier::push() { return server.push_switched(s); }
uint64_t stream_carrier::backlog() const { return s.pending.buffered_bytes() + s.sent.unacknowledged(); }
void stream_carrier::finish() { server.finish_switched(s); }
void stream_carrier::abort() { server.abort_switched(s); }
void stream_carrier::replan() { server.link_.replan(); }
bool stream_carrier::gone() const { return server.h3_ == nullptr || s.reset; }
int64_t stream_carrier::now_ms() const { return server.link_.now_ms(); }
const char* stream_carrier::peer_for_log() const { return server.link_.peer_for_log(); }

// Before the app: an extended CONNECT the host does not offer a switch for
// is answered here (the protocol is not served, or the opening is bad).
// Returns true when it was.
bool http3_server::offer_switch(request_stream& s) {
  if (s.x->head().protocol.empty()) return false;
  gate::request_gate::switch_offer offer = gate().offer_switch(*s.x, context_.extended_connect);
  if (offer.offered) {
    s.offered = true;  // its app's answer is awaited (switched_deadline)
    switch_offered_ = true;
    return false;
  }
  refuse(s, offer.status, offer.reason);
  return true;
}

// The app finished the switch's answer (its HEADERS are submitted): the
// stream carries the host's protocol from now on, and the exchange's news
// go to that protocol. Bytes the client sent before the answer were the
// exchange's body: they are dropped, and their credit given back.
void http3_server::switch_stream(request_stream& s) {
  exchange::exchange* x = s.x;
  s.carrier = std::make_unique<stream_carrier>(*this, s);
  s.carried = gate().host.switched_on(*s.carrier, *x);
  if (s.carried == nullptr) {
    s.carrier.reset();
    reset_stream(s, NGHTTP3_H3_REQUEST_CANCELLED);
    return;
  }
  if (++switched_count_ == 1) link_.keep_alive(true);
  s.body_ended = true;
  s.phase = stream_phase::released;  // no app timeout: a WebSocket's app runs as long as it is open
  if (s.delivered > s.given_back) ngtcp2_conn_extend_max_stream_offset(quic_, s.id, s.delivered - s.given_back);
  s.given_back = 0;
  s.carried->start(nullptr, 0, s.client_ended);
}

void http3_server::feed_switched(request_stream& s, const uint8_t* data, size_t length) {
  s.carried_in += length;
  // Read where nghttp3 has them (the protocol writes nothing into its input).
  s.carried->feed(reinterpret_cast<const char*>(data), length);
  s.carried->flush();
  give_back_switched_credit(s);
}

// The credit goes back for the bytes the protocol has decoded; those it
// holds (its app's queue is full) wait for it.
void http3_server::give_back_switched_credit(request_stream& s) {
  if (s.carried == nullptr || s.reset || quic_ == nullptr) return;
  uint64_t decoded = s.carried_in - std::min<uint64_t>(s.carried->held(), s.carried_in);
  if (decoded > s.given_back) {
    ngtcp2_conn_extend_max_stream_offset(quic_, s.id, decoded - s.given_back);
    s.given_back = decoded;
  }
}

bool http3_server::push_switched(request_stream& s) {
  if (h3_ == nullptr || s.reset) return false;
  give_back_switched_credit(s);
  if (s.blocked && (!s.pending.empty() || s.carried_finished)) {
    s.blocked = false;
    nghttp3_conn_resume_stream(h3_, s.id);
  }
  link_.wake();
  return true;
}

// The protocol is done both ways: its output goes out and the FIN
// follows. A client that has not ended its side is told to stop
// (STOP_SENDING with H3_NO_ERROR), so the stream closes and its app is let
// go now, not when the connection goes.
void http3_server::finish_switched(request_stream& s) {
  if (s.carried_finished) return;
  s.carried_finished = true;
  if (!s.client_ended && quic_ != nullptr) ngtcp2_conn_shutdown_stream_read(quic_, 0, s.id, NGHTTP3_H3_NO_ERROR);
  push_switched(s);
}

void http3_server::abort_switched(request_stream& s) {
  if (s.reset || h3_ == nullptr) return;
  log::write(log::level::info, "resetting HTTP/3 stream %lld from %s: its WebSocket gave up",
             static_cast<long long>(s.id), link_.peer_for_log());
  reset_stream(s, NGHTTP3_H3_REQUEST_CANCELLED);
  link_.wake();
}

// A switch offered to an app that neither accepts nor refuses it in time
// (--ws-handshake-timeout): 504, as over HTTP/1.1 and HTTP/2.
void http3_server::answer_timed_out(request_stream& s) {
  log::write(log::level::info, "an extended CONNECT from %s (HTTP/3 stream %lld) got no answer from the app in "
             "time (504)", link_.peer_for_log(), static_cast<long long>(s.id));
  s.offered = false;
  s.x->cancel();
  give_up_on_app(s);
}

namespace {

bool answer_awaited(const request_stream& s) {
  return s.offered && s.carried == nullptr && !s.head_sent && !s.reset && s.x != nullptr;
}

}  // namespace

int64_t http3_server::switched_deadline() const {
  int64_t deadline = INT64_MAX;
  if (!switch_offered_) return deadline;
  int answer_timeout = gate().host.upgrade_answer_timeout_ms();
  for (const auto& [id, owned] : streams_) {
    const request_stream& s = *owned;
    if (s.carried != nullptr) deadline = std::min(deadline, s.carried->deadline());
    if (answer_timeout > 0 && answer_awaited(s)) deadline = std::min(deadline, s.app_since_ms + answer_timeout);
  }
  return deadline;
}

void http3_server::switched_deadlines(int64_t now) {
  if (!switch_offered_) return;
  int answer_timeout = gate().host.upgrade_answer_timeout_ms();
  // A deadline may free its stream (a 504 that ends it): ids first.
  std::vector<int64_t> due;
  for (const auto& [id, owned] : streams_) {
    const request_stream& s = *owned;
    bool carried_due = s.carried != nullptr && s.carried->deadline() <= now;
    bool answer_due = answer_timeout > 0 && answer_awaited(s) && now - s.app_since_ms >= answer_timeout;
    if (carried_due || answer_due) due.push_back(id);
  }
  for (int64_t id : due) {
    request_stream* s = find(id);
    if (s == nullptr) continue;
    if (s->carried != nullptr) {
      s->carried->on_deadline();
    } else if (answer_awaited(*s)) {
      answer_timed_out(*s);
    }
  }
}

void http3_server::drain_switched() {
  if (switched_count_ == 0) return;
  std::vector<int64_t> carrying;  // a drain may end a stream: ids first
  for (const auto& [id, owned] : streams_) {
    if (owned->carried != nullptr) carrying.push_back(id);
  }
  for (int64_t id : carrying) {
    request_stream* s = find(id);
    if (s != nullptr && s->carried != nullptr) s->carried->drain();
  }
}

size_t http3_server::release_idle_memory() {
  size_t freed = 0;
  if (switched_count_ == 0) return freed;
  for (auto& [id, owned] : streams_) {
    if (owned->carried != nullptr) freed += owned->carried->release_idle_memory();
  }
  return freed;
}

}  // namespace baton::quic
