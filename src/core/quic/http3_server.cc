#include "core/quic/http3_server.h"

#include <cstring>
#include <string_view>

namespace baton::quic {
namespace {

// The fixed answers of this first version (docs/http3.md).
constexpr const char* ok_body = "OK\n";
constexpr const char* not_found_body = "not found\n";
constexpr const char* wrong_method_body = "GET or HEAD\n";

nghttp3_nv field(std::string_view name, std::string_view value) {
  return {reinterpret_cast<const uint8_t*>(name.data()), reinterpret_cast<const uint8_t*>(value.data()),
          name.size(), value.size(), NGHTTP3_NV_FLAG_NONE};
}

http3_server& self_of(void* p) { return *static_cast<http3_server*>(p); }

}  // namespace

http3_server::~http3_server() {
  if (h3_ != nullptr) nghttp3_conn_del(h3_);
}

int http3_server::start(ngtcp2_conn* quic) {
  quic_ = quic;
  nghttp3_callbacks callbacks{};
  callbacks.stream_close = on_stream_close;
  callbacks.recv_data = on_recv_data;
  callbacks.deferred_consume = on_deferred_consume;
  callbacks.recv_header = on_recv_header;
  callbacks.stop_sending = on_stop_sending;
  callbacks.end_stream = on_end_stream;
  callbacks.reset_stream = on_reset_stream;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  // QPACK's dynamic table: a small one, as most servers keep.
  settings.qpack_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = 100;
  int rv = nghttp3_conn_server_new(&h3_, &callbacks, &settings, nullptr, this);
  if (rv != 0) return rv;
  const ngtcp2_transport_params* params = ngtcp2_conn_get_local_transport_params(quic_);
  nghttp3_conn_set_max_client_streams_bidi(h3_, params->initial_max_streams_bidi);
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
  if (h3_ == nullptr) return 0;
  int rv = nghttp3_conn_close_stream(h3_, stream_id, app_error_code);
  return rv == NGHTTP3_ERR_STREAM_NOT_FOUND ? 0 : rv;
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

// Flow control: bytes nghttp3 handed over (a request body) or finished
// with later (deferred) are credit the client gets back.
void http3_server::consumed(int64_t stream_id, size_t length) {
  ngtcp2_conn_extend_max_stream_offset(quic_, stream_id, length);
  ngtcp2_conn_extend_max_offset(quic_, length);
}

int http3_server::on_recv_header(nghttp3_conn*, int64_t stream_id, int32_t token, nghttp3_rcbuf*,
                                 nghttp3_rcbuf* value, uint8_t, void* self, void*) {
  if (token != NGHTTP3_QPACK_TOKEN__METHOD && token != NGHTTP3_QPACK_TOKEN__PATH) return 0;
  nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
  std::string text(reinterpret_cast<const char*>(v.base), v.len);
  request& r = self_of(self).requests_[stream_id];
  (token == NGHTTP3_QPACK_TOKEN__METHOD ? r.method : r.path) = std::move(text);
  return 0;
}

int http3_server::on_end_stream(nghttp3_conn*, int64_t stream_id, void* self, void*) {
  http3_server& s = self_of(self);
  auto it = s.requests_.find(stream_id);
  request r = it != s.requests_.end() ? std::move(it->second) : request{};
  if (it != s.requests_.end()) s.requests_.erase(it);
  return s.respond(stream_id, r);
}

int http3_server::on_recv_data(nghttp3_conn*, int64_t stream_id, const uint8_t*, size_t length, void* self,
                               void*) {
  self_of(self).consumed(stream_id, length);
  return 0;
}

int http3_server::on_deferred_consume(nghttp3_conn*, int64_t stream_id, size_t consumed, void* self, void*) {
  self_of(self).consumed(stream_id, consumed);
  return 0;
}

int http3_server::on_stream_close(nghttp3_conn*, int64_t stream_id, uint64_t, void* self, void*) {
  http3_server& s = self_of(self);
  s.requests_.erase(stream_id);
  s.bodies_.erase(stream_id);
  // A finished request stream makes room for the client's next one.
  if (ngtcp2_is_bidi_stream(stream_id)) ngtcp2_conn_extend_max_streams_bidi(s.quic_, 1);
  return 0;
}

int http3_server::on_stop_sending(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* self, void*) {
  ngtcp2_conn_shutdown_stream_read(self_of(self).quic_, 0, stream_id, app_error_code);
  return 0;
}

int http3_server::on_reset_stream(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* self, void*) {
  ngtcp2_conn_shutdown_stream_write(self_of(self).quic_, 0, stream_id, app_error_code);
  return 0;
}

nghttp3_ssize http3_server::read_body(nghttp3_conn*, int64_t stream_id, nghttp3_vec* vec, size_t count,
                                      uint32_t* flags, void* self, void*) {
  http3_server& s = self_of(self);
  *flags |= NGHTTP3_DATA_FLAG_EOF;
  auto it = s.bodies_.find(stream_id);
  if (it == s.bodies_.end() || count == 0) return 0;
  // The body is a constant: nghttp3 may point at it until it is acked.
  vec[0].base = reinterpret_cast<uint8_t*>(const_cast<char*>(it->second));
  vec[0].len = std::strlen(it->second);
  s.bodies_.erase(it);
  return 1;
}

int http3_server::respond(int64_t stream_id, const request& r) {
  const bool head = r.method == "HEAD";
  const char* status = "404";
  const char* body = not_found_body;
  if (!health_path_.empty() && r.path == health_path_) {
    const bool readable = r.method == "GET" || head;
    status = readable ? "200" : "405";
    body = readable ? ok_body : wrong_method_body;
  }
  std::string length = std::to_string(std::strlen(body));
  nghttp3_nv fields[] = {
      field(":status", status),
      field("server", "baton"),
      field("content-type", "text/plain; charset=utf-8"),
      field("content-length", length),
      field("cache-control", "no-store"),
  };
  if (!head) bodies_[stream_id] = body;
  nghttp3_data_reader reader{read_body};
  return nghttp3_conn_submit_response(h3_, stream_id, fields, sizeof(fields) / sizeof(fields[0]),
                                      head ? nullptr : &reader);
}

}  // namespace baton::quic
