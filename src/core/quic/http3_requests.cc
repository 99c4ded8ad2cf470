// A request stream's request: its fields made a head, its start (or
// refusal), its body delivered to its exchange with the stream's credit
// given back as the app consumes, and its way to the app after each
// datagram.
#include <cstdio>
#include <string>

#include "core/quic/http3_server.h"
#include "core/util/log.h"

namespace baton::quic {

void http3_server::add_field(int64_t id, std::string_view name, std::string_view value) {
  request_stream& s = open(id);
  if (s.phase == stream_phase::head) s.head.add(name, value, limits_);  // trailers are not passed on
}

// The head is complete: the stream becomes an exchange, or is reset (a
// malformed head) or refused (431, 400) without reaching the app.
void http3_server::start_stream(int64_t id, bool body_ends) {
  request_stream& s = open(id);
  if (s.phase != stream_phase::head) return;  // trailers
  if (const char* why = s.head.malformed(body_ends)) {
    reset_malformed(s, why);
    return;
  }
  int status = 0;
  const char* refused = s.head.refusal(limits_, status);
  // The exchange carries the stream's id over four (find(x)).
  exchange::exchange* x = gate().open_exchange(s.head, body_ends, 3, link_.peer(), context_.response_wire,
                                               peer_trusted_, this, static_cast<int32_t>(id / 4));
  s.x = x;
  if (body_ends) {
    s.body_ended = true;
    x->deliver_body_end();
  }
  if (refused != nullptr) {
    refuse(s, status, refused);
    return;
  }
  s.phase = stream_phase::ready;
  ready_.push_back(id);
}

void http3_server::deliver(int64_t id, const uint8_t* data, size_t length) {
  // The connection's credit goes back at once; the stream's as its app reads.
  ngtcp2_conn_extend_max_offset(quic_, length);
  request_stream* s = find(id);
  if (s != nullptr && s->carried != nullptr && !s->reset) {
    feed_switched(*s, data, length);
    return;
  }
  if (s == nullptr || s->x == nullptr || s->body_ended || s->reset) {
    ngtcp2_conn_extend_max_stream_offset(quic_, id, length);  // dropped: nobody reads it
    return;
  }
  if (s->content_length() >= 0 && s->delivered + length > static_cast<uint64_t>(s->content_length())) {
    char why[96];
    std::snprintf(why, sizeof why, "its body is longer than its content-length of %lld",
                  static_cast<long long>(s->content_length()));
    reset_malformed(*s, why);
    return;
  }
  uint64_t max_body = gate().http.request_limits.max_body;
  if (max_body != 0 && s->delivered + length > max_body) {
    log::write(log::level::info, "request body from %s over the size limit (413), HTTP/3 stream %lld",
               link_.peer_for_log(), static_cast<long long>(id));
    s->body_ended = true;
    s->x->deliver_body_error(413);
    // The rest of the body is not wanted (RFC 9114 section 4.1.1).
    ngtcp2_conn_shutdown_stream_read(quic_, 0, id, NGHTTP3_H3_NO_ERROR);
    return;
  }
  s->delivered += length;
  s->x->deliver_body(reinterpret_cast<const char*>(data), length);
  give_back_credit(*s);
}

// The client ended the stream: its body is whole, unless it is shorter
// than its content-length (malformed).
void http3_server::end_body(int64_t id) {
  request_stream* s = find(id);
  if (s == nullptr) return;
  s->client_ended = true;
  return_slot_when_done(*s);
  if (s->carried != nullptr) {
    // The client will send no more on a switched stream: its protocol
    // ends (without its own close, the app hears of an abnormal one).
    s->carried->peer_gone();
    s->carried->flush();
    return;
  }
  if (s->x == nullptr || s->body_ended || s->reset) return;
  if (s->content_length() >= 0 && s->delivered != static_cast<uint64_t>(s->content_length())) {
    char why[96];
    std::snprintf(why, sizeof why, "its body is shorter than its content-length of %lld",
                  static_cast<long long>(s->content_length()));
    reset_malformed(*s, why);
    return;
  }
  s->body_ended = true;
  s->x->deliver_body_end();
}

// The app consumed body bytes: as many go back to the stream's credit. The
// read-paused flag goes up whenever bytes wait, so the app's next consume
// tells the loop (as HTTP/2's window does).
void http3_server::give_back_credit(request_stream& s) {
  if (s.x == nullptr || s.reset) return;
  if (s.x->body_buffered() > 0) s.x->pause_reading(1);
  uint64_t buffered = s.x->body_buffered();
  uint64_t consumed = s.delivered > buffered ? s.delivered - buffered : 0;
  if (consumed > s.given_back) {
    ngtcp2_conn_extend_max_stream_offset(quic_, s.id, consumed - s.given_back);
    s.given_back = consumed;
  }
}

// The answer to a refused stream, from here, with a log line naming the
// client and the stream.
void http3_server::refuse(request_stream& s, int status, const char* reason) {
  gate().refused({link_.peer_for_log(), "HTTP/3", s.id}, status, reason);
  exchange::exchange* x = s.x;
  gate::request_gate::answer_refused(*x, status, reason);
  s.phase = stream_phase::done;
  take_output(s);
  gate().host.request_done(x);
  // A body still coming is not wanted.
  if (!s.body_ended) ngtcp2_conn_shutdown_stream_read(quic_, 0, s.id, NGHTTP3_H3_NO_ERROR);
}

// RFC 9114 section 4.1.2: a malformed request is a stream error of type
// H3_MESSAGE_ERROR. An app reading its body sees the read fail.
void http3_server::reset_malformed(request_stream& s, const char* reason) {
  log::write(log::level::info, "malformed request from %s on HTTP/3 stream %lld: %s; resetting it (H3_MESSAGE_ERROR)",
             link_.peer_for_log(), static_cast<long long>(s.id), reason);
  if (s.x != nullptr && !s.body_ended) {
    s.body_ended = true;
    s.x->deliver_body_error(400);
  }
  reset_stream(s, NGHTTP3_H3_MESSAGE_ERROR);
}

void http3_server::malformed(int64_t stream_id, const char* why) {
  nghttp3_conn_shutdown_stream_read(h3_, stream_id);
  char reason[96];
  std::snprintf(reason, sizeof reason, "nghttp3 says %s", why);
  request_stream* s = find(stream_id);
  if (s != nullptr && !s->reset) {
    reset_malformed(*s, reason);
    return;
  }
  log::write(log::level::info, "malformed request from %s on HTTP/3 stream %lld: %s; resetting it (H3_MESSAGE_ERROR)",
             link_.peer_for_log(), static_cast<long long>(stream_id), reason);
  ngtcp2_conn_shutdown_stream(quic_, 0, stream_id, NGHTTP3_H3_MESSAGE_ERROR);
}

// A reset of ours, both ways (its reason is logged by the caller): nothing
// more of the stream goes out, and its app's output is dropped.
void http3_server::reset_stream(request_stream& s, uint64_t code) {
  s.reset = true;
  s.pending.clear();
  ngtcp2_conn_shutdown_stream(quic_, 0, s.id, code);
}

// After a datagram: the streams whose heads came in it go to the app,
// unless the client reset them meanwhile (in the same datagram: they never
// reach it).
void http3_server::dispatch_ready() {
  if (ready_.empty()) return;
  std::vector<int64_t> ids;
  ids.swap(ready_);
  for (int64_t id : ids) {
    request_stream* s = find(id);
    if (s == nullptr || s->reset || s->phase != stream_phase::ready || s->x == nullptr) continue;
    if (offer_switch(*s) || answer_locally(*s)) continue;
    s->phase = stream_phase::inside;
    s->app_since_ms = link_.now_ms();
    gate().host.submit(s->x);
  }
}

bool http3_server::abandon_overdue(int64_t entered_before_ms) {
  bool any = false;
  for (auto& [id, owned] : streams_) {
    request_stream& s = *owned;
    if (s.phase != stream_phase::inside || s.app_since_ms >= entered_before_ms || s.x == nullptr) continue;
    any = true;
    gate().app_overran({link_.peer_for_log(), "HTTP/3", s.id}, s.x->head(),
                       s.head_sent ? "resetting the stream" : "answering 504");
    give_up_on_app(s);
  }
  return any;
}

// A 504 if nothing of the stream's answer went out, else a reset; what its
// app side writes from now on is dropped, and a body still coming is not
// wanted. The worker then retires (lifecycle), its thread lost.
void http3_server::give_up_on_app(request_stream& s) {
  s.phase = stream_phase::released;
  bool head_sent = s.head_sent;
  s.head_sent = true;
  s.reset = true;  // the app side's output is dropped (take_output)
  s.pending.clear();
  if (head_sent) {
    ngtcp2_conn_shutdown_stream(quic_, 0, s.id, NGHTTP3_H3_INTERNAL_ERROR);
    return;
  }
  nghttp3_nv status = exchange::pair_of<nghttp3_nv>(":status", "504");
  nghttp3_conn_submit_response(h3_, s.id, &status, 1, nullptr);
  if (!s.body_ended) ngtcp2_conn_shutdown_stream_read(quic_, 0, s.id, NGHTTP3_H3_NO_ERROR);
}

// The health path, a static file, or a 503 while draining with the
// listeners open: answered here, on this thread (the request gate decides).
bool http3_server::answer_locally(request_stream& s) {
  exchange::exchange* x = s.x;
  if (!gate().answer_locally(*x)) return false;
  s.phase = stream_phase::done;
  take_output(s);
  gate().host.request_done(x);
  return true;
}

}  // namespace baton::quic
