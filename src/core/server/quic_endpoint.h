// The server's QUIC endpoint, when --http3 asks for one: made here so that
// the server holds it as a plain datagram sink and no header of server/
// depends on whether this build has QUIC (docs/http3.md).
#pragma once

#include <memory>

#include "core/exchange/pseudo_response.h"
#include "core/gate/request_gate.h"
#include "core/loop/event_loop.h"
#include "core/net/datagram.h"
#include "core/server/server_config.h"

namespace baton::server {

// Null when `config` does not ask for HTTP/3. Throws std::runtime_error,
// saying why in one line, when it asks and cannot have it (a build without
// QUIC, no TLS, a TLS context QUIC cannot use).
// `gate` and `wire` (the loop's request gate and the response framing
// HTTP/2 shares) outlive it.
std::unique_ptr<net::datagram_sink> make_quic_endpoint(const server_config& config, loop::event_loop& loop,
                                                       const gate::request_gate& gate,
                                                       const exchange::pseudo_framing& wire);

}  // namespace baton::server
