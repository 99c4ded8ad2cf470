// Unit tests for QUIC's datagram steering (src/core/net/cid_steering.h),
// against the kernel itself: a real SO_REUSEPORT group of UDP sockets on
// loopback, the program attached, and datagrams shaped as QUIC packets sent
// to the port. A destination ID with the group's prefix reaches the socket
// it names, live or not; one without (a client's first Initial, a stranger's
// short header) reaches a live socket, the same one every time for the same
// ID; and the live sockets share such IDs between them.
#include "core/net/cid_steering.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using baton::net::cid_prefix;
using baton::net::server_cid_length;
using baton::net::steering_plan;

constexpr uint32_t test_key = 0x5eed1e55;

// `count` UDP sockets bound to one loopback port, in that order.
struct group {
  explicit group(size_t count) {
    for (size_t i = 0; i < count; ++i) {
      int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      int on = 1;
      setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      address.sin_port = port;
      EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0) << strerror(errno);
      if (i == 0) {
        socklen_t length = sizeof(address);
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        port = address.sin_port;
      }
      fds.push_back(fd);
    }
    sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  }
  ~group() {
    for (int fd : fds) close(fd);
    close(sender);
  }

  // Sends `packet` to the group's port; the index of the socket it reached, or -1.
  int deliver(const std::vector<uint8_t>& packet) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = port;
    sendto(sender, packet.data(), packet.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to));
    std::vector<pollfd> watched;
    for (int fd : fds) watched.push_back(pollfd{fd, POLLIN, 0});
    if (poll(watched.data(), watched.size(), 2000) <= 0) return -1;
    int reached = -1;
    for (size_t i = 0; i < watched.size(); ++i) {
      if ((watched[i].revents & POLLIN) == 0) continue;
      std::array<uint8_t, 2048> buffer{};
      while (recv(fds[i], buffer.data(), buffer.size(), 0) > 0) {
      }
      reached = reached == -1 ? static_cast<int>(i) : -2;  // two sockets: a failure either way
    }
    return reached;
  }

  std::vector<int> fds;
  int sender = -1;
  in_port_t port = 0;
};

std::vector<uint8_t> random_bytes(std::mt19937& random, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(random());
  return bytes;
}

// A short-header packet to `dcid` (the ID, then a stand-in for the payload).
std::vector<uint8_t> short_packet(const std::vector<uint8_t>& dcid) {
  std::vector<uint8_t> p = {0x40};
  p.insert(p.end(), dcid.begin(), dcid.end());
  p.resize(p.size() + 40, 0xab);
  return p;
}

// A long-header packet of `type` (0 Initial, 2 Handshake) to `dcid`.
std::vector<uint8_t> long_packet(const std::vector<uint8_t>& dcid, uint8_t type = 0) {
  std::vector<uint8_t> p = {static_cast<uint8_t>(0xc0 | (type << 4)), 0, 0, 0, 1,
                            static_cast<uint8_t>(dcid.size())};
  p.insert(p.end(), dcid.begin(), dcid.end());
  p.push_back(8);  // the source ID's length, and the ID
  p.resize(p.size() + 8 + 1200, 0);
  return p;
}

std::vector<uint8_t> server_cid(std::mt19937& random, int index, uint32_t key = test_key) {
  std::vector<uint8_t> cid = random_bytes(random, server_cid_length);
  cid_prefix{index, key}.write(cid.data());
  return cid;
}

void attach(group& g, const steering_plan& plan) {
  std::string error;
  ASSERT_TRUE(baton::net::attach_steering(g.fds[0], plan, error)) << error;
}

TEST(CidSteering, AnIdWithTheGroupsPrefixReachesTheSocketItNamesInEitherHeader) {
  group g(6);
  attach(g, steering_plan{6, test_key, {1, 3, 5}});
  std::mt19937 random(7);
  for (int index = 0; index < 6; ++index) {
    for (int round = 0; round < 5; ++round) {
      EXPECT_EQ(g.deliver(short_packet(server_cid(random, index))), index);
      EXPECT_EQ(g.deliver(long_packet(server_cid(random, index), 2)), index);
      EXPECT_EQ(g.deliver(long_packet(server_cid(random, index), 0)), index);
    }
  }
}

