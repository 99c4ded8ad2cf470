#include "core/quic/endpoint.h"

#include <openssl/rand.h>

#include "core/loop/thread_contract.h"
#include "core/metrics/record.h"
#include "core/quic/clock.h"
#include "core/quic/connection.h"
#include "core/util/log.h"

namespace baton::quic {
namespace {

std::string key_of(const ngtcp2_cid& cid) { return std::string(reinterpret_cast<const char*>(cid.data), cid.datalen); }

}  // namespace

std::unique_ptr<endpoint> endpoint::make(loop::event_loop& loop, const net::tls_context& tls, const context& ctx,
                                         const net::cid_prefix& prefix, std::string& error) {
  std::unique_ptr<endpoint> made(new endpoint(loop, ctx, prefix));
  made->tls_ = tls_server::make(tls, error);
  if (made->tls_ == nullptr) return nullptr;
  if (RAND_bytes(made->reset_secret_.data(), static_cast<int>(made->reset_secret_.size())) != 1 ||
      !made->retry_.init()) {
    error = "no random bytes for the stateless reset secret";
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
  if (rv != 0) return;  // not QUIC, or a version we would have to negotiate: dropped
  auto it = by_id_.find(std::string(reinterpret_cast<const char*>(vc.dcid), vc.dcidlen));
  if (it != by_id_.end()) {
    if (!it->second->closed()) it->second->receive(d);
    return;
  }
  accept(d);
}

void endpoint::accept(const net::datagram& d) {
  if (draining_) return;  // no new connection while the server drains
  ngtcp2_pkt_hd hd;
  if (ngtcp2_accept(&hd, d.data, d.length) != 0) return;  // not a client's Initial: dropped
  ngtcp2_cid original;
  const ngtcp2_cid* retried = nullptr;
  if (retry_tokens::carries_retry_token(hd)) {
    if (!retry_.verify(d, hd, original, now_ns())) return;  // forged, stale or from elsewhere: dropped
    retried = &original;
  }
  auto made = std::make_unique<connection>(*this, context_);
  connection* c = made.get();
  ngtcp2_cid scid;
  issue(scid, c);
  live_.emplace(c, std::move(made));
  std::string error;
  if (!c->accept(d, hd, scid, retried, error)) {
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

void endpoint::close_all() {
  for (auto& [c, owned] : live_) c->close_now();
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
  for (auto it = by_id_.begin(); it != by_id_.end();) {
    it = it->second == c ? by_id_.erase(it) : std::next(it);
  }
  live_.erase(c);
}

}  // namespace baton::quic
