#include "core/quic/connection.h"

#include <netinet/in.h>
#include <openssl/rand.h>

#include <arpa/inet.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <nghttp3/nghttp3.h>

#include "core/loop/thread_contract.h"
#include "core/quic/clock.h"
#include "core/quic/endpoint.h"
#include "core/quic/packet_batch.h"
#include "core/util/log.h"

namespace baton::quic {
namespace {

// Transport parameters: what one connection may send before we read it.
constexpr uint64_t stream_window = uint64_t{256} * 1024;
constexpr uint64_t connection_window = uint64_t{1024} * 1024;
constexpr uint64_t client_request_streams = 100;
constexpr uint64_t idle_timeout = 30 * NGTCP2_SECONDS;
// The datagram sizes path MTU discovery tries, in this order, each only
// above the largest proved and below the smallest that failed (ngtcp2's
// own list, from a tunnel's to PPPoE's, then Ethernet's whole 1 500 bytes
// less IPv6's and UDP's headers, the settings' top).
constexpr uint16_t path_mtu_probes[] = {1406, 1342, 1232, 1444, 1452};

connection& self_of(void* p) { return *static_cast<connection*>(p); }

}  // namespace

connection::connection(endpoint& owner, const context& ctx)
    : owner_(owner), h3_(ctx, *this), metrics_(ctx.gate.metrics) {
  ngtcp2_ccerr_default(&last_error_);
  metrics::move(metrics_, &metrics::thread_block::quic_connections, 1);
}

connection::~connection() {
  metrics::move(metrics_, &metrics::thread_block::quic_connections, -1);
  if (metrics_ != nullptr && conn_ != nullptr) {
    ngtcp2_conn_info info;
    ngtcp2_conn_get_conn_info2(conn_, &info);
    metrics::bump(metrics_->quic.packets_lost, info.pkt_lost);
    if (!handshake_done_ && !retried_) metrics::bump(metrics_->quic.handshakes_failed);
  }
  if (expiry_.armed()) owner_.loop().disarm(expiry_);
  // The streams let go of their exchanges (and WebSockets) while the QUIC
  // connection they speak of still exists.
  h3_.close_streams();
  if (conn_ != nullptr) ngtcp2_conn_del(conn_);
}

ngtcp2_conn* connection::conn_of(ngtcp2_crypto_conn_ref* ref) {
  return static_cast<connection*>(ref->user_data)->conn_;
}

bool connection::accept(const net::datagram& d, const ngtcp2_pkt_hd& hd, const ngtcp2_cid& scid,
                        const ngtcp2_cid* original, ngtcp2_token_type proof, std::string& error) {
  fd_ = d.fd;
  set_peer(d.peer, d.peer_length);
  std::memcpy(&local_, d.local, d.local_length);
  local_length_ = d.local_length;
  ngtcp2_path path{{reinterpret_cast<ngtcp2_sockaddr*>(&local_), local_length_},
                   {reinterpret_cast<ngtcp2_sockaddr*>(&peer_), peer_length_},
                   nullptr};

  ngtcp2_callbacks callbacks{};
  callbacks.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
  callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
  callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
  callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
  callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
  callbacks.update_key = ngtcp2_crypto_update_key_cb;
  callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  callbacks.get_path_challenge_data2 = ngtcp2_crypto_get_path_challenge_data2_cb;
  callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  callbacks.recv_stream_data = on_recv_stream_data;
  callbacks.acked_stream_data_offset = on_acked_stream_data;
  callbacks.stream_close = on_stream_close;
  callbacks.stream_reset = on_stream_reset;
  callbacks.stream_stop_sending = on_stream_stop_sending;
  callbacks.extend_max_remote_streams_bidi = on_extend_max_remote_streams_bidi;
  callbacks.extend_max_stream_data = on_extend_max_stream_data;
  callbacks.handshake_completed = on_handshake_completed;
  callbacks.rand = on_rand;
  callbacks.get_new_connection_id2 = on_new_connection_id;
  callbacks.remove_connection_id = on_remove_connection_id;

  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = now_ns();
  settings.pmtud_probes = path_mtu_probes;
  settings.pmtud_probeslen = sizeof(path_mtu_probes) / sizeof(path_mtu_probes[0]);
  if (proof != NGTCP2_TOKEN_TYPE_UNKNOWN) {
    // The client came back with our Retry token, or one an earlier
    // connection gave it: its address is proven.
    settings.token = hd.token;
    settings.tokenlen = hd.tokenlen;
    settings.token_type = proof;
  }

  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.initial_max_stream_data_bidi_local = stream_window;
  params.initial_max_stream_data_bidi_remote = stream_window;
  params.initial_max_stream_data_uni = stream_window;
  params.initial_max_data = connection_window;
  params.initial_max_streams_bidi = client_request_streams;
  params.initial_max_streams_uni = 3;  // HTTP/3's control stream and QPACK's two
  params.max_idle_timeout = idle_timeout;
  params.original_dcid = original != nullptr ? *original : hd.dcid;
  params.original_dcid_present = 1;
  if (original != nullptr) {
    params.retry_scid = hd.dcid;
    params.retry_scid_present = 1;
  }
  params.stateless_reset_token_present = owner_.reset_token(scid, params.stateless_reset_token) ? 1 : 0;

  // The client's source ID is the one we send to; `scid` is ours.
  int rv = ngtcp2_conn_server_new(&conn_, &hd.scid, &scid, &path, hd.version, &callbacks, &settings, &params,
                                  nullptr, this);
  if (rv != 0) {
    error = std::string("ngtcp2_conn_server_new: ") + ngtcp2_strerror(rv);
    return false;
  }
  if (!tls_.start(owner_.tls(), &ref_, error)) return false;
  ngtcp2_conn_set_tls_native_handle(conn_, tls_.native());
  receive(d);
  return true;
}

void connection::receive(const net::datagram& d) {
  loop::expect_loop(&owner_.loop(), "quic::connection::receive");
  if (closed_) {
    // Its closing period: the close again, now and then; else nothing.
    if (period_.answer_due()) {
      ngtcp2_addr to{const_cast<ngtcp2_sockaddr*>(d.peer), d.peer_length};
      packet_batch::send_one(d.fd, period_.packet().data(), period_.packet().size(), to,
                             metrics_ != nullptr ? &metrics_->quic.datagrams_sent : nullptr);
    }
    return;
  }
  ngtcp2_path path{{const_cast<ngtcp2_sockaddr*>(d.local), d.local_length},
                   {const_cast<ngtcp2_sockaddr*>(d.peer), d.peer_length},
                   nullptr};
  ngtcp2_pkt_info info{};
  info.ecn = d.ecn;
  reading_ = true;
  int rv = ngtcp2_conn_read_pkt(conn_, &path, &info, d.data, d.length, now_ns());
  reading_ = false;
  if (rv == NGTCP2_ERR_RETRY) {
    // This first Initial cannot be taken as it is (retry.h says when): the
    // client is asked to start again, proving its address, and this
    // connection is forgotten without a word.
    owner_.retry(d);
    retried_ = true;
    closed_for(closing_period::state::none);
    return;
  }
  if (rv != 0) {
    if (rv == NGTCP2_ERR_DRAINING) {
      // The peer closed: no answer is due, and none to what follows.
      closed_for(closing_period::state::draining);
      return;
    }
    if (rv == NGTCP2_ERR_DROP_CONN || rv == NGTCP2_ERR_CLOSING) {
      closed_for(closing_period::state::none);  // ngtcp2 asks us to forget it
      return;
    }
    fail(rv, "read");
    return;
  }
  // The peer's address may have changed (a NAT rebinding, a migration):
  // once ngtcp2 has moved the connection to the new path, the requests
  // and the log lines name it (packets go where ngtcp2's path says).
  const ngtcp2_addr& now_at = ngtcp2_conn_get_path2(conn_)->remote;
  if (now_at.addrlen != peer_length_ || std::memcmp(now_at.addr, &peer_, peer_length_) != 0) {
    set_peer(now_at.addr, now_at.addrlen);
  }
  // The requests whose heads came in it go to their apps (an inline app
  // answers at once); everything due goes out in one flush once the pass
  // has read all it brought (the timer is due at once, and the loop runs
  // its timers after its reads): a run of datagrams from the client is
  // acknowledged in one packet, not one every second datagram.
  reading_ = true;
  h3_.dispatch_ready();
  reading_ = false;
  flush_this_pass();
}

int64_t connection::now_ms() const { return owner_.loop().now_ms(); }

// News from the apps is sent once per pass, after the loop's inbox (the
// timer is due at once): the answers of every app that finished in the
// pass share packets and one send, as HTTP/2 frames them once per pass.
void connection::wake() {
  if (!reading_) flush_this_pass();
}

void connection::flush_this_pass() {
  if (closed_ || flush_due_) return;
  flush_due_ = true;
  owner_.loop().arm(expiry_, owner_.loop().now_ms());
}

void connection::replan() {
  if (!reading_ && !closed_) arm_expiry();
}

// While a WebSocket rides the connection, QUIC sends a PING halfway to the
// idle timeout (the shorter of the two sides' own), so a quiet WebSocket
// stays open as it would on TCP; a client that is gone still lets the
// connection time out (its PINGs go unanswered).
void connection::keep_alive(bool on) {
  if (closed_ || conn_ == nullptr) return;
  uint64_t idle = idle_timeout;
  const ngtcp2_transport_params* remote = ngtcp2_conn_get_remote_transport_params(conn_);
  if (remote != nullptr && remote->max_idle_timeout != 0) idle = std::min(idle, remote->max_idle_timeout);
  ngtcp2_conn_set_keep_alive_timeout(conn_, on ? idle / 2 : UINT64_MAX);
}

void connection::set_peer(const sockaddr* address, socklen_t length) {
  length = std::min<socklen_t>(length, sizeof(peer_));
  std::memcpy(&peer_, address, length);
  peer_length_ = length;
  const void* host = peer_.ss_family == AF_INET6
                         ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(&peer_)->sin6_addr)
                         : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(&peer_)->sin_addr);
  if (inet_ntop(peer_.ss_family, host, peer_text_, sizeof(peer_text_)) == nullptr) std::strcpy(peer_text_, "?");
  peer_port_ = ntohs(peer_.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6*>(&peer_)->sin6_port
                                                 : reinterpret_cast<const sockaddr_in*>(&peer_)->sin_port);
}

