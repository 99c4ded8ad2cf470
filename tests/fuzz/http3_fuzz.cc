// libFuzzer target for HTTP/3 over QUIC (src/core/quic/): the glue between
// ngtcp2, nghttp3 and the exchanges (the endpoint's dispatch, the
// connection's callbacks and flush, the stream to exchange mapping, the
// credit given back, the request rules of pseudo_head.h, streams that
// switch to a WebSocket). ngtcp2's and nghttp3's own parsing are fuzzed
// upstream.
//
// Each input runs on a fresh endpoint and a fresh QUIC connection: an
// in-process ngtcp2 client completes a real handshake with the endpoint
// over two loopback UDP sockets (its datagrams handed to the endpoint as a
// listener would; the server's sent on its socket and read back by the
// client), then sends the input's records as stream data, each in real
// QUIC packets. The input after its control byte is a list of records:
//   byte 0  bits 0-1  what the app does with each exchange (fuzz_app.h:
//                     answer at once, read then answer, stream with
//                     trailers, leave until the end)
//           bit 2     small limits (fields, body)
//           bit 3     WebSockets served (extended CONNECT announced)
//           bit 4     a drain begins before the end
//           bit 5     the app timeout abandons the streams still in the app
//           bit 6     the client closes the connection at the end (it
//                     drains), then the server stops: close_all (alone
//                     without it)
//           bit 7     an app that has begun its answer fails instead of
//                     finishing it
//   a record: op, a length (two bytes, big-endian, cut to what is left),
//   then that many bytes for the stream
//     op bits 0-2  the stream: 0 to 3 the client's request streams (opened
//                  on first use), 4 its control stream, 5 its QPACK
//                  encoder stream, 6 its decoder stream (each opened on
//                  first use; the input writes its type byte), 7 none
//        bit 3     the bytes end the stream (FIN)
//        bit 4     then the client resets the stream (RESET_STREAM)
//        bit 5     then the client asks the server to stop (STOP_SENDING)
//        bit 6     then the app runs and the packets both ways are read
//
// Checked for every input: what fuzz_app.h checks of the heads and bodies
// the app sees and of the exchanges once the connection has closed, that
// the handshake completes, and that the endpoint holds no connection once
// it has closed them. AddressSanitizer, UBSan and LeakSanitizer watch the
// rest.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <string_view>

#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_ossl.h>

#include "core/exchange/pseudo_response.h"
#include "core/gate/request_gate.h"
#include "core/loop/event_loop.h"
#include "core/loop/thread_contract.h"
#include "core/net/tls.h"
#include "core/quic/endpoint.h"
#include "core/session/protocol_host.h"
#include "core/util/log.h"
#include "core/ws/endpoint.h"
#include "core/ws/protocol.h"
#include "fuzz/fuzz_app.h"
#include "unit/support/test_certificate.h"

namespace {

namespace x = baton::exchange;
namespace ws = baton::ws;
using baton::loop::event_loop;

[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
  baton::fuzz::broken("http3_fuzz", what, detail);
}

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * NGTCP2_SECONDS + static_cast<uint64_t>(ts.tv_nsec);
}

// A UDP socket on 127.0.0.1, non-blocking, and its address.
struct udp_socket {
  int fd = -1;
  sockaddr_in address{};
  udp_socket() {
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      broken("no loopback UDP socket");
    }
    int big = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  }
  ~udp_socket() { close(fd); }
  udp_socket(const udp_socket&) = delete;
  udp_socket& operator=(const udp_socket&) = delete;
  sockaddr* addr() { return reinterpret_cast<sockaddr*>(&address); }
};

// Plays the server; the app is fuzz_app's. WebSockets are served when an
// input asks.
struct fuzz_host final : baton::session::protocol_host, ws::host {
  event_loop loop;
  baton::session::http_settings http;
  std::atomic<bool> draining{false};
  baton::gate::request_gate gate{http, *this, draining};
  x::pseudo_framing wire{"baton"};
  ws::settings ws_config;
  ws::inflater inflater;
  ws::wire ws_wire{ws_config.deflate};
  ws::context ws_context{ws_config, *this, inflater};
  baton::fuzz::fuzz_app app{"http3_fuzz", loop, http.exchanges};
  baton::test::certificate_files certificate;
  std::unique_ptr<baton::net::tls_context> tls;
  udp_socket server_socket;

  fuzz_host() {
    baton::net::tls_settings settings;
    settings.certfile = certificate.cert;
    settings.keyfile = certificate.key;
    std::string error;
    tls = baton::net::tls_context::load(settings, error);
    if (tls == nullptr) broken("the test certificate", error);
  }

  void reset(bool small, bool websockets) {
    app.reset(http, small, 3);
    ws_config.enabled = websockets;
    ws_config.ping_interval_ms = 0;
  }

