// Alt-Svc (RFC 7838): how a client on HTTP/1.1 or HTTP/2 learns that the
// origin is served over HTTP/3 too, so a browser moves to QUIC. Under
// --http3 each TCP listener has a UDP twin on its own port, so each
// advertises `h3=":PORT"; ma=86400` with that port: with several --bind
// addresses a connection names its own listener's port. The field is made
// once per listener here, and each protocol adds the finished text (HTTP/1
// as a whole line its listener's encoder holds, HTTP/2 as one more pair),
// so a response pays one append for it. An app's own Alt-Svc wins; Unix
// sockets advertise nothing (no UDP twin, and the client is a proxy); HTTP/3
// responses carry none.
//
// Made once, before serving; read-only after, on the loop thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/http1/encoder.h"

namespace baton::server {

inline constexpr std::string_view alt_svc_auto = "auto";
inline constexpr std::string_view alt_svc_off = "off";
// How long a client may keep using the alternative: a day (RFC 7838's default).
inline constexpr int alt_svc_max_age_s = 86400;

// The value listener `fd` advertises: `setting` is "auto" (h3 on its port
// when `http3_serving`, else none), "off" (none), or a value sent as it is.
// "" for none.
std::string alt_svc_value(std::string_view setting, bool http3_serving, int fd);

struct alt_svc_by_listener {
  // `fds`: the listening sockets, in the order the sessions number them.
  alt_svc_by_listener(std::string_view setting, bool http3_serving, std::string_view server_header,
                      const std::vector<int>& fds);
  alt_svc_by_listener(const alt_svc_by_listener&) = delete;
  alt_svc_by_listener& operator=(const alt_svc_by_listener&) = delete;

  // By listener index; both empty when no listener advertises anything, so
  // the protocols keep their one shared wire. The encoders never move
  // (exchanges point at them).
  std::vector<std::string> values;
  std::vector<http1::encoder> http1_wires;
};

}  // namespace baton::server
