// A stream's response onto the wire: news from its exchange, the head
// encoded from the exchange's data, DATA moved from the stream's output
// behind each frame header, the trailers, and framing into the session.
#include "core/http2/protocol.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/http2/stream.h"
#include "core/local/local_routes.h"
#include "core/metrics/stopwatch.h"
#include "core/util/log.h"

namespace baton::http2 {

// --- output ------------------------------------------------------------------

void protocol::on_exchange_news(exchange::exchange* x) {
  if (session_.closed() || h2_ == nullptr) return;
  stream* s = find(x->links.sink_key);
  if (s == nullptr || s->x != x) return;
  x->take_flush_request();
  x->take_continue_request();  // no 100 Continue over HTTP/2: the body may come at once
  give_back_window(*s);
  bool interim = take_output(*s);
  // The app finished an extended CONNECT's 200: the stream carries its
  // protocol from now on, which takes the exchange's news.
  if (x->switched() && s->carried == nullptr && !s->reset) switch_stream(*s);
  // An app on this thread holds it until it returns: its interim response
  // (103 Early Hints) goes out now, while the app is still at work on the
  // final one, not after it.
  if (interim && x->direct()) send();
  send_due_ = true;
  session_.update();
}

void protocol::on_app_done(exchange::exchange* x) {
  if (session_.closed() || h2_ == nullptr) return;
  stream* s = find(x->links.sink_key);
  if (s == nullptr) s = find_lingering(x);
  if (s == nullptr || s->x != x) return;
  if (s->lingering) {
    // Its answer is all out and HTTP/2 has closed the stream: what was
    // left is the app's return.
    if (s->phase == stream_phase::inside) --in_app_;
    s->phase = stream_phase::done;
    gate().host.request_done(x);
    free_stream(s);
    if (stream_count_ == 0) idle_since_ms_ = session_.now_ms();
    start_held();
    session_.update();
    return;
  }
  if (x->switched()) {
    // The app accepted and returned at once: the switch first, then its
    // protocol hears that the app is done.
    take_output(*s);
    if (s->carried == nullptr && !s->reset) switch_stream(*s);
    if (s->carried != nullptr) {
      x->links.sink->on_app_done(x);  // the switched protocol's
      send_due_ = true;
      session_.update();
      return;
    }
  }
  if (s->phase == stream_phase::inside) --in_app_;
  s->phase = stream_phase::done;
  take_output(*s);
  gate().host.request_done(x);
  start_held();
  send_due_ = true;
  session_.update();
}

// The app consumed body bytes: as many go back to the client's window.
void protocol::give_back_window(stream& s) {
  if (s.x == nullptr || s.reset) return;
  // The read-paused flag up again before looking, whenever bytes wait: the
  // app's next consume then tells the loop (consume_and_resume takes it
  // down), and what it consumed before is counted here.
  if (s.x->body_buffered() > 0) s.x->pause_reading(1);
  uint64_t buffered = s.x->body_buffered();
  uint64_t consumed = s.delivered > buffered ? s.delivered - buffered : 0;
  if (consumed > s.given_back) {
    nghttp2_session_consume_stream(h2_, s.id, consumed - s.given_back);
    s.given_back = consumed;
  }
}

// Moves the exchange's output to the stream; submits its interim
// responses and then the response's HEADERS once its head is committed,
// and wakes a deferred DATA. True when an interim response was submitted.
bool protocol::take_output(stream& s) {
  if (s.x == nullptr) return false;
  // Looked at first: a response whole by now has all its bytes in what is
  // taken next, and its last DATA frame can carry END_STREAM.
  if (s.x->response_whole()) s.whole = true;
  s.x->take_output(s.pending);
  if (s.reset) {
    s.pending.clear();
    s.x->set_backlog(0);
    return false;
  }
  bool interim = false;
  if (!s.head_sent) {
    // The head goes out as soon as the app side has committed it, as data:
    // encoded here, on the loop thread, and copied by nghttp2. Looked at
    // before the interim responses: every one the app sent before its head
    // is queued by then, so none can come after the head.
    bool head_ready = s.x->head_ready();
    interim = submit_interim(s);
    if (!head_ready) return interim;
    const exchange::response_state& r = s.x->response_head();
    encode(r, context_.response_wire.server(), alt_svc_, head_scratch_);
    nghttp2_data_provider body{};
    body.read_callback = callbacks::read_body;
    s.head_sent = true;
    nghttp2_submit_response(h2_, s.id, head_scratch_.fields.data(), head_scratch_.fields.size(),
                            r.no_body ? nullptr : &body);
    if (r.no_body) s.pending.clear();
  } else if (s.deferred) {
    s.deferred = false;
    nghttp2_session_resume_data(h2_, s.id);
  }
  s.x->set_backlog(s.pending.buffered_bytes());
  if (!s.pending.empty() && stall_check_ms_ == INT64_MAX) stall_check_ms_ = session_.now_ms() + 1000;
  return interim;
}

// Each interim response the app queued (103 Early Hints) as a HEADERS frame
// that leaves the stream open (RFC 9113 section 8.1: a 1xx head before the
// final one). nghttp2 copies the pairs.
bool protocol::submit_interim(stream& s) {
  if (!s.x->take_interim(interim_scratch_)) return false;
  encode_interim(interim_scratch_, head_scratch_, [&](const encoded_head& head) {
    nghttp2_submit_headers(h2_, NGHTTP2_FLAG_NONE, s.id, nullptr, head.fields.data(), head.fields.size(), nullptr);
  });
  return true;
}

// nghttp2 asks how much of a DATA frame's payload is ready. None of it is
// copied here: the payload stays in the stream's output until send_data()
// moves it behind the frame's header into the session's output (a file
// range that ends within the frame as a range, which h2c sends with
// sendfile; the frames before it read with pread, once).
ssize_t protocol::read_body(int32_t id, size_t length, uint32_t* flags) {
  stream* s = find(id);
  if (s == nullptr || s->x == nullptr) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  if (s->reset) return NGHTTP2_ERR_DEFERRED;
  uint64_t queued = s->pending.queued_bytes();
  // Over TLS a frame and its header fill one record at most: written from
  // where they lie, with no record of a few bytes after each.
  if (record_payload_ != 0 && length > record_payload_) length = record_payload_;
  size_t n = queued < length ? static_cast<size_t>(queued) : length;
  if (n > 0) *flags |= NGHTTP2_DATA_FLAG_NO_COPY;
  if (s->carried != nullptr) {
    // A switched stream ends when its protocol has finished and said all.
    if (n == queued && s->carried_finished) *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (n > 0 || s->carried_finished) return static_cast<ssize_t>(n);
    s->deferred = true;
    return NGHTTP2_ERR_DEFERRED;
  }
  // The end of the stream goes with the last DATA once the response is
  // whole, not in an empty frame of its own when the app returns (a proxy
  // may hold the response until it sees the end).
  if (n == queued && (s->phase == stream_phase::done || s->whole)) {
    if (s->x->close_after()) {
      // The app failed after its head went out (or sent less than its
      // Content-Length): the client must see the response incomplete.
      reset_stream(*s, NGHTTP2_INTERNAL_ERROR);
      *flags &= ~static_cast<uint32_t>(NGHTTP2_DATA_FLAG_NO_COPY);
      return NGHTTP2_ERR_DEFERRED;
    }
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (!s->x->response_trailers().empty() && submit_trailers(*s)) *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
    return static_cast<ssize_t>(n);
  }
  if (n == 0) {
    s->deferred = true;
    return NGHTTP2_ERR_DEFERRED;
  }
  return static_cast<ssize_t>(n);
}

// A DATA frame read_body() let through goes out: its header, then its
// payload moved from the stream's output (RFC 9113 6.1; padding, which this
// server never asks for, framed all the same). The payload is moved into a
// queue of its own first, so that a file that cannot be read fails the
// frame before anything of it is written (the stream is reset, the
// connection goes on). nghttp2 frames the next DATA at once, without
// returning: past the high-water mark it is paused here, and send() goes on
// once the session's output has drained.
int protocol::send_data(const nghttp2_frame& frame, const uint8_t* frame_head, size_t length) {
  stream* s = find(frame.hd.stream_id);
  if (s == nullptr) return NGHTTP2_ERR_CALLBACK_FAILURE;
  net::output_queue& out = session_.output();
  size_t padding = frame.data.padlen;
  // The frame is built in a queue of its own, header first: its payload
  // read behind the header (no buffer of the session's grown to take a
  // header after the last payload), and nothing of it written when a file
  // cannot be read.
  payload_scratch_.clear();
  payload_scratch_.bytes().append(reinterpret_cast<const char*>(frame_head), 9);
  if (padding > 0) {
    char pad_length = static_cast<char>(padding - 1);
    payload_scratch_.bytes().append(&pad_length, 1);
  }
  if (s->pending.move_front(payload_scratch_, length) != length) {
    log::write(log::level::error, "HTTP/2 stream %d: the response's file could not be read", s->id);
    payload_scratch_.clear();
    return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  }
  if (padding > 1) payload_scratch_.bytes().append(std::string(padding - 1, '\0'));
  out.take_from(payload_scratch_, false);  // moved, not copied again
  if (s->x != nullptr) s->x->set_backlog(s->pending.buffered_bytes());
  return out.buffered_bytes() >= context_.config.output_high_water ? NGHTTP2_ERR_PAUSE : 0;
}

// The app's trailers as the stream's last HEADERS frame (it ends the
// stream), names in lower case. Loop side, once the app side is done.
bool protocol::submit_trailers(stream& s) {
  std::string names;
  std::vector<nghttp2_nv> nva;
  exchange::encode_trailers(s.x->response_trailers(), names, nva);
  return nghttp2_submit_trailer(h2_, s.id, nva.data(), nva.size()) == 0;  // nghttp2 copies them
}

// Frames what nghttp2 has to send into the session's output, while that
// holds less than the high-water mark, and writes it.
void protocol::send() {
  if (in_send_ || in_receive_ || h2_ == nullptr || session_.closed()) return;
  send_due_ = false;
  net::output_queue& out = session_.output();
  // Framing stops at the high-water mark; when the socket then takes it
  // all, framing goes on (no writable event would come to resume it).
  bool more = true;
  while (more) {
    in_send_ = true;
    while (out.buffered_bytes() < context_.config.output_high_water) {
      const uint8_t* data = nullptr;
      ssize_t n = nghttp2_session_mem_send(h2_, &data);
      if (n < 0) {
        log::write(log::level::info, "HTTP/2 connection from %s: %s", session_.peer_for_log(),
                   nghttp2_strerror(static_cast<int>(n)));
        closing_ = true;
        break;
      }
      if (n == 0) break;
      out.bytes().append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
    }
    bool stopped_at_mark = out.buffered_bytes() >= context_.config.output_high_water;
    in_send_ = false;
    if (!session_.flush()) return;
    more = stopped_at_mark && !closing_ && !session_.write_blocked();
  }
  finish_if_done();
}

// The connection ends once nghttp2 wants neither to read nor to write
// (after a GOAWAY, or an error), or a drain has no stream left.
void protocol::finish_if_done() {
  if (session_.closed() || session_.lingering() || session_.write_blocked()) return;
  bool done = closing_ || (nghttp2_session_want_read(h2_) == 0 && nghttp2_session_want_write(h2_) == 0) ||
              (draining_ && stream_count_ == 0) || (session_.eof() && stream_count_ == 0);
  if (done && nghttp2_session_want_write(h2_) == 0) session_.start_lingering();
}

}  // namespace baton::http2
