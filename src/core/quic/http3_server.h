// The HTTP/3 side of one QUIC connection: nghttp3 over the connection's
// streams (the control stream and QPACK's two, opened once the handshake is
// done, and the client's request streams). For now it answers every
// request itself, when the request stream ends: 200 "OK" on the health
// path (GET or HEAD), 405 there for another method, 404 elsewhere, each
// with a fixed body; request bodies are read and dropped. docs/http3.md
// says how requests will become exchanges instead.
//
// Owned by its connection; loop thread only. The calls that feed it return
// nghttp3's negative error code on a connection error, which the
// connection turns into its CONNECTION_CLOSE.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>

namespace baton::quic {

class http3_server {
 public:
  // `health_path` ("" for none) outlives this.
  explicit http3_server(const std::string& health_path) : health_path_(health_path) {}
  ~http3_server();
  http3_server(const http3_server&) = delete;
  http3_server& operator=(const http3_server&) = delete;

  // Once the handshake is done: nghttp3 made and its own streams opened on
  // `quic`. 0, or a negative error (ngtcp2's or nghttp3's).
  int start(ngtcp2_conn* quic);
  bool started() const { return h3_ != nullptr; }
  nghttp3_conn* native() const { return h3_; }

  // Bytes of a stream, in order; how many count against flow control as
  // consumed (nghttp3's own streams' bytes; request bodies are consumed in
  // their callback), or a negative nghttp3 error.
  int64_t read_stream(int64_t stream_id, const uint8_t* data, size_t length, bool fin, uint64_t now_ns);
  // QUIC's news about a stream, passed on.
  int acked(int64_t stream_id, uint64_t length);
  int stream_closed(int64_t stream_id, uint64_t app_error_code);
  void shutdown_read(int64_t stream_id);
  void unblock(int64_t stream_id);
  void allow_client_streams(uint64_t max_streams);

 private:
  struct request {
    std::string method;
    std::string path;
  };

  // nghttp3's callbacks, each a static trampoline to the member of the same name.
  static int on_recv_header(nghttp3_conn*, int64_t stream_id, int32_t token, nghttp3_rcbuf* name,
                            nghttp3_rcbuf* value, uint8_t flags, void* self, void* stream_data);
  static int on_end_stream(nghttp3_conn*, int64_t stream_id, void* self, void* stream_data);
  static int on_recv_data(nghttp3_conn*, int64_t stream_id, const uint8_t* data, size_t length, void* self,
                          void* stream_data);
  static int on_deferred_consume(nghttp3_conn*, int64_t stream_id, size_t consumed, void* self,
                                 void* stream_data);
  static int on_stream_close(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* self,
                             void* stream_data);
  static int on_stop_sending(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* self,
                             void* stream_data);
  static int on_reset_stream(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* self,
                             void* stream_data);
  static nghttp3_ssize read_body(nghttp3_conn*, int64_t stream_id, nghttp3_vec* vec, size_t count,
                                 uint32_t* flags, void* self, void* stream_data);

  int respond(int64_t stream_id, const request& r);
  void consumed(int64_t stream_id, size_t length);

  const std::string& health_path_;
  ngtcp2_conn* quic_ = nullptr;
  nghttp3_conn* h3_ = nullptr;
  std::unordered_map<int64_t, request> requests_;
  // The body each answered stream sends (fixed texts, never freed).
  std::unordered_map<int64_t, const char*> bodies_;
};

}  // namespace baton::quic
