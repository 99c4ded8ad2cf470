// Unit tests for the packet batch (src/core/quic/packet_batch.h), over real
// loopback UDP sockets: a run of packets of one size (the last shorter) to
// one address arrives as those datagrams, each whole and in order, though
// sent together; a packet to another address, or a longer one, starts a new
// run; a batch fuller than one send carries goes out in several; every
// datagram is counted; and each leaves with the ECN codepoint given for it
// (a change of codepoint starts a new run), alone or in a run, to IPv4 and
// IPv6 peers.
#include "core/quic/packet_batch.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using baton::quic::packet_batch;

// A loopback UDP socket (IPv4, or IPv6 on ::1) that reads each datagram
// with its ECN codepoint.
struct receiver {
  explicit receiver(int family = AF_INET) {
    fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int on = 1;
    if (family == AF_INET) {
      auto& a = reinterpret_cast<sockaddr_in&>(address);
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on));
    } else {
      auto& a = reinterpret_cast<sockaddr_in6&>(address);
      a.sin6_family = AF_INET6;
      a.sin6_addr = in6addr_loopback;
      setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &on, sizeof(on));
    }
    length = family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
    bind(fd, reinterpret_cast<sockaddr*>(&address), length);
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
  }
  ~receiver() { close(fd); }

  std::vector<std::string> read_all() {
    std::vector<std::string> got;
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 200) > 0) {
      char buffer[70000];
      iovec iov{buffer, sizeof(buffer)};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
      msghdr m{};
      m.msg_iov = &iov;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof(control);
      ssize_t n = recvmsg(fd, &m, 0);
      if (n < 0) break;
      got.emplace_back(buffer, static_cast<size_t>(n));
      int tclass = 0;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c != nullptr; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) tclass = *CMSG_DATA(c);
        if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS) std::memcpy(&tclass, CMSG_DATA(c), sizeof(int));
      }
      ecn.push_back(tclass & 3);
    }
    return got;
  }

  ngtcp2_path path() {
    ngtcp2_path p{};
    p.remote.addr = reinterpret_cast<ngtcp2_sockaddr*>(&address);
    p.remote.addrlen = length;
    return p;
  }

  int fd = -1;
  sockaddr_storage address{};
  socklen_t length = 0;
  std::vector<int> ecn;  // of each datagram read_all() read
};

std::string packet_of(size_t length, int number) { return std::string(length, static_cast<char>('a' + number % 26)); }

void put(packet_batch& batch, const std::string& packet, const ngtcp2_path& path, uint8_t ecn = 0) {
  uint8_t* at = batch.next(1452);
  std::memcpy(at, packet.data(), packet.size());
  batch.add(packet.size(), path, ecn);
}

TEST(PacketBatch, ARunOfPacketsArrivesAsThoseDatagramsWholeAndInOrder) {
  receiver r;
  int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  baton::metrics::counter sent{0};
  std::vector<std::string> packets;
  for (int i = 0; i < 10; ++i) packets.push_back(packet_of(1200, i));
  packets.push_back(packet_of(300, 10));  // the last, shorter
  {
    packet_batch batch(sender, &sent);
    for (const auto& p : packets) put(batch, p, r.path());
  }
  EXPECT_EQ(r.read_all(), packets);
  EXPECT_EQ(sent.load(), packets.size());
  close(sender);
}

TEST(PacketBatch, AnotherAddressOrALongerPacketStartsANewRun) {
  receiver first;
  receiver second;
  int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  baton::metrics::counter sent{0};
  {
    packet_batch batch(sender, &sent);
    put(batch, packet_of(500, 0), first.path());
    put(batch, packet_of(500, 1), first.path());
    put(batch, packet_of(900, 2), first.path());   // longer: a run of its own
    put(batch, packet_of(900, 3), second.path());  // elsewhere
    put(batch, packet_of(100, 4), first.path());
    put(batch, packet_of(100, 5), first.path());   // after a shorter one: a new run
  }
  EXPECT_EQ(first.read_all(), (std::vector<std::string>{packet_of(500, 0), packet_of(500, 1), packet_of(900, 2),
                                                         packet_of(100, 4), packet_of(100, 5)}));
  EXPECT_EQ(second.read_all(), (std::vector<std::string>{packet_of(900, 3)}));
  EXPECT_EQ(sent.load(), 6u);
  close(sender);
}

TEST(PacketBatch, MorePacketsThanOneSendCarriesGoOutInSeveral) {
  receiver r;
  int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int size = 4 << 20;
  setsockopt(sender, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
  baton::metrics::counter sent{0};
  std::vector<std::string> packets;
  for (int i = 0; i < 150; ++i) packets.push_back(packet_of(1400, i));
  {
    packet_batch batch(sender, &sent);
    for (const auto& p : packets) put(batch, p, r.path());
  }
  EXPECT_EQ(r.read_all(), packets);
  EXPECT_EQ(sent.load(), packets.size());
  close(sender);
}

// ngtcp2 marks packets ECT(0) (2) while it checks that the path keeps the
// marks; a run of marked packets, one unmarked, one alone marked CE (3):
// each arrives with its own codepoint, over IPv4 and IPv6.
TEST(PacketBatch, EachPacketLeavesWithItsEcnCodepoint) {
  for (int family : {AF_INET, AF_INET6}) {
    receiver r(family);
    int sender = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    std::vector<std::string> packets;
    for (int i = 0; i < 4; ++i) packets.push_back(packet_of(1200, i));
    {
      packet_batch batch(sender, nullptr);
      for (int i = 0; i < 3; ++i) put(batch, packets[i], r.path(), 2);
      put(batch, packets[3], r.path(), 0);  // the same size: a codepoint alone starts a new run
    }
    EXPECT_EQ(r.read_all(), packets) << family;
    EXPECT_EQ(r.ecn, (std::vector<int>{2, 2, 2, 0})) << family;
    packet_batch::send_one(sender, reinterpret_cast<const uint8_t*>("close"), 5, r.path().remote, nullptr, 3);
    EXPECT_EQ(r.read_all(), std::vector<std::string>{"close"}) << family;
    EXPECT_EQ(r.ecn.back(), 3) << family;
    close(sender);
  }
}

}  // namespace
