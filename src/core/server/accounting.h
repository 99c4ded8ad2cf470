// Accounting: what is kept of every answer once it is given. The access
// log's line (formatted here on the loop thread, written by the log's own
// thread), the metrics of its protocol, status, latency and bytes, the
// WebSockets open and the ways they closed, and the count of answers that
// --max-requests retires the worker on (a WebSocket counts once, when it
// ends).
//
// Loop thread only. request_done() runs for every answer: it is defined
// here so the server's call to it inlines.
#pragma once

#include <cstdint>

#include "core/exchange/exchange.h"
#include "core/metrics/record.h"
#include "core/metrics/stopwatch.h"
#include "core/server/lifecycle.h"
#include "core/server/server_config.h"
#include "core/ws/endpoint.h"

namespace baton::server {

class accounting final : private ws::host {
 public:
  accounting(const server_config& config, lifecycle& life) : config_(config), life_(life) {}
  accounting(const accounting&) = delete;
  accounting& operator=(const accounting&) = delete;

  // What the WebSockets of this server report their end to.
  ws::host& websocket_host() { return *this; }

  // A response is complete.
  void request_done(exchange::exchange& x) {
    if (config_.access != nullptr) log_access(x, x.response_status(), x.response_body_bytes(), 0, x.body_bytes_received());
    if (config_.metrics != nullptr) count_answer(x);
    count_request();
  }
  // The app switched `x` to a WebSocket.
  void websocket_opened(const exchange::exchange& x);
  uint64_t requests_done() const { return requests_done_; }

 private:
  void websocket_closed(exchange::exchange& x, const ws::closed_record& r) override;
  void log_access(exchange::exchange& x, int status, uint64_t bytes_out, uint64_t bytes_in,
                  uint64_t request_body_bytes = 0);
  // The metrics of an answered request: its protocol and status, the time
  // from its head to now (its answer's last byte is queued), its bytes.
  // Every answer pays for it, so it is inlined into request_done.
  __attribute__((always_inline)) void count_answer(exchange::exchange& x) {
    uint64_t latency_us =
        x.links.started > 0 ? metrics::stopwatch::elapsed_us(x.links.started, metrics::stopwatch::now()) : 0;
    uint8_t major = x.head().version_major;
    metrics::protocol p = major == 1 ? metrics::protocol::http1 : major == 2 ? metrics::protocol::h2 : metrics::protocol::h3;
    metrics::request_done(*config_.metrics, p, x.response_status(), latency_us, x.bytes_received(),
                          x.response_body_bytes());
  }
  // An answer (or a WebSocket) is done: --max-requests counts it.
  void count_request() {
    ++requests_done_;
    if (config_.max_requests != 0 && requests_done_ == config_.max_requests) reached_max_requests();
  }
  void reached_max_requests();

  const server_config& config_;
  lifecycle& life_;
  uint64_t requests_done_ = 0;
};

}  // namespace baton::server