exchange::peer_info connection::peer() const {
  exchange::peer_info p;
  p.address = peer_text_;
  p.port = peer_port_;
  p.tls = &tls_facts_;
  return p;
}

bool connection::abandon_overdue(int64_t entered_before_ms) {
  if (closed_ || !h3_.abandon_overdue(entered_before_ms)) return false;
  flush();
  return true;
}

void connection::drain() {
  if (closed_ || draining_) return;
  draining_ = true;
  if (h3_.started()) {
    h3_.drain_switched();  // WebSockets close their own way (1001), then end
    nghttp3_conn_shutdown(h3_.native());
  }
  flush();
}

// A drain is over, or the server stops: the client is told (H3_NO_ERROR)
// and every request still open is let go.
void connection::close_now(bool linger) {
  if (closed_) {
    if (!linger) finish();  // its closing period cut short
    return;
  }
  h3_.close_streams();
  ngtcp2_ccerr_set_application_error(&last_error_, NGHTTP3_H3_NO_ERROR, nullptr, 0);
  error_set_ = true;
  send_close(linger);
}

// Written apart from the loop's batch buffer: a flush that fails calls this
// with packets of its own still held there.
void connection::send_close(bool linger) {
  uint8_t packet[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info info{};
  ngtcp2_ssize n = ngtcp2_conn_write_connection_close(conn_, &ps.path, &info, packet, sizeof(packet), &last_error_,
                                                      now_ns());
  if (n > 0) {
    packet_batch::send_one(fd_, packet, static_cast<size_t>(n), ps.path.remote,
                           metrics_ != nullptr ? &metrics_->quic.datagrams_sent : nullptr, info.ecn);
    if (linger) {
      period_.closing(packet, static_cast<size_t>(n));
      closed_for(closing_period::state::closing);
      return;
    }
  }
  closed_for(closing_period::state::none);
}

void connection::closed_for(closing_period::state period) {
  closed_ = true;
  h3_.close_streams();
  if (period == closing_period::state::none) {
    finish();
    return;
  }
  if (period == closing_period::state::draining) period_.draining();
  // Three probe timeouts (RFC 9000 section 10.2), in the loop's milliseconds.
  const uint64_t lasts = 3 * ngtcp2_conn_get_pto(conn_);
  period_ends_ms_ = owner_.loop().now_ms() + static_cast<int64_t>(lasts / NGTCP2_MILLISECONDS) + 1;
  owner_.loop().arm(expiry_, period_ends_ms_);
}

void connection::finish() {
  if (finished_) return;
  finished_ = true;
  if (expiry_.armed()) owner_.loop().disarm(expiry_);
  owner_.closed(this);
}

void connection::on_timer() {
  flush_due_ = false;
  if (closed_) {
    // The closing period's end (the loop's timer may come a little early).
    if (owner_.loop().now_ms() >= period_ends_ms_) {
      finish();
    } else {
      owner_.loop().arm(expiry_, period_ends_ms_);
    }
    return;
  }
  h3_.switched_deadlines(owner_.loop().now_ms());
  const uint64_t now = now_ns();
  int rv = ngtcp2_conn_get_expiry(conn_) <= now ? ngtcp2_conn_handle_expiry(conn_, now) : 0;
  if (rv != 0) {
    // The idle timeout (RFC 9000 section 10.1) ends a connection silently;
    // any other failure here is ours, and the peer is told.
    if (rv == NGTCP2_ERR_IDLE_CLOSE) {
      closed_for(closing_period::state::none);
    } else {
      fail(rv, "expiry");
    }
    return;
  }
  flush();
}

// The writing loop: HTTP/3's stream data offered to ngtcp2, which frames it
// with what QUIC itself owes (acknowledgements, handshake, flow control)
// into one packet a call; the packets go out together (packet_batch.h:
// one segmented send for a run of them).
//
// Paced as ngtcp2 paces (RFC 9002 section 7.7): one flush writes at most
// its send quantum (what the congestion controller's pacing rate allows in
// a millisecond: 10 packets to 64 KiB), then tells it the time of the
// send, from which it works out when the next burst may leave; until then
// it writes nothing, and its expiry (the timer below) brings the
// connection back. A burst is also the most one connection writes before
// the loop serves others.
//
// Packets are as large as the path has been found to carry: 1 200 bytes
// (QUIC's floor) at first, then what ngtcp2's path MTU discovery proved
// (RFC 9000 section 14.3: padded PING probes of 1 406 to 1 452 bytes, each
// raising the size when acknowledged; the settings' default top suits
// Ethernet's 1 500-byte MTU). A probe leaves in a send of its own, so one
// the interface refuses (EMSGSIZE: the socket never fragments) or the
// path drops takes nothing else with it.
void connection::flush() {
  if (closed_) return;
  flush_due_ = false;
  packet_batch batch(fd_, metrics_ != nullptr ? &metrics_->quic.datagrams_sent : nullptr);
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info info{};
  const uint64_t ts = now_ns();
  const size_t max_packet = ngtcp2_conn_get_max_tx_udp_payload_size(conn_);
  const size_t path_packet = ngtcp2_conn_get_path_max_tx_udp_payload_size(conn_);
  const size_t quantum = ngtcp2_conn_get_send_quantum(conn_);
  for (size_t sent = 0; sent < quantum;) {
    int64_t stream_id = -1;
    int fin = 0;
    nghttp3_vec data[16];
    nghttp3_ssize count = 0;
    if (h3_.started() && ngtcp2_conn_get_max_data_left(conn_) > 0) {
      count = nghttp3_conn_writev_stream(h3_.native(), &stream_id, &fin, data, 16);
      if (count < 0) {
        h3_error(static_cast<int>(count));
        fail(static_cast<int>(count), "http3 write");
        return;
      }
    }
    ngtcp2_ssize accepted = -1;
    uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE | (fin ? NGTCP2_WRITE_STREAM_FLAG_FIN : 0);
    uint8_t* packet = batch.next(max_packet);
    ngtcp2_ssize n = ngtcp2_conn_writev_stream(conn_, &ps.path, &info, packet, max_packet,
                                               &accepted, flags, stream_id,
                                               reinterpret_cast<const ngtcp2_vec*>(data),
                                               static_cast<size_t>(count), ts);
    // ngtcp2 sets FIN only on the frame that takes the last of the data.
    if (fin && accepted >= 0 && static_cast<uint64_t>(accepted) == nghttp3_vec_len(data, static_cast<size_t>(count))) {
      h3_.sent_to_end(stream_id);
    }
    if (n < 0) {
      if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
        nghttp3_conn_block_stream(h3_.native(), stream_id);
        continue;
      }
      if (n == NGTCP2_ERR_STREAM_SHUT_WR) {
        nghttp3_conn_shutdown_stream_write(h3_.native(), stream_id);
        continue;
      }
      if (n == NGTCP2_ERR_WRITE_MORE) {
        nghttp3_conn_add_write_offset(h3_.native(), stream_id, static_cast<size_t>(accepted));
        continue;
      }
      fail(static_cast<int>(n), "write");
      return;
    }
    if (accepted >= 0) nghttp3_conn_add_write_offset(h3_.native(), stream_id, static_cast<size_t>(accepted));
    if (n == 0) break;
    batch.add(static_cast<size_t>(n), ps.path, info.ecn);
    if (static_cast<size_t>(n) > path_packet) batch.send();  // a probe: alone
    sent += static_cast<size_t>(n);
  }
  batch.send();
  ngtcp2_conn_update_pkt_tx_time(conn_, ts);
  // Drained: the GOAWAY is out and no request is left.
  if (draining_ && h3_.open_streams() == 0) {
    close_now(true);
    return;
  }
  arm_expiry();
}