  x::exchange* new_exchange() override { return app.take_exchange(); }
  void submit(x::exchange* s) override { app.submit(s); }
  baton::session::upgrade_verdict offer_upgrade(x::exchange& s) override {
    if (!ws_config.enabled) return {};
    return ws::offer_opening(s, ws_config, ws_wire);
  }
  int upgrade_answer_timeout_ms() const override { return ws_config.handshake_timeout_ms; }
  std::unique_ptr<baton::session::switched_protocol> switched_on(baton::session::byte_stream& carrier,
                                                                 x::exchange& s) override {
    if (!s.upgrade().websocket() || !s.switched()) return nullptr;
    return std::make_unique<ws::endpoint>(ws_context, carrier, s);
  }
  void websocket_closed(x::exchange&, const ws::closed_record&) override {}
};

bool verbose() {
  static const bool on = std::getenv("HTTP3_FUZZ_VERBOSE") != nullptr;
  return on;
}

fuzz_host& host() {
  static fuzz_host* h = [] {
    baton::log::set_level(verbose() ? baton::log::level::debug : baton::log::level::critical);
    return new fuzz_host();
  }();
  return *h;
}

// The client: ngtcp2 over OpenSSL, TLS 1.3 with ALPN h3, certificates not
// checked. Its datagrams go straight to the endpoint; the server's come
// back on its own socket.
class quic_client {
 public:
  quic_client(fuzz_host& h, baton::quic::endpoint& server) : host_(h), server_(server) {}
  ~quic_client() {
    if (conn_ != nullptr) ngtcp2_conn_del(conn_);
    if (ossl_ != nullptr) ngtcp2_crypto_ossl_ctx_del(ossl_);
    if (ssl_ != nullptr) SSL_free(ssl_);
  }
  quic_client(const quic_client&) = delete;
  quic_client& operator=(const quic_client&) = delete;

  bool start() {
    static SSL_CTX* ctx = [] {
      SSL_CTX* made = SSL_CTX_new(TLS_client_method());
      SSL_CTX_set_min_proto_version(made, TLS1_3_VERSION);
      SSL_CTX_set_max_proto_version(made, TLS1_3_VERSION);
      return made;
    }();
    ssl_ = SSL_new(ctx);
    if (ssl_ == nullptr || ngtcp2_crypto_ossl_configure_client_session(ssl_) != 0) return false;
    SSL_set_app_data(ssl_, &ref_);
    SSL_set_connect_state(ssl_);
    static const unsigned char alpn[] = {2, 'h', '3'};
    SSL_set_alpn_protos(ssl_, alpn, sizeof alpn);
    SSL_set_tlsext_host_name(ssl_, "localhost");
    if (ngtcp2_crypto_ossl_ctx_new(&ossl_, ssl_) != 0) return false;

    ngtcp2_callbacks callbacks{};
    callbacks.client_initial = ngtcp2_crypto_client_initial_cb;
    callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
    callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
    callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
    callbacks.recv_retry = ngtcp2_crypto_recv_retry_cb;
    callbacks.update_key = ngtcp2_crypto_update_key_cb;
    callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    callbacks.get_path_challenge_data2 = ngtcp2_crypto_get_path_challenge_data2_cb;
    callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    callbacks.rand = [](uint8_t* dest, size_t length, const ngtcp2_rand_ctx*) {
      RAND_bytes(dest, static_cast<int>(length));
    };
    callbacks.get_new_connection_id2 = [](ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token,
                                          size_t length, void*) {
      cid->datalen = length;
      RAND_bytes(cid->data, static_cast<int>(length));
      RAND_bytes(token->data, sizeof token->data);
      return 0;
    };
    callbacks.handshake_completed = [](ngtcp2_conn*, void* self) {
      static_cast<quic_client*>(self)->handshake_done_ = true;
      return 0;
    };
    // The server's answers are read and dropped; their credit goes back.
    callbacks.recv_stream_data = [](ngtcp2_conn* conn, uint32_t, int64_t id, uint64_t, const uint8_t*,
                                    size_t length, void*, void*) {
      ngtcp2_conn_extend_max_stream_offset(conn, id, length);
      ngtcp2_conn_extend_max_offset(conn, length);
      return 0;
    };

    ngtcp2_cid dcid;
    ngtcp2_cid scid;
    dcid.datalen = 18;
    scid.datalen = 16;
    RAND_bytes(dcid.data, static_cast<int>(dcid.datalen));
    RAND_bytes(scid.data, static_cast<int>(scid.datalen));
    ngtcp2_settings settings;
    ngtcp2_settings_default(&settings);
    settings.initial_ts = now_ns();
    ngtcp2_transport_params params;
    ngtcp2_transport_params_default(&params);
    params.initial_max_stream_data_bidi_local = 1 << 20;
    params.initial_max_stream_data_uni = 1 << 20;
    params.initial_max_data = 16 << 20;
    params.initial_max_streams_uni = 3;
    params.max_idle_timeout = 30 * NGTCP2_SECONDS;
    ngtcp2_path path{{reinterpret_cast<ngtcp2_sockaddr*>(socket_.addr()), sizeof(sockaddr_in)},
                     {reinterpret_cast<ngtcp2_sockaddr*>(host_.server_socket.addr()), sizeof(sockaddr_in)},
                     nullptr};
    if (ngtcp2_conn_client_new(&conn_, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks, &settings, &params,
                               nullptr, this) != 0) {
      return false;
    }
    ngtcp2_conn_set_tls_native_handle(conn_, ossl_);
    for (int round = 0; round < 20 && !handshake_done_; ++round) {
      send();
      receive();
      if (verbose()) {
        std::fprintf(stderr, "http3_fuzz: handshake round %d: %zu bytes from the server, %zu connections\n", round,
                     received_, server_.open_connections());
      }
    }
    send();  // the last acknowledgements
    return handshake_done_;
  }

