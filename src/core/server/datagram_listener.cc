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

// What a read's control data says: the size of each datagram the kernel
// coalesced (UDP_GRO; 0 when it holds one) and their ECN codepoint (all of
// a coalesced run share it: GRO joins only datagrams alike in their
// headers).
struct read_facts {
  size_t segment = 0;
  uint8_t ecn = 0;
};

read_facts facts_of(msghdr& m) {
  read_facts facts;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c != nullptr; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
      int size = 0;
      std::memcpy(&size, CMSG_DATA(c), sizeof(size));
      facts.segment = size > 0 ? static_cast<size_t>(size) : 0;
    } else if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) {
      facts.ecn = *CMSG_DATA(c) & 0x3;  // one byte
    } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS) {
      int tclass = 0;
      std::memcpy(&tclass, CMSG_DATA(c), sizeof(tclass));
      facts.ecn = static_cast<uint8_t>(tclass & 0x3);
    }
  }
  return facts;
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
    : loop_(loop), fd_(fd), sink_(sink) {
  local_length_ = sizeof(local_);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&local_), &local_length_) != 0) local_length_ = 0;
  // GRO: a run of one sender's datagrams arrives in one read (split again
  // below). A kernel without it gives them one a read, as before.
  int on = 1;
  setsockopt(fd_, SOL_UDP, UDP_GRO, &on, sizeof(on));
  // Each datagram's ECN codepoint: IPv4's TOS byte (also of the IPv4
  // datagrams a dual-stack IPv6 socket receives), IPv6's traffic class.
  setsockopt(fd_, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on));
  if (local_.ss_family == AF_INET6) setsockopt(fd_, IPPROTO_IPV6, IPV6_RECVTCLASS, &on, sizeof(on));
  // Never fragmented (RFC 9000 section 14): the Don't Fragment bit set,
  // and the kernel's own idea of the path's MTU not applied, for QUIC
  // finds it itself (ngtcp2's path MTU discovery, RFC 8899's packetization
  // layer way): a probe larger than the path is lost, or refused at once
  // (EMSGSIZE) past the interface's MTU, rather than cut into fragments.
  int probe = IP_PMTUDISC_PROBE;
  setsockopt(fd_, IPPROTO_IP, IP_MTU_DISCOVER, &probe, sizeof(probe));
  if (local_.ss_family == AF_INET6) {
    probe = IPV6_PMTUDISC_PROBE;
    setsockopt(fd_, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &probe, sizeof(probe));
  }
  // What waits while the loop is busy (a burst of Initials, many clients'
  // packets at once): the kernel's default buffer holds some 90 full
  // datagrams and drops the rest. Asked for receive_buffer_bytes: as root
  // past the system's cap (SO_RCVBUFFORCE), else up to it
  // (net.core.rmem_max). Only what waits takes memory.
  int bytes = receive_buffer_bytes;
  if (setsockopt(fd_, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) != 0) {
    setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
  }
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

// One recvmmsg reads up to reads_per_call runs (several senders'); each
// run may hold several datagrams of its sender (GRO), all of the segment
// size the kernel reports but the last: each goes to the sink on its own,
// as it was sent.
void datagram_listener::on_io(uint32_t /*events*/) {
  if (batches_.size() <= depth_) batches_.push_back(std::make_unique<read_batch>());
  read_batch& b = *batches_[depth_];
  struct deeper {
    size_t& depth;
    explicit deeper(size_t& d) : depth(++d) {}
    ~deeper() { --depth; }
  } scope(depth_);
  for (int handed = 0; handed < datagrams_per_wake && fd_ >= 0;) {
    for (int i = 0; i < reads_per_call; ++i) b.rearm(i);
    int count = ::recvmmsg(fd_, b.reads, reads_per_call, 0, nullptr);
    if (count < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        // An ICMP error queued on the socket (a port unreachable for an
        // earlier send) fails one read; the next datagram is unaffected.
        log::write(log::level::debug, "udp receive: %s", strerrordesc_np(errno));
        ++handed;
        continue;
      }
      return;
    }
    for (int i = 0; i < count && fd_ >= 0; ++i) {
      msghdr& m = b.reads[i].msg_hdr;
      size_t length = b.reads[i].msg_len;
      const read_facts facts = facts_of(m);
      size_t segment = facts.segment;
      if (segment == 0 || segment > length) segment = length;
      net::datagram d;
      d.peer = reinterpret_cast<const sockaddr*>(&b.peers[i]);
      d.peer_length = m.msg_namelen;
      d.local = reinterpret_cast<const sockaddr*>(&local_);
      d.local_length = local_length_;
      d.fd = fd_;
      d.ecn = facts.ecn;
      const uint8_t* base = static_cast<const uint8_t*>(b.iov[i].iov_base);
      size_t at = 0;
      do {
        d.data = base + at;
        d.length = std::min(segment, length - at);
        sink_.on_datagram(d);
        at += d.length;
        ++handed;
      } while (at < length && fd_ >= 0);
    }
    if (count < reads_per_call) return;  // the socket is empty: no read to find EAGAIN
  }
}

datagram_listener::read_batch::read_batch() : buffers(new uint8_t[reads_per_call * datagram_buffer_bytes]) {
  for (int i = 0; i < reads_per_call; ++i) {
    iov[i] = {buffers.get() + i * datagram_buffer_bytes, datagram_buffer_bytes};
    msghdr& m = reads[i].msg_hdr;
    m = msghdr{};
    m.msg_name = &peers[i];
    m.msg_iov = &iov[i];
    m.msg_iovlen = 1;
    m.msg_control = control[i];
  }
}

// What a read changes in its header (the lengths the kernel filled in)
// set back before the next.
void datagram_listener::read_batch::rearm(int i) {
  msghdr& m = reads[i].msg_hdr;
  m.msg_namelen = sizeof(peers[i]);
  m.msg_controllen = sizeof(control[i]);
  m.msg_flags = 0;
  reads[i].msg_len = 0;
}

}  // namespace baton::server