// ngtcp2's expiry is often less than a millisecond away (the pacer's next
// burst, on a path whose pacing rate lets a send quantum out every
// millisecond or faster), so it is a precise timer. On the loop's
// millisecond timers (rounded up, plus one for the coarse clock) the
// bursts left about 2 ms apart where the pacer asked for one or less, half
// its pacing rate, and a tick apart (4 ms at 250 Hz) where the coarse clock
// moved only at the tick. A switched stream's WebSocket deadline is in the
// loop's milliseconds; the earlier of the two is armed, and the handler
// sees to both.
void connection::arm_expiry() {
  if (flush_due_) return;  // due at once, and re-armed by that flush
  const int64_t switched_ms = h3_.switched_deadline();
  const uint64_t expiry = ngtcp2_conn_get_expiry(conn_);
  if (expiry == UINT64_MAX && switched_ms == INT64_MAX) {
    if (expiry_.armed()) owner_.loop().disarm(expiry_);
    return;
  }
  // The coarse clock lags the precise one by up to a tick: compared here as
  // if it did not, which at worst fires the WebSocket's deadline a tick late.
  if (expiry != UINT64_MAX &&
      (switched_ms == INT64_MAX || expiry <= static_cast<uint64_t>(switched_ms) * NGTCP2_MILLISECONDS)) {
    owner_.loop().arm_precise(expiry_, static_cast<int64_t>(expiry));
  } else {
    owner_.loop().arm(expiry_, switched_ms);
  }
}

