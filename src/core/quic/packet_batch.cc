#include "core/quic/packet_batch.h"

#include <netinet/in.h>
#include <netinet/udp.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/metrics/record.h"
#include "core/util/log.h"

namespace baton::quic {
namespace {

// Cleared the first time the kernel refuses a segmented send.
std::atomic<bool> segmentation{true};

thread_local uint8_t loop_buffer[packet_batch::most_bytes + NGTCP2_MAX_UDP_PAYLOAD_SIZE];

bool same_address(const sockaddr_storage& a, socklen_t a_length, const ngtcp2_addr& b) {
  return a_length == b.addrlen && std::memcmp(&a, b.addr, a_length) == 0;
}

// Room for a send's control messages: the segment size and the traffic class.
constexpr size_t control_room = CMSG_SPACE(sizeof(uint16_t)) + CMSG_SPACE(sizeof(int));

// Appends to `msg`'s control data the ECN codepoint of a send to `to`:
// IPv4's TOS (also for an IPv4 peer of a dual-stack IPv6 socket, whose
// datagram leaves as IPv4), IPv6's traffic class. Nothing for not-ECT.
void mark_ecn(msghdr& msg, cmsghdr* c, const sockaddr* to, uint8_t ecn) {
  if (ecn == 0) return;
  bool v4 = to->sa_family == AF_INET;
  if (!v4) v4 = IN6_IS_ADDR_V4MAPPED(&reinterpret_cast<const sockaddr_in6*>(to)->sin6_addr);
  c->cmsg_level = v4 ? IPPROTO_IP : IPPROTO_IPV6;
  c->cmsg_type = v4 ? IP_TOS : IPV6_TCLASS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  const int value = ecn;
  std::memcpy(CMSG_DATA(c), &value, sizeof(value));
  msg.msg_controllen += CMSG_SPACE(sizeof(int));
}

}  // namespace

packet_batch::packet_batch(int fd, metrics::counter* sent) : fd_(fd), sent_(sent), buffer_(loop_buffer) {}

uint8_t* packet_batch::next(size_t room) {
  if (closed_ || used_ + room > most_bytes || segments_ == most_segments) send();
  return buffer_ + used_;
}

void packet_batch::add(size_t length, const ngtcp2_path& path, uint8_t ecn) {
  if (segments_ > 0 && (!same_address(to_, to_length_, path.remote) || length > segment_ || ecn != ecn_)) {
    // Not one of this run: the run goes first, then this packet starts the next.
    uint8_t* packet = buffer_ + used_;
    send();
    std::memmove(buffer_, packet, length);
  }
  if (segments_ == 0) {
    std::memcpy(&to_, path.remote.addr, path.remote.addrlen);
    to_length_ = path.remote.addrlen;
    segment_ = length;
    ecn_ = ecn;
  }
  used_ += length;
  ++segments_;
  closed_ = length < segment_;
}

void packet_batch::send() {
  if (segments_ == 0) return;
  if (segments_ == 1 || !segmentation.load(std::memory_order_relaxed)) {
    send_each();
  } else {
    iovec iov{buffer_, used_};
    alignas(cmsghdr) char control[control_room] = {};
    msghdr msg{};
    msg.msg_name = &to_;
    msg.msg_namelen = to_length_;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = control_room;  // for CMSG_NXTHDR; cut to what is used below
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    const auto size = static_cast<uint16_t>(segment_);
    std::memcpy(CMSG_DATA(c), &size, sizeof(size));
    cmsghdr* next = CMSG_NXTHDR(&msg, c);
    msg.msg_controllen = CMSG_SPACE(sizeof(uint16_t));
    mark_ecn(msg, next, reinterpret_cast<const sockaddr*>(&to_), ecn_);
    if (::sendmsg(fd_, &msg, MSG_DONTWAIT) >= 0) {
      if (sent_ != nullptr) metrics::bump(*sent_, segments_);
    } else if (errno == EIO || errno == EINVAL || errno == ENOPROTOOPT) {
      log::write(log::level::info, "quic: the kernel does not segment UDP sends here (%s): one datagram a send",
                 strerrordesc_np(errno));
      segmentation.store(false, std::memory_order_relaxed);
      send_each();
    } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
      // A full socket buffer drops these packets: QUIC's loss recovery sends
      // their frames again.
      log::write(log::level::debug, "quic: send: %s", strerrordesc_np(errno));
    }
  }
  used_ = 0;
  segments_ = 0;
  closed_ = false;
}

void packet_batch::send_each() {
  ngtcp2_addr to{reinterpret_cast<ngtcp2_sockaddr*>(&to_), to_length_};
  for (size_t at = 0; at < used_; at += segment_) {
    send_one(fd_, buffer_ + at, std::min(segment_, used_ - at), to, sent_, ecn_);
  }
}

void packet_batch::send_one(int fd, const uint8_t* data, size_t length, const ngtcp2_addr& to,
                            metrics::counter* sent, uint8_t ecn) {
  iovec iov{const_cast<uint8_t*>(data), length};
  alignas(cmsghdr) char control[control_room] = {};
  msghdr msg{};
  msg.msg_name = to.addr;
  msg.msg_namelen = to.addrlen;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = control_room;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  msg.msg_controllen = 0;
  mark_ecn(msg, c, to.addr, ecn);
  if (msg.msg_controllen == 0) msg.msg_control = nullptr;
  ssize_t n = ::sendmsg(fd, &msg, MSG_DONTWAIT);
  if (n >= 0 && sent != nullptr) metrics::bump(*sent);
  // A full socket buffer drops the packet: QUIC's loss recovery sends its
  // frames again.
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
    log::write(log::level::debug, "quic: send: %s", strerrordesc_np(errno));
  }
}

}  // namespace baton::quic
