// A stream's request: its body delivered to its exchange and the window
// given back, its start (or refusal), and its way to the app (held while
// the connection has its share of streams inside the app).
#include "core/http2/protocol.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/http2/stream.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::http2 {

int protocol::data_chunk(int32_t id, const uint8_t* data, size_t length) {
  // The connection's window goes back at once; the stream's as its app reads.
  nghttp2_session_consume_connection(h2_, length);
  stream* s = find(id);
  if (s != nullptr && s->carried != nullptr && !s->reset) {
    feed_switched(*s, data, length);
    return 0;
  }
  if (s == nullptr || s->x == nullptr || s->body_ended || s->reset) return 0;
  if (s->content_length() >= 0 && s->delivered + length > static_cast<uint64_t>(s->content_length())) {
    reset_for_length(*s, "longer");
    return 0;
  }
  uint64_t max_body = gate().http.request_limits.max_body;
  if (max_body != 0 && s->delivered + length > max_body) {
    log::write(log::level::info, "request body from %s over the size limit (413), HTTP/2 stream %d",
               session_.peer_for_log(), id);
    s->body_ended = true;
    s->x->deliver_body_error(413);
    nghttp2_submit_rst_stream(h2_, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
    return 0;
  }
  s->delivered += length;
  s->x->deliver_body(reinterpret_cast<const char*>(data), length);
  // Bytes that went straight into a read the app is waiting in (WSGI's
  // read(n), its target) are consumed already: their window goes back now,
  // or a read larger than the window would wait for bytes the client may
  // not send.
  give_back_window(*s);
  // The rest goes back as the app consumes it. An app that consumes and
  // waits for more (ASGI's receive loop) publishes nothing meanwhile, so
  // its consume must tell the loop itself, as a paused HTTP/1 read's does,
  // or a client that filled the window would never be let to send the
  // rest: give_back_window() raises the read-paused flag whenever bytes
  // wait, every time it looks (a flag taken down by one consume, or by a
  // second look that saw part consumed, left the rest to be consumed with
  // no one told: a client waited for a WINDOW_UPDATE that never came).
  if (s->delivered > s->given_back) give_back_window(*s);
  return 0;
}

// The head is complete: the stream becomes an exchange, or is reset (a
// malformed head) or refused (431, 400) without reaching the app.
void protocol::start_stream(stream& s, bool body_ends) {
  served_any_ = true;
  if (const char* why = s.head.malformed(body_ends)) {
    reset_malformed(s, why);
    return;
  }
  int status = 0;
  const char* refused = s.head.refusal(head_limits_, status);
  exchange::exchange* x = gate().open_exchange(s.head, body_ends, 2, session_.peer(), context_.response_wire,
                                               peer_trusted_, this, s.id);
  s.x = x;
  if (body_ends) {
    s.body_ended = true;
    x->deliver_body_end();
  } else {
    // The body has --body-read-timeout to arrive (check_stalls counts it).
    s.body_clock_ms = session_.now_ms();
    if (stall_check_ms_ == INT64_MAX) stall_check_ms_ = s.body_clock_ms + 1000;
  }
  if (refused != nullptr) {
    refuse(s, status, refused);
    return;
  }
  ready_.push_back(s.id);
}

// The answer to a refused stream, from here, with a log line naming the
// client and the stream; a body still coming is stopped after it.
void protocol::refuse(stream& s, int status, const char* reason) {
  gate().refused(session_, status, reason, s.id);
  exchange::exchange* x = s.x;
  gate::request_gate::answer_refused(*x, status, reason);
  s.phase = stream_phase::done;
  s.reset_once_answered = !s.body_ended;
  take_output(s);
  gate().host.request_done(x);
}

// RFC 9113 8.1.1: a malformed request is a stream error (PROTOCOL_ERROR).
// An app reading its body sees the read fail.
void protocol::reset_malformed(stream& s, const char* reason) {
  log::write(log::level::info, "malformed request from %s on HTTP/2 stream %d: %s; resetting it (PROTOCOL_ERROR)",
             session_.peer_for_log(), s.id, reason);
  if (s.x != nullptr && !s.body_ended) {
    s.body_ended = true;
    s.x->deliver_body_error(400);
  }
  reset_stream(s, NGHTTP2_PROTOCOL_ERROR);
}

void protocol::reset_for_length(stream& s, const char* longer_or_shorter) {
  char why[96];
  std::snprintf(why, sizeof why, "its body is %s than its content-length of %lld", longer_or_shorter,
                static_cast<long long>(s.content_length()));
  reset_malformed(s, why);
}

// A reset of ours (its reason is logged by the caller): nothing more of the
// stream goes out, and its app's output is dropped.
void protocol::reset_stream(stream& s, uint32_t code) {
  s.reset = true;
  s.reset_logged = true;
  metrics::rejected(gate().metrics, metrics::rejection::h2_stream_reset);
  nghttp2_submit_rst_stream(h2_, NGHTTP2_FLAG_NONE, s.id, code);
}

// The connection's input ended with these streams' bodies unfinished: an
// app waiting for the rest hears the client is gone (a WSGI read raises,
// ASGI gets http.disconnect) and the stream is reset; a switched stream's
// protocol hears its peer is gone. Left waiting, an inline app would hold
// the loop in its wait for good.
void protocol::end_cut_bodies() {
  std::vector<int32_t> open;  // ids first: a switched stream's flush may free streams
  for (stream* s = streams_; s != nullptr; s = s->next) open.push_back(s->id);
  for (int32_t id : open) {
    stream* s = find(id);
    if (s == nullptr || s->reset) continue;
    if (s->carried != nullptr) {
      s->carried->peer_gone();
      s->carried->flush();
    } else if (s->x != nullptr && !s->body_ended) {
      log::write(log::level::info, "HTTP/2 connection from %s closed inside the request body of stream %d; "
                 "resetting it", session_.peer_for_log(), s->id);
      s->body_ended = true;
      s->x->deliver_body_error(0);
      reset_stream(*s, NGHTTP2_CANCEL);
    }
  }
}

// The client ended the stream: its body is whole, unless it is shorter
// than its content-length (malformed).
void protocol::end_body(stream& s) {
  if (s.carried != nullptr) {
    // The client will send no more on a switched stream: its protocol
    // ends (without its own close, the app hears of an abnormal one).
    s.carried->peer_gone();
    s.carried->flush();
    return;
  }
  if (s.x == nullptr || s.body_ended || s.reset) return;
  if (s.content_length() >= 0 && s.delivered != static_cast<uint64_t>(s.content_length())) {
    reset_for_length(s, "shorter");
    return;
  }
  s.body_ended = true;
  s.x->deliver_body_end();
}

// After a read: the streams whose heads came in it go to the app, unless
// the client reset them meanwhile (in the same read: they never reach it)
// or the connection is ending.
void protocol::dispatch_ready() {
  if (closing_) {
    // The read that brought them ended the connection (a flood, a protocol
    // error): the attack's streams never reach the app.
    ready_.clear();
    held_.clear();
    return;
  }
  start_held();  // slots freed by streams the client reset
  if (ready_.empty()) return;
  std::vector<int32_t> ids;
  ids.swap(ready_);
  for (int32_t id : ids) {
    stream* s = find(id);
    if (s == nullptr || s->reset || s->phase != stream_phase::ready || s->x == nullptr || session_.closed()) continue;
    s->phase = stream_phase::held;
    if (offer_switch(*s) || answer_locally(*s)) continue;
    if (at_app_limit() || !held_.empty()) {
      held_.push_back(id);
      continue;
    }
    start_app(*s);
  }
}

void protocol::start_app(stream& s) {
  s.phase = stream_phase::inside;
  s.app_since_ms = session_.now_ms();
  ++in_app_;
  gate().host.submit(s.x);
}

// Held streams start, oldest first, as this connection's others finish.
void protocol::start_held() {
  while (!held_.empty() && !at_app_limit() && !closing_ && !session_.closed()) {
    stream* s = find(held_.front());
    held_.pop_front();
    if (s != nullptr && !s->reset && s->x != nullptr) start_app(*s);
  }
}

// The health path, a static file, or a 503 while draining with the
// listeners open: answered here, on this thread (the request gate decides).
bool protocol::answer_locally(stream& s) {
  exchange::exchange* x = s.x;
  if (!gate().answer_locally(*x)) return false;
  s.phase = stream_phase::done;
  take_output(s);
  gate().host.request_done(x);
  return true;
}

}  // namespace baton::http2
