// The connection's nghttp3: made once the handshake is done, fed the
// streams' bytes, told QUIC's news; its callbacks, each a trampoline to a
// member; and the request streams' records.
#include "core/quic/http3_server.h"

#include <algorithm>
#include <string_view>

namespace baton::quic {

struct h3_callbacks {
  static http3_server& self(void* p) { return *static_cast<http3_server*>(p); }
  static std::string_view text(nghttp3_rcbuf* b) {
    nghttp3_vec v = nghttp3_rcbuf_get_buf(b);
    return {reinterpret_cast<const char*>(v.base), v.len};
  }
  static int recv_header(nghttp3_conn*, int64_t id, int32_t, nghttp3_rcbuf* name, nghttp3_rcbuf* value, uint8_t,
                         void* user, void*) {
    self(user).add_field(id, text(name), text(value));
    return 0;
  }
  static int end_headers(nghttp3_conn*, int64_t id, int fin, void* user, void*) {
    self(user).start_stream(id, fin != 0);
    return 0;
  }
  static int recv_data(nghttp3_conn*, int64_t id, const uint8_t* data, size_t length, void* user, void*) {
    self(user).deliver(id, data, length);
    return 0;
  }
  static int end_stream(nghttp3_conn*, int64_t id, void* user, void*) {
    self(user).end_body(id);
    return 0;
  }
  // Bytes nghttp3 held back (QPACK's blocked streams) and has now used:
  // credit the client gets back.
  static int deferred_consume(nghttp3_conn*, int64_t id, size_t consumed, void* user, void*) {
    http3_server& s = self(user);
    ngtcp2_conn_extend_max_stream_offset(s.quic_, id, consumed);
    ngtcp2_conn_extend_max_offset(s.quic_, consumed);
    return 0;
  }
  static int acked_stream_data(nghttp3_conn*, int64_t id, uint64_t length, void* user, void*) {
    http3_server& s = self(user);
    request_stream* r = s.find(id);
    if (r == nullptr) return 0;
    s.acknowledged(*r, length);
    return 0;
  }
  static int stream_close(nghttp3_conn*, int64_t id, uint64_t code, void* user, void*) {
    return self(user).stream_closed_by_h3(id, code);
  }
  static int stop_sending(nghttp3_conn*, int64_t id, uint64_t code, void* user, void*) {
    ngtcp2_conn_shutdown_stream_read(self(user).quic_, 0, id, code);
    return 0;
  }
  static int reset_stream(nghttp3_conn*, int64_t id, uint64_t code, void* user, void*) {
    ngtcp2_conn_shutdown_stream_write(self(user).quic_, 0, id, code);
    return 0;
  }
};

http3_server::http3_server(const context& ctx, connection_link& link) : context_(ctx), link_(link) {
  limits_.max_fields = ctx.gate.http.request_limits.max_headers;
}

http3_server::~http3_server() {
  close_streams();
  if (h3_ != nullptr) nghttp3_conn_del(h3_);
}

int http3_server::start(ngtcp2_conn* quic) {
  quic_ = quic;
  peer_trusted_ = gate().trusts_address(link_.peer().address);
  nghttp3_callbacks callbacks{};
  callbacks.acked_stream_data = h3_callbacks::acked_stream_data;
  callbacks.stream_close = h3_callbacks::stream_close;
  callbacks.recv_data = h3_callbacks::recv_data;
  callbacks.deferred_consume = h3_callbacks::deferred_consume;
  callbacks.recv_header = h3_callbacks::recv_header;
  callbacks.end_headers = h3_callbacks::end_headers;
  callbacks.stop_sending = h3_callbacks::stop_sending;
  callbacks.end_stream = h3_callbacks::end_stream;
  callbacks.reset_stream = h3_callbacks::reset_stream;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  // QPACK's dynamic table: a small one, as most servers keep.
  settings.qpack_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = 100;
  // RFC 9220: extended CONNECT (WebSockets) when the app serves them; without
  // it, a request with :protocol is malformed.
  settings.enable_connect_protocol = context_.extended_connect ? 1 : 0;
  // The field section's size is not announced (SETTINGS_MAX_FIELD_SECTION_SIZE):
  // it is counted as it is decoded, and a request past it gets 431.
  int rv = nghttp3_conn_server_new(&h3_, &callbacks, &settings, nullptr, this);
  if (rv != 0) return rv;
  const ngtcp2_transport_params* params = ngtcp2_conn_get_local_transport_params(quic_);
  nghttp3_conn_set_max_client_streams_bidi(h3_, params->initial_max_streams_bidi);
  slots_returned_together_ = std::max<uint64_t>(params->initial_max_streams_bidi / 4, 1);
  int64_t control = -1;
  int64_t encoder = -1;
  int64_t decoder = -1;
  if ((rv = ngtcp2_conn_open_uni_stream(quic_, &control, nullptr)) != 0) return rv;
  if ((rv = nghttp3_conn_bind_control_stream(h3_, control)) != 0) return rv;
  if ((rv = ngtcp2_conn_open_uni_stream(quic_, &encoder, nullptr)) != 0) return rv;
  if ((rv = ngtcp2_conn_open_uni_stream(quic_, &decoder, nullptr)) != 0) return rv;
  return nghttp3_conn_bind_qpack_streams(h3_, encoder, decoder);
}

int64_t http3_server::read_stream(int64_t stream_id, const uint8_t* data, size_t length, bool fin,
                                  uint64_t now_ns) {
  return nghttp3_conn_read_stream2(h3_, stream_id, data, length, fin ? 1 : 0, now_ns);
}

int http3_server::acked(int64_t stream_id, uint64_t length) {
  return h3_ != nullptr ? nghttp3_conn_add_ack_offset(h3_, stream_id, length) : 0;
}

int http3_server::stream_closed(int64_t stream_id, uint64_t app_error_code) {
  // A finished request stream makes room for the client's next one, whether
  // or not nghttp3 ever saw it (a stream reset before its first byte),
  // unless it did so when it was done on this side.
  if (quic_ != nullptr && ngtcp2_is_bidi_stream(stream_id)) {
    const request_stream* s = find(stream_id);
    if (s != nullptr && s->slot_spare && slots_lent_ > 0) {
      --slots_lent_;  // one of the spare slots given back already: this one's, as good as any
    } else {
      if (s != nullptr && s->slot_spare) --slots_held_;
      ngtcp2_conn_extend_max_streams_bidi(quic_, 1);
    }
  }
  if (h3_ == nullptr) return 0;
  int rv = nghttp3_conn_close_stream(h3_, stream_id, app_error_code);
  return rv == NGHTTP3_ERR_STREAM_NOT_FOUND ? 0 : rv;
}

void http3_server::sent_to_end(int64_t stream_id) {
  request_stream* s = find(stream_id);
  if (s == nullptr) return;
  s->sent_to_end = true;
  return_slot_when_done(*s);
}

// A request stream both of whose ends have been sent, the client's FIN
// received and ours in a packet, is done here, though QUIC closes it (and
// gives its slot back to the client) only once the client has
// acknowledged that packet, which a client may put off for its ack delay.
// A client that keeps as many requests in flight as it may would wait that
// long for each slot. So once a quarter of the client's slots are held by
// such streams, they all go back at once (one MAX_STREAMS); each stream's
// close then gives back nothing more. Fewer are left to their closes: a
// client with slots to spare needs none sooner, and slots given back one
// at a time would cost a packet each (the answer's last packet is written
// before its FIN is known to be in it). What a spare stream still holds is
// its answer's unacknowledged tail, which the congestion window bounds.
void http3_server::return_slot_when_done(request_stream& s) {
  if (s.slot_spare || !s.client_ended || !s.sent_to_end || quic_ == nullptr) return;
  s.slot_spare = true;
  if (++slots_held_ < slots_returned_together_) return;
  ngtcp2_conn_extend_max_streams_bidi(quic_, slots_held_);
  slots_lent_ += slots_held_;
  slots_held_ = 0;
}

// nghttp3 is done with a stream (QUIC closed it both ways).
int http3_server::stream_closed_by_h3(int64_t id, uint64_t code) {
  request_stream* s = find(id);
  if (s == nullptr) return 0;
  // Its answer went whole while its app is still at work (a WSGI close(),
  // an ASGI background task): the exchange stays this connection's until
  // the app returns, as on HTTP/1 and HTTP/2.
  if (s->x != nullptr && s->phase == stream_phase::inside && !s->reset && s->head_sent && s->body_ended &&
      code == NGHTTP3_H3_NO_ERROR && (s->whole || s->x->response_head().no_body)) {
    s->lingering = true;
    return 0;
  }
  free_stream(s);
  return 0;
}

// The client reset its side (RESET_STREAM): its request is abandoned
// (RFC 9114 section 4.1.1), unless its body had ended, when the answer
// may still go out.
void http3_server::peer_reset(int64_t stream_id) {
  if (h3_ == nullptr) return;
  nghttp3_conn_shutdown_stream_read(h3_, stream_id);
  request_stream* s = find(stream_id);
  if (s == nullptr) {
    // Reset before its head was whole: there is nothing to answer, and the
    // stream ends both ways (it must, to make room for the client's next).
    ngtcp2_conn_shutdown_stream_write(quic_, 0, stream_id, NGHTTP3_H3_REQUEST_CANCELLED);
    return;
  }
  if (s->carried != nullptr && !s->reset) {
    // A switched stream the client gives up on: it ends both ways, and its
    // protocol hears of it when it closes (a WebSocket's app: 1006).
    reset_stream(*s, NGHTTP3_H3_REQUEST_CANCELLED);
    return;
  }
  if (s->body_ended || s->reset) return;
  if (s->x != nullptr) {
    s->body_ended = true;
    s->x->deliver_body_error(400);
  }
  s->reset = true;
  ngtcp2_conn_shutdown_stream_write(quic_, 0, stream_id, NGHTTP3_H3_REQUEST_CANCELLED);
}

void http3_server::shutdown_read(int64_t stream_id) {
  if (h3_ != nullptr) nghttp3_conn_shutdown_stream_read(h3_, stream_id);
}

void http3_server::unblock(int64_t stream_id) {
  if (h3_ != nullptr) nghttp3_conn_unblock_stream(h3_, stream_id);
}

void http3_server::allow_client_streams(uint64_t max_streams) {
  if (h3_ != nullptr) nghttp3_conn_set_max_client_streams_bidi(h3_, max_streams);
}

request_stream* http3_server::find(int64_t id) const {
  auto it = streams_.find(id);
  return it != streams_.end() ? it->second.get() : nullptr;
}

// An exchange's stream: client request streams are numbered 0, 4, 8 and
// so on (RFC 9000 section 2.1), so the exchange carries the id over four.
request_stream* http3_server::find(const exchange::exchange* x) const {
  request_stream* s = find(int64_t{x->links.sink_key} * 4);
  return s != nullptr && s->x == x ? s : nullptr;
}

request_stream& http3_server::open(int64_t id) {
  auto& slot = streams_[id];
  if (slot == nullptr) {
    slot = std::make_unique<request_stream>();
    slot->id = id;
  }
  return *slot;
}

void http3_server::free_stream(request_stream* s) {
  if (s->carried != nullptr) {
    s->carried->on_close();  // the switched protocol lets go of its app first
    s->carried.reset();
    s->carrier.reset();
    if (--switched_count_ == 0) link_.keep_alive(false);
  }
  if (exchange::exchange* x = s->x) {
    s->x = nullptr;
    x->links.sink = nullptr;
    if (s->phase != stream_phase::done) x->cancel();  // the client reset it, or the connection went
    x->release();
  }
  unacknowledged_ -= s->sent.unacknowledged();
  streams_.erase(s->id);
}

void http3_server::close_streams() {
  while (!streams_.empty()) free_stream(streams_.begin()->second.get());
  ready_.clear();
}

}  // namespace baton::quic
