// A request stream's response onto the wire: news from its exchange, the
// head encoded from the exchange's data and submitted, the body read from
// the stream's output into memory nghttp3 points at until acknowledged,
// the trailers, and the stream's end.
#include <cerrno>

#include "core/quic/http3_server.h"
#include "core/util/log.h"

namespace baton::quic {
namespace {

// The most of a response body handed to nghttp3 at once.
constexpr size_t chunk_bytes = size_t{64} * 1024;
// The most a connection holds handed to nghttp3 and not yet acknowledged,
// its streams together, before they wait for acknowledgements. What is
// unacknowledged is, all but a chunk a stream (nghttp3 asks for more only
// once it has written what it has), what is in flight: a window's worth,
// which the path's round trip sets. A stream held to a fixed 256 KiB ran
// at 256 KiB a round trip whatever the path carried (11 MB/s 20 ms away);
// the budget is the size Linux lets a TCP socket's send buffer grow to
// (tcp_wmem's default top), so HTTP/3 keeps pace with HTTP/2 to the same
// client, and a connection's memory stays bounded as a socket's is.
constexpr uint64_t unacknowledged_most = uint64_t{4} << 20;

}  // namespace

void http3_server::on_exchange_news(exchange::exchange* x) {
  if (h3_ == nullptr) return;
  request_stream* s = find(x);
  if (s == nullptr) return;
  x->take_flush_request();
  x->take_continue_request();  // no 100 Continue over HTTP/3: the body may come at once
  give_back_credit(*s);
  take_output(*s);
  // The app finished an extended CONNECT's 200: the stream carries its
  // protocol from now on, which takes the exchange's news.
  if (x->switched() && s->carried == nullptr && !s->reset) switch_stream(*s);
  link_.wake();
}

void http3_server::on_app_done(exchange::exchange* x) {
  if (h3_ == nullptr) return;
  request_stream* s = find(x);
  if (s == nullptr) return;
  s->phase = stream_phase::done;
  if (s->lingering) {
    // Its answer is all out and QUIC has closed the stream: what was left
    // is the app's return.
    gate().host.request_done(x);
    free_stream(s);
    link_.wake();  // a drained connection may close now
    return;
  }
  if (x->switched()) {
    // The app accepted and returned at once: the switch first, then its
    // protocol hears that the app is done.
    take_output(*s);
    if (s->carried == nullptr && !s->reset) switch_stream(*s);
    if (s->carried != nullptr) {
      x->links.sink->on_app_done(x);  // the switched protocol's
      link_.wake();
      return;
    }
  }
  take_output(*s);
  gate().host.request_done(x);
  link_.wake();
}

// Moves the exchange's output to the stream; submits its interim
// responses and then the response's HEADERS once its head is committed,
// and wakes a body nghttp3 waits for.
void http3_server::take_output(request_stream& s) {
  if (s.x == nullptr) return;
  // Looked at first: a response whole by now has all its bytes in what is
  // taken next, and the last of them can end the stream.
  if (s.x->response_whole()) s.whole = true;
  s.x->take_output(s.pending);
  if (s.reset) {
    s.pending.clear();
    s.x->set_backlog(0);
    return;
  }
  if (!s.head_sent) {
    // Looked at before the interim responses: every one the app sent
    // before its head is queued by then, so none can come after the head.
    bool head_ready = s.x->head_ready();
    submit_interim(s);
    if (!head_ready) return;
    const exchange::response_state& r = s.x->response_head();
    // No Alt-Svc: the client is on HTTP/3 already.
    exchange::encode_response(r, context_.response_wire.server(), {}, head_scratch_);
    nghttp3_data_reader body{read_body_callback};
    s.head_sent = true;
    if (r.no_body) s.pending.clear();
    // nghttp3 copies the pairs. Without a body the HEADERS end the stream.
    int rv = nghttp3_conn_submit_response(h3_, s.id, head_scratch_.fields.data(), head_scratch_.fields.size(),
                                          r.no_body ? nullptr : &body);
    if (rv != 0) log::write(log::level::info, "HTTP/3 stream %lld: %s", static_cast<long long>(s.id),
                            nghttp3_strerror(rv));
  } else if (s.blocked) {
    s.blocked = false;
    nghttp3_conn_resume_stream(h3_, s.id);
  }
  s.x->set_backlog(s.pending.buffered_bytes() + s.sent.unacknowledged());
}

// Each interim response the app queued (103 Early Hints) as a HEADERS
// frame before the final one (RFC 9114 section 4.1). nghttp3 copies the pairs.
bool http3_server::submit_interim(request_stream& s) {
  if (!s.x->take_interim(interim_scratch_)) return false;
  exchange::encode_interim(interim_scratch_, head_scratch_, [&](const exchange::encoded_pairs<nghttp3_nv>& head) {
    nghttp3_conn_submit_info(h3_, s.id, head.fields.data(), head.fields.size());
  });
  return true;
}

nghttp3_ssize http3_server::read_body_callback(nghttp3_conn*, int64_t id, nghttp3_vec* vec, size_t count,
                                               uint32_t* flags, void* self, void*) {
  return static_cast<http3_server*>(self)->read_body(id, vec, count, flags);
}

// nghttp3 asks for the body's next bytes: a chunk read from the stream's
// output, or "would block" until the app sends more (or the client
// acknowledges enough of what it has), or the end.
nghttp3_ssize http3_server::read_body(int64_t id, nghttp3_vec* vec, size_t count, uint32_t* flags) {
  request_stream* s = find(id);
  if (s == nullptr || s->x == nullptr || count == 0) return NGHTTP3_ERR_CALLBACK_FAILURE;
  if (s->reset) return NGHTTP3_ERR_WOULDBLOCK;
  // A switched stream ends when its protocol has finished and said all.
  bool ends = s->carried != nullptr ? s->carried_finished : s->phase == stream_phase::done || s->whole;
  if (s->pending.empty()) {
    if (!ends) {
      s->blocked = true;
      return NGHTTP3_ERR_WOULDBLOCK;
    }
    if (s->carried == nullptr) finish_stream(*s);
    if (!s->reset) *flags |= NGHTTP3_DATA_FLAG_EOF;
    if (!s->reset && !s->x->response_trailers().empty()) {
      *flags |= NGHTTP3_DATA_FLAG_NO_END_STREAM;
      submit_trailers(*s);
    }
    return s->reset ? NGHTTP3_ERR_WOULDBLOCK : 0;
  }
  if (unacknowledged_ >= unacknowledged_most) {
    s->blocked = true;
    budget_waiters_ = true;
    return NGHTTP3_ERR_WOULDBLOCK;
  }
  const uint8_t* base = nullptr;
  size_t length = 0;
  bool unreadable = false;
  if (!s->sent.take(s->pending, chunk_bytes, base, length, unreadable)) {
    if (unreadable) {
      log::write(log::level::error, "HTTP/3 stream %lld: the response's file could not be read",
                 static_cast<long long>(id));
      reset_stream(*s, NGHTTP3_H3_INTERNAL_ERROR);
    } else {
      s->blocked = true;
    }
    return NGHTTP3_ERR_WOULDBLOCK;
  }
  unacknowledged_ += length;
  vec[0].base = const_cast<uint8_t*>(base);
  vec[0].len = length;
  s->x->set_backlog(s->pending.buffered_bytes() + s->sent.unacknowledged());
  return 1;
}

// A body held back while its bytes waited for acknowledgement goes on, and
// once the connection's budget has room, so does every stream that waited
// for it.
void http3_server::acknowledged(request_stream& s, uint64_t length) {
  s.sent.acknowledged(length);
  unacknowledged_ -= length;
  if (s.blocked && s.head_sent) {
    s.blocked = false;
    nghttp3_conn_resume_stream(h3_, s.id);
  }
  if (s.x != nullptr && !s.reset) s.x->set_backlog(s.pending.buffered_bytes() + s.sent.unacknowledged());
  if (budget_waiters_ && unacknowledged_ < unacknowledged_most) {
    budget_waiters_ = false;
    for (auto& [id, other] : streams_) {
      if (other->blocked && other->head_sent && !other->pending.empty()) {
        other->blocked = false;
        nghttp3_conn_resume_stream(h3_, id);
      }
    }
  }
}

// The body is all out: an app that failed after its head went out (or
// sent less than its Content-Length) has its stream reset, so the client
// sees the response incomplete.
void http3_server::finish_stream(request_stream& s) {
  if (s.x->close_after()) reset_stream(s, NGHTTP3_H3_INTERNAL_ERROR);
}

// The app's trailers as the stream's last HEADERS frame (it ends the
// stream), names in lower case. nghttp3 copies them.
void http3_server::submit_trailers(request_stream& s) {
  std::string names;
  std::vector<nghttp3_nv> pairs;
  exchange::encode_trailers(s.x->response_trailers(), names, pairs);
  nghttp3_conn_submit_trailers(h3_, s.id, pairs.data(), pairs.size());
}

}  // namespace baton::quic