TEST(CidSteering, AnIdWithoutThePrefixReachesALiveSocketAndTheSameOneEachTime) {
  group g(6);
  attach(g, steering_plan{6, test_key, {1, 3, 5}});
  std::mt19937 random(11);
  std::map<int, int> reached;
  for (int attempt = 0; attempt < 300; ++attempt) {
    // A client's first Initial: its own random ID, eight bytes or more.
    std::vector<uint8_t> dcid = random_bytes(random, 8 + attempt % 13);
    int first = g.deliver(long_packet(dcid));
    ASSERT_TRUE(first == 1 || first == 3 || first == 5) << "reached " << first;
    EXPECT_EQ(g.deliver(long_packet(dcid)), first) << "a resent Initial went elsewhere";
    ++reached[first];
    // A stranger's short header, or one of ours under a key that is not the group's.
    int stranger = g.deliver(short_packet(random_bytes(random, server_cid_length)));
    EXPECT_TRUE(stranger == 1 || stranger == 3 || stranger == 5) << "reached " << stranger;
    int foreign = g.deliver(short_packet(server_cid(random, 0, test_key ^ 1)));
    EXPECT_TRUE(foreign == 1 || foreign == 3 || foreign == 5) << "reached " << foreign;
  }
  // 300 random IDs over three sockets: each gets a share, none all of them.
  ASSERT_EQ(reached.size(), 3u);
  for (auto [socket, count] : reached) EXPECT_GT(count, 50) << "socket " << socket;
}

TEST(CidSteering, AnIndexPastTheGroupIsTreatedAsNoPrefix) {
  group g(4);
  attach(g, steering_plan{4, test_key, {2}});
  std::mt19937 random(3);
  for (int index : {4, 9, 255}) {
    EXPECT_EQ(g.deliver(short_packet(server_cid(random, index))), 2);
    EXPECT_EQ(g.deliver(long_packet(server_cid(random, index), 2)), 2);
  }
}

TEST(CidSteering, AttachingAgainReplacesTheLiveSockets) {
  group g(4);
  attach(g, steering_plan{4, test_key, {0}});
  std::mt19937 random(5);
  std::vector<uint8_t> dcid = random_bytes(random, 8);
  EXPECT_EQ(g.deliver(long_packet(dcid)), 0);
  attach(g, steering_plan{4, test_key, {3}});
  EXPECT_EQ(g.deliver(long_packet(dcid)), 3);
  EXPECT_EQ(g.deliver(short_packet(server_cid(random, 0))), 0) << "an ID of ours still reaches its socket";
}

TEST(CidSteering, APlanThatCannotBeAProgramIsRefused) {
  EXPECT_TRUE(baton::net::steering_program(steering_plan{0, test_key, {0}}).empty());
  EXPECT_TRUE(baton::net::steering_program(steering_plan{257, test_key, {0}}).empty());
  EXPECT_TRUE(baton::net::steering_program(steering_plan{4, test_key, {}}).empty());
  EXPECT_TRUE(baton::net::steering_program(steering_plan{4, test_key, {4}}).empty());
  group g(2);
  std::string error;
  EXPECT_FALSE(baton::net::attach_steering(g.fds[0], steering_plan{2, test_key, {}}, error));
  EXPECT_FALSE(error.empty());
}

TEST(CidSteering, ThePrefixIsTheIndexThenTheKeyBigEndianAndOffWritesNothing) {
  std::array<uint8_t, server_cid_length> cid{};
  cid_prefix{7, 0x01020304}.write(cid.data());
  EXPECT_EQ(cid[0], 7);
  EXPECT_EQ(cid[1], 1);
  EXPECT_EQ(cid[4], 4);
  std::array<uint8_t, server_cid_length> untouched{};
  untouched.fill(0xee);
  cid_prefix{}.write(untouched.data());
  EXPECT_EQ(untouched[0], 0xee);
}

}  // namespace
