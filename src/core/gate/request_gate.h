// The request gate: what every protocol does with a request apart from its
// wire format, in one place, so a protocol repeats none of it and a new
// one gets all of it. A protocol asks it
//   - once a connection, whether the peer is a proxy whose forwarding
//     headers count (forwarding_for);
//   - for each request, before the app, whether the core answers it here:
//     the health path, a static file, or 503 while draining with the
//     listeners open (answer_locally);
//   - to stamp the request's start when the server times requests (stamp);
//   - to log and count a request refused without the app (refused), and
//     one given up on past the app timeout (app_overran).
// (The result of a read, which every protocol also sorts, is one step
// lower: session::received, as the session itself needs it.)
//
// One gate a loop, owned by the server, read by the protocols of that
// loop's sessions. Loop thread only; nothing here allocates or dispatches
// virtually, and the per-request calls are inline.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/exchange/forwarded.h"
#include "core/exchange/pseudo_head.h"
#include "core/local/local_routes.h"
#include "core/metrics/record.h"
#include "core/metrics/stopwatch.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"

namespace baton::gate {

struct request_gate {
  const session::http_settings& http;  // timeouts, request limits, exchange settings, proxy
  session::protocol_host& host;
  std::atomic<bool>& draining;
  const local::local_routes* local = nullptr;  // health path and static files, answered without the app
  const bool* refusing = nullptr;  // draining with the listeners open: new requests get 503
  bool timing = false;             // exchanges record when they started (the access log, the metrics)
  metrics::thread_block* metrics = nullptr;  // this loop's counts (null: metrics off)

  bool is_draining() const { return draining.load(std::memory_order_relaxed); }

  // Whether the peer of `s` is a proxy whose forwarding headers
  // (X-Forwarded-For and the like) count: false too when they are off.
  // Asked once a connection, as its protocol starts: a PROXY header, read
  // before any request, has named the peer by then.
  bool trusts_peer(const session::session& s) const { return trusts_address(s.peer().address); }
  bool trusts_address(std::string_view address) const { return http.proxy.enabled && http.proxy.trusts(address); }
  // What a request's exchange reads forwarding headers under: the proxy
  // settings when its peer is trusted, else nothing.
  const exchange::proxy_settings* forwarding(bool peer_trusted) const { return peer_trusted ? &http.proxy : nullptr; }

  // Answers `x` here, without the app, when the core does: true when it
  // did (its response is queued on `x`; the protocol sends it and lets the
  // host know the request is done).
  bool answer_locally(exchange::exchange& x) const {
    bool now_draining = is_draining();
    bool now_refusing = now_draining && refusing != nullptr && *refusing;
    return local::local_routes::answer_before_app(local, x, now_draining, now_refusing);
  }

  // A request whose head `head` is whole, for a protocol of streams
  // (HTTP/2, HTTP/3 as `version`): its exchange, from the host, holding the
  // head's bytes as they are (no copy; `head` keeps no storage after),
  // bound to `sink` under `key` and its clock started. The caller holds
  // the one reference.
  exchange::exchange* open_exchange(exchange::pseudo_head& head, bool body_ends, uint8_t version,
                                    const exchange::peer_info& peer, const exchange::response_wire& wire,
                                    bool peer_trusted, exchange::exchange_sink* sink, int32_t key) const {
    std::vector<exchange::field> fields;
    exchange::request_head h;
    head.describe(body_ends, version, h, fields);
    exchange::exchange* x = host.new_exchange();
    x->reset_for(h, head.bytes_to_take(), fields, peer, wire, forwarding(peer_trusted));
    head.clear();
    x->links.sink = sink;
    x->links.sink_key = key;
    stamp(*x);
    return x;
  }

  // An extended CONNECT (`x` carries a :protocol; RFC 8441, RFC 9220), on
  // a protocol that announced it when `served`: offered to the host as a
  // switch (its app's answer decides), or refused here with `status` for
  // `reason` (the protocol is not served, or the opening is bad).
  struct switch_offer {
    bool offered = false;
    int status = 0;
    const char* reason = "";
  };
  switch_offer offer_switch(exchange::exchange& x, bool served) const {
    session::upgrade_verdict v;
    if (served) v = host.offer_upgrade(x);
    if (v.result == session::upgrade_verdict::kind::offered) return {true};
    if (v.result == session::upgrade_verdict::kind::refused) return {false, v.status, v.reason};
    return {false, 501, "an extended CONNECT for a protocol this server does not serve"};
  }

  // A refused request's answer, the same on every protocol: `status` and a
  // line saying why, from this thread.
  static void answer_refused(exchange::exchange& x, int status, const char* reason) {
    std::string body = std::string(exchange::status_reason(status)) + ": " + reason + "\n";
    x.set_direct(true);
    x.answer(status, "text/plain; charset=utf-8", body);
  }

  // When the server times requests, `x` starts its clock now.
  void stamp(exchange::exchange& x) const {
    if (timing) x.links.started = metrics::stopwatch::now();
  }

  // Where a request came from, for its log lines: the client, and on a
  // protocol of streams (HTTP/2, HTTP/3) which one ("HTTP/2", 5).
  struct place {
    const char* peer;
    const char* protocol = nullptr;  // null: the connection carries one request at a time
    int64_t stream = 0;
  };
  static place at(const session::session& s, int32_t http2_stream) {
    return {s.peer_for_log(), http2_stream != 0 ? "HTTP/2" : nullptr, http2_stream};
  }

  // A request refused without the app (`status`, for `reason`): its log
  // line, naming the client (and the stream, if any), and its count. The
  // protocol sends the answer in its own wire format.
  void refused(const place& where, int status, const char* reason) const;
  void refused(const session::session& s, int status, const char* reason, int32_t http2_stream = 0) const {
    refused(at(s, http2_stream), status, reason);
  }

  // A request `h` inside the app past the app timeout: its log line,
  // naming the request, the client (and the stream, if any), and what
  // becomes of it (`outcome`: "answering 504", or the close or reset when
  // its answer had begun).
  void app_overran(const place& where, const exchange::request_head& h, const char* outcome) const;
  void app_overran(const session::session& s, const exchange::request_head& h, int32_t http2_stream,
                   const char* outcome) const {
    app_overran(at(s, http2_stream), h, outcome);
  }
};

}  // namespace baton::gate
