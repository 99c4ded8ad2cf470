// What one server is told when it is made: every protocol's limits, the
// drain's budget, the signals it takes, where it counts and logs; and why a
// server stopped. Read-only once serving (the parts of server/ read it).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/http1/protocol.h"
#include "core/http2/protocol.h"
#include "core/local/local_routes.h"
#include "core/metrics/record.h"
#include "core/net/cid_steering.h"
#include "core/net/quic_retry_mode.h"
#include "core/net/tls.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"
#include "core/server/access_log.h"
#include "core/ws/protocol.h"

namespace baton::server {

// Which HTTP a connection may speak: auto takes HTTP/2 where the client
// asks for it (ALPN h2, or h2c with prior knowledge), h1 never, h2 only.
enum class http_versions : uint8_t { automatic, http1_only, http2_only };

struct server_config {
  session::http_settings requests;  // every protocol's request limits and timeouts
  http1::settings http1;
  http2::settings http2;
  http_versions http = http_versions::automatic;
  session::session_settings session;
  ws::settings websocket;  // enabled: openings go to the app as WebSockets
  std::string server_header = "baton";  // the Server field's value when the app sends none ("" for none)
  int graceful_timeout_ms = 5000;
  int max_accepts_per_wake = 64;
  // The listening sockets are shared with other loops of this process (the
  // --threads shape): each wake goes to one of them, which accepts only a
  // few before the others get their turn.
  bool shared_listeners = false;
  size_t max_queued_requests = 1024;  // accepting pauses past this many waiting requests
  bool handle_signals = true;         // false when the embedding program owns SIGTERM/SIGINT
  // A stop that overruns its budget ends the process (stop_watchdog). Off
  // for a server embedded in a program that must outlive it (a test
  // process serving on a thread): that program decides what to do instead.
  bool stop_watchdog = true;
  // A signal that retires (0: none): SIGHUP when serving alone (the caller
  // reloads, with the listeners kept open for it: catch_hangup), SIGUSR2
  // for a worker under a master.
  int retire_signal = 0;
  bool catch_hangup = false;
  bool refuse_while_draining = false; // a stop keeps accepting and answers 503 until drained
  uint64_t max_requests = 0;          // retire after this many responses; 0: never
  int app_timeout_ms = 0;             // a request inside the app longer: 504, then retire; 0: off
  int heartbeat_interval_ms = 1000;
  std::atomic<int64_t>* heartbeat = nullptr;  // the loop's clock (ms), stored while the loop runs
  // A worker's master (0: serving alone). Should the worker outlive it, the
  // heartbeat finds getppid() changed and the worker retires as its retire
  // signal would have it: listeners closed, requests finished, exit. The
  // first guard is the death signal the worker asked for at its fork; this
  // one catches what that cannot: the signal ignored by whoever started the
  // master, or taken by a handler the app installed for it.
  int parent_pid = 0;
  const local::local_routes* local = nullptr; // health path and static files
  access_log* access = nullptr;
  net::tls_context* tls = nullptr;             // every connection is TLS under it
  // Every connection starts with a PROXY header from a trusted balancer
  // (session/proxy_preface.h); off, a connection starts as it always has.
  bool proxy_protocol = false;
  // HTTP/3 (--http3): a UDP socket beside each TCP listener, served by a
  // QUIC endpoint under `tls` (docs/http3.md). Needs a build with QUIC.
  bool http3 = false;
  // With a master's steered UDP sockets (net/cid_steering.h): the prefix
  // of this loop's connection IDs. Off, each ID is random.
  net::cid_prefix quic_cid;
  // The secret every loop of the server derives stateless reset tokens from
  // (32 bytes, a master's); empty, each endpoint draws its own.
  std::string quic_reset_secret;
  // Retry for new QUIC connections (--quic-retry): past a count of
  // connections in their handshake, for every one, or only where ngtcp2 asks.
  net::quic_retry_mode quic_retry = net::quic_retry_mode::automatic;
  // What HTTP/1.1 and HTTP/2 responses on TCP listeners say in Alt-Svc
  // (alt_svc.h): "auto" (h3 on the listener's port when HTTP/3 serves),
  // "off", or a field value sent as it is.
  std::string alt_svc = "auto";
  // Counting (null: metrics off): this loop's block of the metrics region,
  // and its worker's slot (the pool's gauges, which the worker's loops share).
  metrics::thread_block* metrics = nullptr;
  metrics::worker_slot* metrics_slot = nullptr;
  // Requests this loop lets into the app at once, an open WebSocket among
  // them; past it a new one gets 503 with Retry-After from the core, the
  // health path and static files still answered (0: no limit).
  uint32_t limit_concurrency = 0;
};

enum class stop_reason : uint8_t { none, signal, requested, hangup, max_requests, app_timeout };
const char* stop_reason_name(stop_reason r);

}  // namespace baton::server
