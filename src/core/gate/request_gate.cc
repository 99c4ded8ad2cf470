#include "core/gate/request_gate.h"

#include <algorithm>

#include "core/util/log.h"

namespace baton::gate {

void request_gate::refused(const place& where, int status, const char* reason) const {
  if (where.protocol != nullptr) {
    log::write(log::level::info, "rejected a request from %s: %s (%d), %s stream %lld", where.peer, reason, status,
               where.protocol, static_cast<long long>(where.stream));
  } else {
    log::write(log::level::info, "rejected a request from %s: %s (%d)", where.peer, reason, status);
  }
  metrics::refused(metrics, status);
}

void request_gate::app_overran(const place& where, const exchange::request_head& h, const char* outcome) const {
  // The target is cut short: a log line is no place for a 64 KiB URL.
  int method_length = static_cast<int>(h.method.size());
  int target_length = static_cast<int>(std::min<size_t>(h.target.size(), 200));
  if (where.protocol != nullptr) {
    log::write(log::level::error, "%.*s %.*s from %s (%s stream %lld) has been inside the application past the "
               "timeout; %s", method_length, h.method.data(), target_length, h.target.data(), where.peer,
               where.protocol, static_cast<long long>(where.stream), outcome);
  } else {
    log::write(log::level::error, "%.*s %.*s from %s has been inside the application past the timeout; %s",
               method_length, h.method.data(), target_length, h.target.data(), where.peer, outcome);
  }
}

}  // namespace baton::gate
