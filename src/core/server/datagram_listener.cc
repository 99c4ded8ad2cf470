#include "core/server/datagram_listener.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/loop/thread_contract.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
// Datagrams one wake reads before the loop serves the others: a burst of
// one busy connection must not starve the TCP sessions.
constexpr int datagrams_per_wake = 64;
// The largest UDP payload; QUIC's packets are far smaller, but a read into
// a short buffer would truncate a datagram silently.
constexpr size_t datagram_buffer_bytes = 65536;
}  // namespace

int datagram_listener::open_beside(int stream_fd, std::string& error) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (getsockname(stream_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    error = std::string("getsockname: ") + strerrordesc_np(errno);
    return -1;
  }
  if (address.ss_family != AF_INET && address.ss_family != AF_INET6) {
    error = "not an IP socket";
    return -1;
  }
  int fd = ::socket(address.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + strerrordesc_np(errno);
    return -1;
  }
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
  if (address.ss_family == AF_INET6) {
    // The same dual-stack choice as the TCP socket it stands beside.
    int v6only = 0;
    socklen_t size = sizeof(v6only);
    if (getsockopt(stream_fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &size) == 0) {
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
    }
  }
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0) {
    error = std::string("bind: ") + strerrordesc_np(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

datagram_listener::datagram_listener(loop::event_loop& loop, int fd, net::datagram_sink& sink)
    : loop_(loop), fd_(fd), sink_(sink), buffer_(datagram_buffer_bytes) {
  local_length_ = sizeof(local_);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&local_), &local_length_) != 0) local_length_ = 0;
}

datagram_listener::~datagram_listener() {
  if (fd_ >= 0) ::close(fd_);
}

void datagram_listener::watch() {
  loop::expect_loop(&loop_, "datagram_listener::watch");
  if (fd_ < 0 || watched_) return;
  loop_.add(fd_, loop::event_loop::readable, this);
  watched_ = true;
}

void datagram_listener::pause() {
  loop::expect_loop(&loop_, "datagram_listener::pause");
  if (!watched_) return;
  loop_.remove(fd_);
  watched_ = false;
}

void datagram_listener::close() {
  loop::expect_loop(&loop_, "datagram_listener::close");
  if (fd_ < 0) return;
  pause();
  ::close(fd_);
  fd_ = -1;
}

void datagram_listener::on_io(uint32_t /*events*/) {
  for (int i = 0; i < datagrams_per_wake && fd_ >= 0; ++i) {
    sockaddr_storage peer{};
    socklen_t peer_length = sizeof(peer);
    ssize_t n = ::recvfrom(fd_, buffer_.data(), buffer_.size(), 0, reinterpret_cast<sockaddr*>(&peer),
                           &peer_length);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        // An ICMP error queued on the socket (a port unreachable for an
        // earlier send) fails one read; the next datagram is unaffected.
        log::write(log::level::debug, "udp receive: %s", strerrordesc_np(errno));
        continue;
      }
      return;
    }
    net::datagram d;
    d.data = buffer_.data();
    d.length = static_cast<size_t>(n);
    d.peer = reinterpret_cast<const sockaddr*>(&peer);
    d.peer_length = peer_length;
    d.local = reinterpret_cast<const sockaddr*>(&local_);
    d.local_length = local_length_;
    d.fd = fd_;
    sink_.on_datagram(d);
  }
}

}  // namespace baton::server
