// Unit tests for the datagram listener (src/core/server/datagram_listener.h):
// its UDP socket stands on the TCP listener's own address and port, a Unix
// socket has no UDP twin, and every datagram that arrives reaches the sink
// with its bytes and its sender, through the loop, also when the kernel
// coalesced a run of them into one read (GRO), when one read brought
// several senders' (recvmmsg), and when the loop runs again from inside a
// datagram's handling (an inline app waiting for its body) while the rest
// of that read are still to go; and each datagram's ECN codepoint comes
// with it.
#include "core/server/datagram_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <tuple>
#include <string>
#include <vector>

#include "core/loop/thread_contract.h"

#include "unit/support/loopback_listener.h"

namespace {

using baton::server::datagram_listener;

using baton::testing::tcp_listener_on_loopback;

uint16_t port_of(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return ntohs(address.sin_port);
}

struct recording_sink final : baton::net::datagram_sink {
  void on_datagram(const baton::net::datagram& d) override {
    texts.emplace_back(reinterpret_cast<const char*>(d.data), d.length);
    ports.push_back(ntohs(reinterpret_cast<const sockaddr_in*>(d.peer)->sin_port));
    ecn.push_back(d.ecn);
    if (inside) inside(texts.back());
  }
  std::vector<std::string> texts;
  std::vector<uint16_t> ports;
  std::vector<int> ecn;
  std::function<void(const std::string&)> inside;  // run within the handling of each datagram
};

// A listener watched by its loop, on the UDP twin of a loopback TCP
// listener, and a client socket with the address to send to.
struct listening {
  baton::loop::event_loop loop;
  baton::loop::running_pass pass{&loop};
  int tcp = tcp_listener_on_loopback();
  std::string error;
  int udp = datagram_listener::open_beside(tcp, error);
  recording_sink sink;
  datagram_listener listener{loop, udp, sink};
  int client = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in to{};
  listening() {
    listener.watch();
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = htons(port_of(tcp));
  }
  ~listening() {
    ::close(client);
    ::close(tcp);
  }
  void send(int from, const std::string& text) const {
    ASSERT_EQ(::sendto(from, text.data(), text.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof(to)),
              static_cast<ssize_t>(text.size()));
  }
  void run_until(size_t count) {
    for (int i = 0; i < 10 && sink.texts.size() < count; ++i) loop.run_once(1000);
  }
};

TEST(DatagramListener, BindsUdpOnTheTcpListenersAddressAndPort) {
  int tcp = tcp_listener_on_loopback();
  std::string error;
  int udp = datagram_listener::open_beside(tcp, error);
  ASSERT_GE(udp, 0) << error;
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  ASSERT_EQ(getsockname(udp, reinterpret_cast<sockaddr*>(&address), &length), 0);
  EXPECT_EQ(ntohs(address.sin_port), port_of(tcp));
  EXPECT_EQ(address.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
  int type = 0;
  socklen_t size = sizeof(type);
  getsockopt(udp, SOL_SOCKET, SO_TYPE, &type, &size);
  EXPECT_EQ(type, SOCK_DGRAM);
  ::close(udp);
  ::close(tcp);
}

TEST(DatagramListener, AUnixSocketHasNoUdpTwin) {
  int unix_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  std::string error;
  EXPECT_EQ(datagram_listener::open_beside(unix_fd, error), -1);
  EXPECT_EQ(error, "not an IP socket");
  ::close(unix_fd);
}

TEST(DatagramListener, EveryDatagramReachesTheSinkWithItsSender) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  auto [loop, sink, listener, client, to, udp] = std::tie(l.loop, l.sink, l.listener, l.client, l.to, l.udp);
  for (const char* text : {"one", "", "three"}) {
    ASSERT_EQ(::sendto(client, text, std::string(text).size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to)),
              static_cast<ssize_t>(std::string(text).size()));
  }
  for (int i = 0; i < 10 && sink.texts.size() < 3; ++i) loop.run_once(1000);
  EXPECT_EQ(sink.texts, (std::vector<std::string>{"one", "", "three"}));
  sockaddr_in from{};
  socklen_t length = sizeof(from);
  getsockname(client, reinterpret_cast<sockaddr*>(&from), &length);
  EXPECT_EQ(sink.ports, (std::vector<uint16_t>(3, ntohs(from.sin_port))));

  // Paused, nothing is read; closed, the socket is gone.
  listener.pause();
  ::sendto(client, "later", 5, 0, reinterpret_cast<sockaddr*>(&to), sizeof(to));
  loop.run_once(50);
  EXPECT_EQ(sink.texts.size(), 3u);
  listener.close();
  EXPECT_FALSE(listener.open());
}