void connection::fail(int liberr, const char* where) {
  if (closed_) return;
  // A callback that failed has said why already (an HTTP/3 error code).
  if (!error_set_) {
    if (liberr == NGTCP2_ERR_CRYPTO) {
      ngtcp2_ccerr_set_tls_alert(&last_error_, ngtcp2_conn_get_tls_alert(conn_), nullptr, 0);
    } else {
      ngtcp2_ccerr_set_liberr(&last_error_, liberr, nullptr, 0);
    }
  }
  log::write(log::level::info, "quic: closing the connection from %s (%s: %s)", peer_text_, where,
             ngtcp2_strerror(liberr));
  send_close(true);
}

// --- ngtcp2's callbacks -----------------------------------------------------------

int connection::on_recv_stream_data(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t, const uint8_t* data,
                                    size_t length, void* self, void*) {
  connection& c = self_of(self);
  if (!c.h3_.started()) return NGTCP2_ERR_CALLBACK_FAILURE;
  int64_t consumed = c.h3_.read_stream(stream_id, data, length, (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0, now_ns());
  if ((consumed == NGHTTP3_ERR_MALFORMED_HTTP_HEADER || consumed == NGHTTP3_ERR_MALFORMED_HTTP_MESSAGING) &&
      ngtcp2_is_bidi_stream(stream_id)) {
    // A malformed request is an error of its stream, not of the connection
    // (RFC 9114 section 4.1.2): it is reset, and its bytes credited back.
    c.h3_.malformed(stream_id, nghttp3_strerror(static_cast<int>(consumed)));
    consumed = static_cast<int64_t>(length);
  }
  if (consumed < 0) {
    log::write(log::level::info, "quic: HTTP/3 error on the connection from %s, stream %lld: %s", c.peer_text_,
               static_cast<long long>(stream_id), nghttp3_strerror(static_cast<int>(consumed)));
    c.h3_error(static_cast<int>(consumed));
    return NGTCP2_ERR_CALLBACK_FAILURE;
  }
  ngtcp2_conn_extend_max_stream_offset(c.conn_, stream_id, static_cast<uint64_t>(consumed));
  ngtcp2_conn_extend_max_offset(c.conn_, static_cast<uint64_t>(consumed));
  return 0;
}

void connection::h3_error(int liberr) {
  ngtcp2_ccerr_set_application_error(&last_error_, nghttp3_err_infer_quic_app_error_code(liberr), nullptr, 0);
  error_set_ = true;
}

int connection::on_acked_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t length, void* self,
                                     void*) {
  return self_of(self).h3_.acked(stream_id, length) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int connection::on_stream_close(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t app_error_code,
                                void* self, void*) {
  if ((flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) == 0) app_error_code = NGHTTP3_H3_NO_ERROR;
  return self_of(self).h3_.stream_closed(stream_id, app_error_code) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int connection::on_stream_reset(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t, void* self, void*) {
  self_of(self).h3_.peer_reset(stream_id);
  return 0;
}

int connection::on_stream_stop_sending(ngtcp2_conn*, int64_t stream_id, uint64_t, void* self, void*) {
  self_of(self).h3_.shutdown_read(stream_id);
  return 0;
}

int connection::on_extend_max_remote_streams_bidi(ngtcp2_conn*, uint64_t max_streams, void* self) {
  self_of(self).h3_.allow_client_streams(max_streams);
  return 0;
}

int connection::on_extend_max_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t, void* self, void*) {
  self_of(self).h3_.unblock(stream_id);
  return 0;
}

// HTTP/3 starts once the handshake is done: its own streams need the
// client's transport parameters, and a client's first request may ride in
// the same datagram as its Finished, so this runs before that is read.
int connection::on_handshake_completed(ngtcp2_conn* conn, void* self) {
  connection& c = self_of(self);
  c.handshake_done_ = true;
  c.owner_.handshake_done();
  if (c.metrics_ != nullptr) metrics::bump(c.metrics_->quic.handshakes);
  c.tls_facts_.version = 0x0304;  // QUIC is TLS 1.3 only (RFC 9001 section 4.2)
  c.tls_facts_.cipher_suite = c.tls_.cipher_suite();
  // A token for the client's next connection (address_tokens.h); none
  // made is no loss but that connection's head start.
  uint8_t token[address_tokens::max_length];
  const size_t length = c.owner_.tokens().make(reinterpret_cast<const sockaddr*>(&c.peer_), c.peer_length_,
                                               now_ns(), token);
  if (length > 0 && ngtcp2_conn_submit_new_token(conn, token, length) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
  return c.h3_.start(conn) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

void connection::on_rand(uint8_t* dest, size_t length, const ngtcp2_rand_ctx*) {
  RAND_bytes(dest, static_cast<int>(length));
}

int connection::on_new_connection_id(ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token,
                                     size_t, void* self) {
  connection& c = self_of(self);
  c.owner_.issue(*cid, &c);
  return c.owner_.reset_token(*cid, token->data) ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int connection::on_remove_connection_id(ngtcp2_conn*, const ngtcp2_cid* cid, void* self) {
  self_of(self).owner_.retire(*cid);
  return 0;
}

}  // namespace baton::quic
