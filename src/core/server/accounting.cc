#include "core/server/accounting.h"

#include "core/server/access_log.h"
#include "core/util/log.h"

namespace baton::server {

void accounting::websocket_opened(const exchange::exchange& x) {
  if (config_.metrics == nullptr) return;
  metrics::move(config_.metrics->websockets, 1);
  // Its class: 1xx for HTTP/1.1's 101, 2xx for HTTP/2's 200.
  size_t status_class = x.response_status() >= 200 ? 1 : 0;
  metrics::bump(config_.metrics->answers[static_cast<size_t>(metrics::protocol::websocket)].requests[status_class]);
}

// One access log line per WebSocket, when it ends: the switch's answer (a
// 101, or over HTTP/2 a 200 to its CONNECT), how long the
// connection lasted, and the bytes each way.
void accounting::websocket_closed(exchange::exchange& x, const ws::closed_record& r) {
  if (metrics::thread_block* m = config_.metrics) {
    auto ws = static_cast<size_t>(metrics::protocol::websocket);
    metrics::move(m->websockets, -1);
    metrics::bump(m->ws_closes[metrics::ws_close_class_of(r.code)]);
    metrics::bump(m->answers[ws].request_bytes, r.bytes_in);
    metrics::bump(m->answers[ws].response_bytes, r.bytes_out);
  }
  if (config_.access != nullptr) log_access(x, x.response_status(), r.bytes_out, r.bytes_in);
  count_request();
}

void accounting::log_access(exchange::exchange& x, int status, uint64_t bytes_out, uint64_t bytes_in,
                            uint64_t request_body_bytes) {
  access_record r;
  r.head = &x.head();
  exchange::peer_info peer = x.peer();
  r.client = peer.address;
  r.client_port = peer.port;
  r.request_body_bytes = request_body_bytes;
  r.status = status;
  r.body_bytes = bytes_out;
  r.received_bytes = bytes_in;
  r.duration_us = x.links.started > 0 ? static_cast<int64_t>(metrics::stopwatch::elapsed_us(x.links.started, metrics::stopwatch::now())) : 0;
  r.response_fields = &x.response_fields();
  config_.access->record(r);
}

void accounting::reached_max_requests() {
  log::write(log::level::info, "served %llu requests (--max-requests): recycling this worker",
             static_cast<unsigned long long>(requests_done_));
  life_.retire(stop_reason::max_requests);
}

}  // namespace baton::server