// A segmented send (UDP_SEGMENT) on loopback reaches a socket with GRO as
// one read of the whole run, its segment size in a control message: the
// listener hands on each datagram as it was sent, the last one shorter.
TEST(DatagramListener, DatagramsTheKernelCoalescedReachTheSinkOneByOne) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  auto [loop, sink, listener, client, to, udp] = std::tie(l.loop, l.sink, l.listener, l.client, l.to, l.udp);
  int gro = 0;
  socklen_t size = sizeof(gro);
  ASSERT_EQ(getsockopt(udp, SOL_UDP, UDP_GRO, &gro, &size), 0);
  EXPECT_EQ(gro, 1) << "the listener did not turn GRO on";

  std::string run;
  std::vector<std::string> sent;
  for (char c : {'a', 'b', 'c', 'd'}) sent.emplace_back(1000, c);
  sent.emplace_back(300, 'e');
  for (const std::string& s : sent) run += s;
  iovec iov{run.data(), run.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(uint16_t))] = {};
  msghdr m{};
  m.msg_name = &to;
  m.msg_namelen = sizeof(to);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof(control);
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_UDP;
  c->cmsg_type = UDP_SEGMENT;
  c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
  uint16_t segment = 1000;
  std::memcpy(CMSG_DATA(c), &segment, sizeof(segment));
  ASSERT_EQ(::sendmsg(client, &m, 0), static_cast<ssize_t>(run.size()));
  for (int i = 0; i < 10 && sink.texts.size() < sent.size(); ++i) loop.run_once(1000);
  EXPECT_EQ(sink.texts, sent);
  listener.close();
}

// Datagrams of three senders, waiting together, are read together (one
// recvmmsg): each reaches the sink with its own sender.
TEST(DatagramListener, DatagramsOfSeveralSendersReadTogetherKeepTheirSenders) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  int others[2] = {::socket(AF_INET, SOCK_DGRAM, 0), ::socket(AF_INET, SOCK_DGRAM, 0)};
  int senders[3] = {l.client, others[0], others[1]};
  std::vector<std::string> sent;
  std::vector<uint16_t> ports;
  for (int round = 0; round < 4; ++round) {
    for (int s : senders) {
      sent.push_back("from " + std::to_string(s) + " #" + std::to_string(round));
      l.send(s, sent.back());
      ports.push_back(port_of(s));
    }
  }
  l.run_until(sent.size());
  EXPECT_EQ(l.sink.texts, sent);
  EXPECT_EQ(l.sink.ports, ports);
  for (int s : others) ::close(s);
}

// An inline app that waits for its body runs the loop from inside a
// datagram's handling, and that pass reads the socket again: the datagrams
// the outer read brought and has not handed on yet must survive it.
TEST(DatagramListener, ALoopRunFromInsideADatagramLosesNoneOfTheOuterReads) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  for (const char* text : {"a1", "a2", "a3"}) l.send(l.client, text);
  bool nested = false;
  l.sink.inside = [&](const std::string& text) {
    if (text != "a1" || nested) return;
    nested = true;
    l.send(l.client, "n1");
    l.send(l.client, "n2");
    for (int i = 0; i < 10 && l.sink.texts.size() < 3; ++i) l.loop.run_once(1000);
  };
  l.run_until(5);
  EXPECT_EQ(l.sink.texts, (std::vector<std::string>{"a1", "n1", "n2", "a2", "a3"}));
}

// Datagrams sent marked with each ECN codepoint (the sender's TOS byte:
// not-ECT, ECT(1), ECT(0), CE) reach the sink with that codepoint, which
// QUIC counts and reports back; without it the sender's path check fails
// and it stops marking.
TEST(DatagramListener, EachDatagramComesWithItsEcnCodepoint) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  std::vector<std::string> sent;
  for (int codepoint : {0, 1, 2, 3}) {
    int tos = codepoint;
    ASSERT_EQ(setsockopt(l.client, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)), 0);
    sent.push_back("marked " + std::to_string(codepoint));
    l.send(l.client, sent.back());
  }
  l.run_until(sent.size());
  EXPECT_EQ(l.sink.texts, sent);
  EXPECT_EQ(l.sink.ecn, (std::vector<int>{0, 1, 2, 3}));
}

// A burst waits in the socket while the loop is busy: its receive buffer is
// the one asked for (the kernel reports twice what it was given), past the
// system's cap when the process may (root), else up to that cap.
TEST(DatagramListener, TheSocketHoldsABurstWhileTheLoopIsBusy) {
  listening l;
  ASSERT_GE(l.udp, 0) << l.error;
  int buffer = 0;
  socklen_t size = sizeof(buffer);
  ASSERT_EQ(getsockopt(l.udp, SOL_SOCKET, SO_RCVBUF, &buffer, &size), 0);
  if (geteuid() == 0) {
    EXPECT_GE(buffer, datagram_listener::receive_buffer_bytes);
  } else {
    EXPECT_GT(buffer, 212992) << "not even the system's cap";  // the default, when the cap is the default
  }
}

}  // namespace
