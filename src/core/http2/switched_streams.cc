// Streams that switch protocols (RFC 8441): an extended CONNECT is offered
// to the host as a switch; once its app's 200 is finished, the stream
// carries the protocol the host gives it (a WebSocket) as a byte stream.
// Its DATA from the client feeds that protocol, and the stream's window
// goes back only for the bytes it has decoded, so a client flooding a slow
// app is held back by its own stream; what the protocol writes goes out as
// DATA, and its end as END_STREAM (or a reset, when it gives up). HTTP/2
// knows nothing of the protocol above: the host makes it.
#include <algorithm>

#include "core/http2/protocol.h"
#include "core/http2/stream.h"
#include "core/util/log.h"

namespace baton::http2 {

// Before the app: an extended CONNECT the host does not offer a switch for
// is answered here (the protocol is not served, or the opening is bad).
// Returns true when it was.
bool protocol::offer_switch(stream& s) {
  if (s.x->head().protocol.empty()) return false;
  gate::request_gate::switch_offer offer = gate().offer_switch(*s.x, context_.extended_connect);
  if (offer.offered) {
    s.offered = true;  // its app's answer is awaited (check_stalls)
    if (stall_check_ms_ == INT64_MAX) stall_check_ms_ = session_.now_ms() + 1000;
    return false;
  }
  refuse(s, offer.status, offer.reason);
  return true;
}

// The app finished the switch's answer (its HEADERS are submitted): the
// stream carries the host's protocol from now on. The exchange's news go
// to that protocol; the stream leaves the count of streams in the app.
void protocol::switch_stream(stream& s) {
  exchange::exchange* x = s.x;
  s.carrier = std::make_unique<stream_carrier>(*this, s);
  s.carried = gate().host.switched_on(*s.carrier, *x);
  if (s.carried == nullptr) {
    s.carrier.reset();
    reset_stream(s, NGHTTP2_CANCEL);
    return;
  }
  ++switched_count_;
  s.body_ended = true;  // no body clock: the bytes that follow are the protocol's
  if (s.phase == stream_phase::inside) {
    s.phase = stream_phase::released;
    --in_app_;
    start_held();
  }
  bool peer_gone = nghttp2_session_get_stream_remote_close(h2_, s.id) != 0;
  s.carried->start(nullptr, 0, peer_gone);
  send_due_ = true;
}

void protocol::feed_switched(stream& s, const uint8_t* data, size_t length) {
  s.carried_in += length;
  // Read where nghttp2 has them (the protocol writes nothing into its input).
  s.carried->feed(reinterpret_cast<const char*>(data), length);
  s.carried->flush();
  give_back_switched_window(s);
}

// The window goes back for the bytes the protocol has decoded; those it
// holds (its app's queue is full) wait for it.
void protocol::give_back_switched_window(stream& s) {
  if (s.carried == nullptr || s.reset || h2_ == nullptr) return;
  uint64_t decoded = s.carried_in - std::min<uint64_t>(s.carried->held(), s.carried_in);
  if (decoded > s.given_back) {
    nghttp2_session_consume_stream(h2_, s.id, decoded - s.given_back);
    s.given_back = decoded;
  }
}

bool protocol::push_switched(stream& s) {
  if (h2_ == nullptr || session_.closed() || s.reset) return false;
  give_back_switched_window(s);
  if (s.deferred && (!s.pending.empty() || s.carried_finished)) {
    s.deferred = false;
    nghttp2_session_resume_data(h2_, s.id);
  }
  send_due_ = true;
  if (!s.pending.empty() && stall_check_ms_ == INT64_MAX) stall_check_ms_ = session_.now_ms() + 1000;
  return true;
}

// The protocol is done both ways: its output goes out and END_STREAM
// follows. A client that has not ended its side is then told to stop
// (RST_STREAM NO_ERROR after the END_STREAM, RFC 9113 8.1), so the stream
// closes, its app is let go and its access log line written now, not when
// the connection goes.
void protocol::finish_switched(stream& s) {
  if (s.carried_finished) return;
  s.carried_finished = true;
  if (h2_ != nullptr && nghttp2_session_get_stream_remote_close(h2_, s.id) == 0) s.reset_once_answered = true;
  push_switched(s);
}

void protocol::abort_switched(stream& s) {
  if (s.reset || h2_ == nullptr) return;
  log::write(log::level::info, "resetting HTTP/2 stream %d from %s: its WebSocket gave up", s.id,
             session_.peer_for_log());
  reset_stream(s, NGHTTP2_CANCEL);
  send_due_ = true;
}

int64_t protocol::switched_deadline() const {
  int64_t deadline = INT64_MAX;
  if (switched_count_ == 0) return deadline;
  for (const stream* s = streams_; s != nullptr; s = s->next) {
    if (s->carried != nullptr) deadline = std::min(deadline, s->carried->deadline());
  }
  return deadline;
}

void protocol::switched_deadlines(int64_t now) {
  if (switched_count_ == 0) return;
  for (stream* s = streams_; s != nullptr; s = s->next) {
    if (s->carried != nullptr && s->carried->deadline() <= now) s->carried->on_deadline();
  }
}

}  // namespace baton::http2
