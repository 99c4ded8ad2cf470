// What the QUIC connections of one loop share with its other protocols:
// the request gate (limits, the health path and static files, the drain,
// the host that runs apps, the counts) and the response head's framing,
// HTTP/2's and HTTP/3's alike. Owned by the server; loop thread only.
#pragma once

#include "core/exchange/pseudo_response.h"
#include "core/gate/request_gate.h"

namespace baton::quic {

struct context {
  const gate::request_gate& gate;
  const exchange::pseudo_framing& response_wire;
  // WebSockets are served: SETTINGS_ENABLE_CONNECT_PROTOCOL is announced
  // and an extended CONNECT is offered to the app (RFC 9220).
  bool extended_connect = false;
};

}  // namespace baton::quic
