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

}  // namespace

packet_batch::packet_batch(int fd, metrics::counter* sent) : fd_(fd), sent_(sent), buffer_(loop_buffer) {}

uint8_t* packet_batch::next(size_t room) {
  if (closed_ || used_ + room > most_bytes || segments_ == most_segments) send();
  return buffer_ + used_;
}

void packet_batch::add(size_t length, const ngtcp2_path& path) {
  if (segments_ > 0 && (!same_address(to_, to_length_, path.remote) || length > segment_)) {
    // Not one of this run: the run goes first, then this packet starts the next.
    uint8_t* packet = buffer_ + used_;
    send();
    std::memmove(buffer_, packet, length);
  }
  if (segments_ == 0) {
    std::memcpy(&to_, path.remote.addr, path.remote.addrlen);
    to_length_ = path.remote.addrlen;
    segment_ = length;
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
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(uint16_t))] = {};
    msghdr msg{};
    msg.msg_name = &to_;
    msg.msg_namelen = to_length_;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    const auto size = static_cast<uint16_t>(segment_);
    std::memcpy(CMSG_DATA(c), &size, sizeof(size));
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
  for (size_t at = 0; at < used_; at += segment_) send_one(fd_, buffer_ + at, std::min(segment_, used_ - at), to, sent_);
}

void packet_batch::send_one(int fd, const uint8_t* data, size_t length, const ngtcp2_addr& to,
                            metrics::counter* sent) {
  ssize_t n = ::sendto(fd, data, length, MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(to.addr), to.addrlen);
  if (n >= 0 && sent != nullptr) metrics::bump(*sent);
  // A full socket buffer drops the packet: QUIC's loss recovery sends its
  // frames again.
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
    log::write(log::level::debug, "quic: send: %s", strerrordesc_np(errno));
  }
}

}  // namespace baton::quic
