// One QUIC connection, the datagram world's counterpart of a session: it
// owns the ngtcp2_conn, its TLS (tls_session) and its HTTP/3 (http3_server),
// and one loop timer set to ngtcp2's next expiry (or sooner, when a
// switched stream's WebSocket has something due). Datagrams reach it through
// the endpoint, which found it by their destination connection ID; it
// writes its packets straight to the UDP socket they came in on.
//
// Its lifetime: made by the endpoint for a client's first Initial; closed
// (closed() true: it sends and serves nothing more) by an idle timeout, a
// connection error or the server's drain or stop (after sending
// CONNECTION_CLOSE), or the peer's close. After a close it sent or heard it
// keeps its IDs for the closing or draining period (closing_period.h),
// then the endpoint frees it between datagrams; after an idle timeout or
// the server's stop, at once. A send that meets a full socket drops that
// packet, which loss recovery resends.
//
// Loop thread only.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>

#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include "core/loop/event_loop.h"
#include "core/metrics/record.h"
#include "core/net/datagram.h"
#include "core/net/tls_facts.h"
#include "core/quic/closing_period.h"
#include "core/quic/context.h"
#include "core/quic/http3_server.h"
#include "core/quic/tls_server.h"

namespace baton::quic {

class endpoint;

class connection final : private loop::timer_handler, private connection_link {
 public:
  connection(endpoint& owner, const context& ctx);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // For the client's first Initial `d` (its header `hd`, from
  // ngtcp2_accept): the connection made, its first connection ID `scid`
  // chosen by the endpoint; `original`, when the Initial carried a valid
  // Retry token, the destination ID the client first chose (null without);
  // `proof`, the kind of valid token the Initial carried (a Retry's, a
  // NEW_TOKEN's), which proves the client's address, or
  // NGTCP2_TOKEN_TYPE_UNKNOWN for none. False with `error` set when it
  // cannot be.
  bool accept(const net::datagram& d, const ngtcp2_pkt_hd& hd, const ngtcp2_cid& scid, const ngtcp2_cid* original,
              ngtcp2_token_type proof, std::string& error);
  // A datagram for this connection: read, answered, the timer re-armed;
  // once closed, answered as its closing period says.
  void receive(const net::datagram& d);
  bool closed() const { return closed_; }
  bool handshake_completed() const { return handshake_done_; }
  // The app timeout (http3_server::abandon_overdue), and what it owes sent.
  bool abandon_overdue(int64_t entered_before_ms);
  size_t release_idle_memory() { return closed_ ? 0 : h3_.release_idle_memory(); }
  // A drain: GOAWAY (no request past those taken), then closed once
  // every request is done.
  void drain();
  // CONNECTION_CLOSE (H3_NO_ERROR) sent, every stream's exchange let go,
  // closed: after a drain with its closing period (`linger`), when the
  // server stops without (and a connection in its period ends it now).
  void close_now(bool linger);

 private:
  void on_timer() override;  // ngtcp2's expiry, or a switched stream's deadline
  // connection_link
  const char* peer_for_log() const override { return peer_text_; }
  exchange::peer_info peer() const override;
  void wake() override;
  int64_t now_ms() const override;
  void replan() override;
  void keep_alive(bool on) override;
  void set_peer(const sockaddr* address, socklen_t length);
  void end();
  // Sends what ngtcp2 has ready (at most a burst), then re-arms the timer.
  void flush();
  // flush() once this pass's reads are done (the expiry timer, due now).
  void flush_this_pass();
  // A connection error: CONNECTION_CLOSE sent once, then closed.
  void fail(int liberr, const char* where);
  // An HTTP/3 error (nghttp3's `liberr`): the application error code the
  // CONNECTION_CLOSE will carry.
  void h3_error(int liberr);
  // CONNECTION_CLOSE with last_error_, once; then closed, with its closing
  // period when `linger`.
  void send_close(bool linger);
  // Closed: the streams let go, the period (if any) timed.
  void closed_for(closing_period::state period);
  // The endpoint is told, once, that it may free this connection.
  void finish();
  void arm_expiry();
  static ngtcp2_conn* conn_of(ngtcp2_crypto_conn_ref* ref);

  // ngtcp2's callbacks that are ours (the crypto layer supplies the rest).
  static int on_recv_stream_data(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t offset,
                                 const uint8_t* data, size_t length, void* self, void* stream_data);
  static int on_acked_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t offset, uint64_t length,
                                  void* self, void* stream_data);
  static int on_stream_close(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t app_error_code,
                             void* self, void* stream_data);
  static int on_stream_reset(ngtcp2_conn*, int64_t stream_id, uint64_t final_size, uint64_t app_error_code,
                             void* self, void* stream_data);
  static int on_stream_stop_sending(ngtcp2_conn*, int64_t stream_id, uint64_t app_error_code, void* self,
                                    void* stream_data);
  static int on_extend_max_remote_streams_bidi(ngtcp2_conn*, uint64_t max_streams, void* self);
  static int on_extend_max_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t max_data, void* self,
                                       void* stream_data);
  static int on_handshake_completed(ngtcp2_conn*, void* self);
  static void on_rand(uint8_t* dest, size_t length, const ngtcp2_rand_ctx* context);
  static int on_new_connection_id(ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token,
                                  size_t cid_length, void* self);
  static int on_remove_connection_id(ngtcp2_conn*, const ngtcp2_cid* cid, void* self);

  endpoint& owner_;
  ngtcp2_conn* conn_ = nullptr;
  ngtcp2_crypto_conn_ref ref_{conn_of, this};
  tls_session tls_;
  http3_server h3_;
  ngtcp2_ccerr last_error_{};
  bool error_set_ = false;
  int fd_ = -1;  // the UDP socket to answer on
  sockaddr_storage local_{};
  socklen_t local_length_ = 0;
  sockaddr_storage peer_{};
  socklen_t peer_length_ = 0;
  char peer_text_[64] = "?";  // the address, for log lines and the exchange
  uint16_t peer_port_ = 0;
  net::tls_facts tls_facts_;
  bool closed_ = false;
  closing_period period_;
  int64_t period_ends_ms_ = 0;
  bool finished_ = false;  // the endpoint was told
  metrics::thread_block* metrics_ = nullptr;  // this loop's counts (null: metrics off)
  bool handshake_done_ = false;
  bool retried_ = false;  // forgotten for a Retry: not a failed handshake
  bool reading_ = false;   // inside receive(): output waits until the datagram is read
  bool draining_ = false;  // drain(): the GOAWAY is sent; closed once no request is left
  bool flush_due_ = false;  // wake(): the timer is due now, for one flush this pass
  loop::timer expiry_{this};
};

}  // namespace baton::quic
