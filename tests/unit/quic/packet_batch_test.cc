// Unit tests for the packet batch (src/core/quic/packet_batch.h), over real
// loopback UDP sockets: a run of packets of one size (the last shorter) to
// one address arrives as those datagrams, each whole and in order, though
// sent together; a packet to another address, or a longer one, starts a new
// run; a batch fuller than one send carries goes out in several; and every
// datagram is counted.
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

struct receiver {
  receiver() {
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    socklen_t length = sizeof(address);
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
      ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
      if (n < 0) break;
      got.emplace_back(buffer, static_cast<size_t>(n));
    }
    return got;
  }

  ngtcp2_path path() {
    ngtcp2_path p{};
    p.remote.addr = reinterpret_cast<ngtcp2_sockaddr*>(&address);
    p.remote.addrlen = sizeof(address);
    return p;
  }

  int fd = -1;
  sockaddr_in address{};
};

std::string packet_of(size_t length, int number) { return std::string(length, static_cast<char>('a' + number % 26)); }

void put(packet_batch& batch, const std::string& packet, const ngtcp2_path& path) {
  uint8_t* at = batch.next(1452);
  std::memcpy(at, packet.data(), packet.size());
  batch.add(packet.size(), path);
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

}  // namespace
