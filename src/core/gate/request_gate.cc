#include "core/gate/request_gate.h"

#include <algorithm>

#include "core/util/log.h"

namespace baton::gate {

bool request_gate::trusts_peer(const session::session& s) const {
  return http.proxy.enabled && http.proxy.trusts(s.peer().address);
}

void request_gate::refused(const session::session& s, int status, const char* reason, int32_t http2_stream) const {
  if (http2_stream != 0) {
    log::write(log::level::info, "rejected a request from %s: %s (%d), HTTP/2 stream %d", s.peer_for_log(), reason,
               status, http2_stream);
  } else {
    log::write(log::level::info, "rejected a request from %s: %s (%d)", s.peer_for_log(), reason, status);
  }
  metrics::refused(metrics, status);
}

void request_gate::app_overran(const session::session& s, const exchange::request_head& h, int32_t http2_stream,
                               const char* outcome) const {
  // The target is cut short: a log line is no place for a 64 KiB URL.
  int method_length = static_cast<int>(h.method.size());
  int target_length = static_cast<int>(std::min<size_t>(h.target.size(), 200));
  if (http2_stream != 0) {
    log::write(log::level::error, "%.*s %.*s from %s (HTTP/2 stream %d) has been inside the application past the "
               "timeout; %s", method_length, h.method.data(), target_length, h.target.data(), s.peer_for_log(),
               http2_stream, outcome);
  } else {
    log::write(log::level::error, "%.*s %.*s from %s has been inside the application past the timeout; %s",
               method_length, h.method.data(), target_length, h.target.data(), s.peer_for_log(), outcome);
  }
}

}  // namespace baton::gate