  // Writes `length` bytes (and FIN) on `id`, as the credit allows; what the
  // server keeps waiting past a few exchanges of packets is dropped.
  void write(int64_t id, const uint8_t* data, size_t length, bool fin) {
    ngtcp2_vec v{const_cast<uint8_t*>(data), length};
    for (int stalls = 0; stalls < 8;) {
      ngtcp2_path_storage ps;
      ngtcp2_path_storage_zero(&ps);
      ngtcp2_pkt_info info{};
      ngtcp2_ssize accepted = -1;
      uint32_t flags = fin ? NGTCP2_WRITE_STREAM_FLAG_FIN : NGTCP2_WRITE_STREAM_FLAG_NONE;
      ngtcp2_ssize n = ngtcp2_conn_writev_stream(conn_, &ps.path, &info, packet_, sizeof packet_, &accepted, flags,
                                                 id, &v, v.len != 0 ? 1 : 0, now_ns());
      if (n < 0) {
        if (n != NGTCP2_ERR_STREAM_DATA_BLOCKED) return;  // shut, or not open
        ++stalls;
        exchange();
        continue;
      }
      if (accepted > 0) {
        v.base += accepted;
        v.len -= static_cast<size_t>(accepted);
      }
      if (n == 0) {
        ++stalls;
        exchange();
        continue;
      }
      deliver(packet_, static_cast<size_t>(n));
      if (v.len == 0 && accepted >= 0) return;
    }
  }

  int64_t open(bool bidi) {
    int64_t id = -1;
    int rv = bidi ? ngtcp2_conn_open_bidi_stream(conn_, &id, nullptr) : ngtcp2_conn_open_uni_stream(conn_, &id, nullptr);
    return rv == 0 ? id : -1;
  }

  void reset(int64_t id) { ngtcp2_conn_shutdown_stream_write(conn_, 0, id, NGHTTP3_H3_REQUEST_CANCELLED); }
  void stop(int64_t id) { ngtcp2_conn_shutdown_stream_read(conn_, 0, id, NGHTTP3_H3_REQUEST_CANCELLED); }

  // The client's CONNECTION_CLOSE (H3_NO_ERROR).
  void close() {
    ngtcp2_path_storage ps;
    ngtcp2_path_storage_zero(&ps);
    ngtcp2_pkt_info info{};
    ngtcp2_ccerr error;
    ngtcp2_ccerr_default(&error);
    ngtcp2_ccerr_set_application_error(&error, NGHTTP3_H3_NO_ERROR, nullptr, 0);
    ngtcp2_ssize n = ngtcp2_conn_write_connection_close(conn_, &ps.path, &info, packet_, sizeof packet_, &error,
                                                        now_ns());
    if (n > 0) deliver(packet_, static_cast<size_t>(n));
  }

  // Packets both ways: the server's read, the client's own sent.
  void exchange() {
    receive();
    send();
  }

  size_t received() const { return received_; }

 private:
  // The client's packets to the server, then the end of the server loop's
  // pass, as after a listener's wake: a connection writes what its reads
  // made due once the pass has read them all (its timer, due at once).
  void send() {
    for (int i = 0; i < 64; ++i) {
      ngtcp2_path_storage ps;
      ngtcp2_path_storage_zero(&ps);
      ngtcp2_pkt_info info{};
      ngtcp2_ssize n = ngtcp2_conn_write_pkt(conn_, &ps.path, &info, packet_, sizeof packet_, now_ns());
      if (n <= 0) break;
      deliver(packet_, static_cast<size_t>(n));
    }
    host_.loop.run_inbox_and_timers();
  }

