#include "core/quic/endpoint.h"

#include <openssl/rand.h>

#include <algorithm>
#include <cstring>

#include "core/loop/thread_contract.h"
#include "core/metrics/record.h"
#include "core/quic/clock.h"
#include "core/quic/connection.h"
#include "core/quic/stateless_replies.h"
#include "core/util/log.h"

namespace baton::quic {
namespace {

constexpr uint8_t long_header_bit = 0x80;  // RFC 9000 section 17: the first byte's form bit

std::string key_of(const ngtcp2_cid& cid) { return std::string(reinterpret_cast<const char*>(cid.data), cid.datalen); }

// A process serving alone has no master to hand its loops one secret: they
// share one drawn once for the process (null when none could be drawn).
const std::array<uint8_t, 32>* process_secret() {
  static const auto drawn = [] {
    std::pair<std::array<uint8_t, 32>, bool> s{};
    s.second = RAND_bytes(s.first.data(), static_cast<int>(s.first.size())) == 1;
    return s;
  }();
  return drawn.second ? &drawn.first : nullptr;
}

}  // namespace

std::unique_ptr<endpoint> endpoint::make(loop::event_loop& loop, const net::tls_context& tls, const context& ctx,
                                         const net::cid_prefix& prefix, const std::string& reset_secret,
                                         net::quic_retry_mode retry, std::string& error) {
  std::unique_ptr<endpoint> made(new endpoint(loop, ctx, prefix));
  made->retry_mode_ = retry;
  made->tls_ = tls_server::make(tls, error);
  if (made->tls_ == nullptr) return nullptr;
  if (reset_secret.size() == made->reset_secret_.size()) {
    std::copy(reset_secret.begin(), reset_secret.end(), made->reset_secret_.begin());
  } else if (const auto* own = process_secret(); own != nullptr) {
    made->reset_secret_ = *own;
  } else {
    error = "no random bytes for the stateless reset secret";
    return nullptr;
  }
  if (!made->tokens_.init(made->reset_secret_)) {
    error = "the address tokens' secret could not be derived";
    return nullptr;
  }
  if (!made->retry_.init()) {
    error = "no random bytes for the Retry tokens' secret";
    return nullptr;
  }
  return made;
}

endpoint::endpoint(loop::event_loop& loop, const context& ctx, const net::cid_prefix& prefix)
    : loop_(loop), context_(ctx), prefix_(prefix) {}

endpoint::~endpoint() {
  if (reaper_.armed()) loop_.disarm(reaper_);
  by_id_.clear();
  live_.clear();
}

void endpoint::on_datagram(const net::datagram& d) {
  loop::expect_loop(&loop_, "quic::endpoint::on_datagram");
  if (context_.gate.metrics != nullptr) metrics::bump(context_.gate.metrics->quic.datagrams_received);
  ngtcp2_version_cid vc;
  int rv = ngtcp2_pkt_decode_version_cid(&vc, d.data, d.length, cid_length);
  if (rv == NGTCP2_ERR_VERSION_NEGOTIATION) {
    if (!draining_ && send_version_negotiation(d, vc) && context_.gate.metrics != nullptr) {
      metrics::bump(context_.gate.metrics->quic.version_negotiations_sent);
    }
    return;
  }
  if (rv != 0) return;  // not QUIC: dropped
  auto it = by_id_.find(std::string(reinterpret_cast<const char*>(vc.dcid), vc.dcidlen));
  if (it != by_id_.end()) {
    it->second->receive(d);  // a closed one answers as its closing period says
    return;
  }
  if ((d.data[0] & long_header_bit) == 0) {
    stray(d, vc);
    return;
  }
  accept(d);
}

// Only an ID with this loop's own index and the steering's key is
// answered: under a master such a packet reached the one loop its index
// names, so no other loop can own it (a connection of a worker that died,
// or one closed). Another index's packet can still come here, riding a
// run of one client socket's datagrams the kernel coalesced (GRO) behind
// one of ours: it is dropped, not reset. A process serving alone has no
// prefix, and its loops share the port by the kernel's hash, which may
// bring a loop another's packet: that is dropped, as before.
void endpoint::stray(const net::datagram& d, const ngtcp2_version_cid& vc) const {
  if (!prefix_.on() || vc.dcidlen != cid_length) return;
  uint8_t expected[net::cid_prefix_bytes];
  prefix_.write(expected);  // this loop's index and the key
  if (std::memcmp(vc.dcid, expected, sizeof(expected)) != 0) return;
  ngtcp2_cid dcid;
  ngtcp2_cid_init(&dcid, vc.dcid, vc.dcidlen);
  if (send_stateless_reset(d, dcid, reset_secret_) && context_.gate.metrics != nullptr) {
    metrics::bump(context_.gate.metrics->quic.stateless_resets_sent);
  }
}

void endpoint::accept(const net::datagram& d) {
  if (draining_) return;  // no new connection while the server drains
  ngtcp2_pkt_hd hd;
  if (ngtcp2_accept(&hd, d.data, d.length) != 0) return;  // not a client's Initial: dropped
  ngtcp2_cid original;
  const ngtcp2_cid* retried = nullptr;
  ngtcp2_token_type proof = NGTCP2_TOKEN_TYPE_UNKNOWN;  // what proved the client's address: nothing yet
  if (retry_tokens::carries_retry_token(hd)) {
    if (!retry_.verify(d, hd, original, now_ns())) return;  // forged, stale or from elsewhere: dropped
    retried = &original;
    proof = NGTCP2_TOKEN_TYPE_RETRY;
  } else if (address_tokens::carried(hd) && tokens_.verify(d, hd, now_ns())) {
    proof = NGTCP2_TOKEN_TYPE_NEW_TOKEN;  // a token an earlier connection gave it
  } else if (retry_mode_ == net::quic_retry_mode::always ||
             (retry_mode_ == net::quic_retry_mode::automatic && handshaking_ >= net::retry_past_handshakes)) {
    retry(d);
    return;
  }
  auto made = std::make_unique<connection>(*this, context_);
  connection* c = made.get();
  ngtcp2_cid scid;
  issue(scid, c);
  // The client's next Initials of this attempt still carry the ID it chose
  // (a ClientHello longer than one datagram, as post-quantum key shares
  // make it, comes in two): they reach this connection, not a new one.
  by_id_.emplace(key_of(hd.dcid), c);
  live_.emplace(c, std::move(made));
  ++handshaking_;
  std::string error;
  if (!c->accept(d, hd, scid, retried, proof, error)) {
    log::write(log::level::warning, "quic: a new connection failed: %s", error.c_str());
    closed(c);
  }
}

void endpoint::fresh(ngtcp2_cid& cid) const {
  cid.datalen = cid_length;
  RAND_bytes(cid.data, static_cast<int>(cid_length));
  prefix_.write(cid.data);
}

void endpoint::issue(ngtcp2_cid& cid, connection* c) {
  do {
    fresh(cid);
  } while (by_id_.count(key_of(cid)) != 0);
  by_id_.emplace(key_of(cid), c);
}

void endpoint::retry(const net::datagram& d) {
  ngtcp2_pkt_hd hd;
  if (ngtcp2_accept(&hd, d.data, d.length) != 0) return;
  // The ID the client will come back to; no connection owns it until then.
  // Its prefix steers the client's next Initial back to this loop, the one
  // whose secret sealed the token.
  ngtcp2_cid retry_scid;
  fresh(retry_scid);
  if (!retry_.send(d, hd, retry_scid, now_ns())) {
    log::write(log::level::debug, "quic: a Retry could not be sent");
  } else if (context_.gate.metrics != nullptr) {
    metrics::bump(context_.gate.metrics->quic.retries_sent);
  }
}

void endpoint::drain() {
  draining_ = true;
  for (auto& [c, owned] : live_) c->drain();
}

bool endpoint::abandon_overdue(int64_t entered_before_ms) {
  bool any = false;
  for (auto& [c, owned] : live_) any = c->abandon_overdue(entered_before_ms) || any;
  return any;
}

size_t endpoint::release_idle_memory() {
  size_t freed = 0;
  for (auto& [c, owned] : live_) freed += c->release_idle_memory();
  return freed;
}

void endpoint::close_all() {
  for (auto& [c, owned] : live_) c->close_now(false);
  on_timer();
}

void endpoint::retire(const ngtcp2_cid& cid) { by_id_.erase(key_of(cid)); }

bool endpoint::reset_token(const ngtcp2_cid& cid, uint8_t* token) const {
  return ngtcp2_crypto_generate_stateless_reset_token(token, reset_secret_.data(), reset_secret_.size(), &cid) ==
         0;
}

void endpoint::closed(connection* c) {
  dead_.push_back(c);
  if (!reaper_.armed()) loop_.arm(reaper_, loop_.now_ms());
}

void endpoint::on_timer() {
  std::vector<connection*> dead;
  dead.swap(dead_);
  for (connection* c : dead) forget(c);
}

// Every ID the table holds for `c` goes, whether ngtcp2 still counts it or
// it was issued before the connection could start.
void endpoint::forget(connection* c) {
  if (!c->handshake_completed()) --handshaking_;
  for (auto it = by_id_.begin(); it != by_id_.end();) {
    it = it->second == c ? by_id_.erase(it) : std::next(it);
  }
  live_.erase(c);
}

}  // namespace baton::quic
