#include "core/server/datagram_listener.h"

#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/loop/thread_contract.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
// Datagrams one wake hands on (the last read's all) before the loop serves
// the others: a burst of one busy connection must not starve the TCP
// sessions.
constexpr int datagrams_per_wake = 64;
// The largest UDP payload; QUIC's packets are far smaller, but a read into
// a short buffer would truncate a datagram silently. With GRO one read
// brings up to this much of one sender's datagrams.
constexpr size_t datagram_buffer_bytes = 65536;

// The size of each datagram the kernel coalesced into `m` (UDP_GRO), or 0
// when it holds one.
size_t segment_size(msghdr& m) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c != nullptr; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
      int size = 0;
      std::memcpy(&size, CMSG_DATA(c), sizeof(size));
      return size > 0 ? static_cast<size_t>(size) : 0;
    }
  }
  return 0;
}

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
  // GRO: a run of one sender's datagrams arrives in one read (split again
  // below). A kernel without it gives them one a read, as before.
  int on = 1;
  setsockopt(fd_, SOL_UDP, UDP_GRO, &on, sizeof(on));
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

// Each read may bring several datagrams of one sender (GRO), all of the
// segment size the kernel reports but the last: each goes to the sink on
// its own, as it was sent.
void datagram_listener::on_io(uint32_t /*events*/) {
  for (int handed = 0; handed < datagrams_per_wake && fd_ >= 0;) {
    sockaddr_storage peer{};
    iovec iov{buffer_.data(), buffer_.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    msghdr m{};
    m.msg_name = &peer;
    m.msg_namelen = sizeof(peer);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof(control);
    ssize_t n = ::recvmsg(fd_, &m, 0);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        // An ICMP error queued on the socket (a port unreachable for an
        // earlier send) fails one read; the next datagram is unaffected.
        log::write(log::level::debug, "udp receive: %s", strerrordesc_np(errno));
        ++handed;
        continue;
      }
      return;
    }
    size_t length = static_cast<size_t>(n);
    size_t segment = segment_size(m);
    if (segment == 0 || segment > length) segment = length;
    net::datagram d;
    d.peer = reinterpret_cast<const sockaddr*>(&peer);
    d.peer_length = m.msg_namelen;
    d.local = reinterpret_cast<const sockaddr*>(&local_);
    d.local_length = local_length_;
    d.fd = fd_;
    size_t at = 0;
    do {
      d.data = buffer_.data() + at;
      d.length = std::min(segment, length - at);
      sink_.on_datagram(d);
      at += d.length;
      ++handed;
    } while (at < length && fd_ >= 0);
  }
}

}  // namespace baton::server