  void receive() {
    uint8_t buffer[65536];
    ngtcp2_path path{{reinterpret_cast<ngtcp2_sockaddr*>(socket_.addr()), sizeof(sockaddr_in)},
                     {reinterpret_cast<ngtcp2_sockaddr*>(host_.server_socket.addr()), sizeof(sockaddr_in)},
                     nullptr};
    while (true) {
      ssize_t n = recv(socket_.fd, buffer, sizeof buffer, 0);
      if (n <= 0) return;
      received_ += static_cast<size_t>(n);
      ngtcp2_pkt_info info{};
      ngtcp2_conn_read_pkt(conn_, &path, &info, buffer, static_cast<size_t>(n), now_ns());
    }
  }

  // A datagram of the client's, as the server's listener would hand it on.
  void deliver(const uint8_t* data, size_t length) {
    baton::net::datagram d;
    d.data = data;
    d.length = length;
    d.peer = socket_.addr();
    d.peer_length = sizeof(sockaddr_in);
    d.local = host_.server_socket.addr();
    d.local_length = sizeof(sockaddr_in);
    d.fd = host_.server_socket.fd;
    server_.on_datagram(d);
  }

  static ngtcp2_conn* conn_of(ngtcp2_crypto_conn_ref* ref) { return static_cast<quic_client*>(ref->user_data)->conn_; }

  fuzz_host& host_;
  baton::quic::endpoint& server_;
  udp_socket socket_;
  ngtcp2_conn* conn_ = nullptr;
  SSL* ssl_ = nullptr;
  ngtcp2_crypto_ossl_ctx* ossl_ = nullptr;
  ngtcp2_crypto_conn_ref ref_{conn_of, this};
  bool handshake_done_ = false;
  size_t received_ = 0;
  uint8_t packet_[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
};

// The app's turn, then what its news made due, then the packets both ways.
void pass(fuzz_host& h, quic_client& client, bool last) {
  h.app.run(last);
  h.loop.run_once(0);
  client.exchange();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  fuzz_host& h = host();
  // The endpoint's calls come from the loop's pass, as a listener's would.
  baton::loop::running_pass on_loop(&h.loop);
  uint8_t c0 = data[0];
  h.reset((c0 & 0x4) != 0, (c0 & 0x8) != 0);
  h.app.mode = static_cast<baton::fuzz::app_mode>(c0 & 0x3);
  h.app.fail_after_head = (c0 & 0x80) != 0;

  std::string error;
  baton::quic::context ctx{h.gate, h.wire, h.ws_config.enabled};
  std::unique_ptr<baton::quic::endpoint> server =
      baton::quic::endpoint::make(h.loop, *h.tls, ctx, baton::net::cid_prefix{}, std::string(),
                                  baton::net::quic_retry_mode::off, error);
  if (server == nullptr) broken("no endpoint", error);
  {
    quic_client client(h, *server);
    if (!client.start()) broken("the handshake did not complete");
    int64_t streams[7] = {-1, -1, -1, -1, -1, -1, -1};
    size_t at = 1;
    while (at + 3 <= size) {
      uint8_t op = data[at];
      size_t length = (size_t{data[at + 1]} << 8) | data[at + 2];
      at += 3;
      if (length > size - at) length = size - at;
      unsigned slot = op & 0x7;
      if (slot < 7) {
        int64_t& id = streams[slot];
        if (id < 0) id = client.open(slot < 4);
        if (id >= 0) {
          client.write(id, data + at, length, (op & 0x8) != 0);
          if ((op & 0x10) != 0) client.reset(id);
          if ((op & 0x20) != 0) client.stop(id);
        }
      }
      at += length;
      if ((op & 0x40) != 0 || slot == 7) pass(h, client, false);
    }
    pass(h, client, false);
    if ((c0 & 0x10) != 0) {
      server->drain();
      pass(h, client, false);
    }
    if ((c0 & 0x20) != 0) {
      server->abandon_overdue(INT64_MAX);
      pass(h, client, false);
    }
    pass(h, client, true);
    if ((c0 & 0x40) != 0) {
      // The client's close: the connection drains (closing_period.h), and
      // the server's stop ends that period too.
      client.close();
      h.loop.run_once(0);
    }
    server->close_all();
    h.loop.run_once(0);
    if (server->open_connections() != 0) {
      broken("the endpoint holds connections after they closed", std::to_string(server->open_connections()));
    }
    if (verbose()) {
      size_t switched = 0;
      for (const baton::fuzz::app_request& a : h.app.requests) switched += a.switched ? 1 : 0;
      std::fprintf(stderr,
                   "http3_fuzz: %zu exchanges made, %zu handed to the app (%zu WebSockets accepted), %zu bytes sent "
                   "to the client\n",
                   h.app.made, h.app.requests.size(), switched, client.received());
    }
  }
  h.app.after_close();
  server.reset();
  h.loop.run_once(0);
  h.app.check_recycled();
  return 0;
}
