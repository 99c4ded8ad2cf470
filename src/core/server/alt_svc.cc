#include "core/server/alt_svc.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace baton::server {

namespace {

// The TCP port `fd` listens on, or 0 when it is not a TCP socket.
uint16_t tcp_port(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
  return 0;
}

}  // namespace

std::string alt_svc_value(std::string_view setting, bool http3_serving, int fd) {
  if (setting.empty() || setting == alt_svc_off) return {};
  uint16_t port = tcp_port(fd);
  if (port == 0) return {};
  if (setting != alt_svc_auto) return std::string(setting);
  if (!http3_serving) return {};
  return "h3=\":" + std::to_string(port) + "\"; ma=" + std::to_string(alt_svc_max_age_s);
}

alt_svc_by_listener::alt_svc_by_listener(std::string_view setting, bool http3_serving, std::string_view server_header,
                                         const std::vector<int>& fds) {
  bool any = false;
  values.reserve(fds.size());
  for (int fd : fds) {
    values.push_back(alt_svc_value(setting, http3_serving, fd));
    any = any || !values.back().empty();
  }
  if (!any) {
    values.clear();
    return;
  }
  http1_wires.reserve(values.size());
  for (const std::string& value : values) http1_wires.emplace_back(server_header, value);
}

}  // namespace baton::server
