// The PROXY header as a session's first protocol, over a real socket pair
// (the preface peeks at the socket, so no in-memory transport will do): the
// header is taken off the socket to its last byte and not one byte further,
// however it arrives; the protocol after it reads exactly what the client
// sent next; and a peer that may not send one, or does not in time, is
// closed.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "core/loop/event_loop.h"
#include "core/session/proxy_preface.h"
#include "core/session/session.h"

namespace {

namespace sn = baton::session;
namespace x = baton::exchange;

// Records what it reads from the socket itself.
struct recorder final : sn::protocol {
  explicit recorder(sn::session& s, std::string& into) : session(s), read(into) {}
  void start() override {}
  void on_readable() override {
    char buffer[4096];
    ssize_t n = session.io().receive(buffer, sizeof buffer);
    if (n > 0) read.append(buffer, static_cast<size_t>(n));
    if (n == 0) session.set_eof();
  }
  void on_writable() override {}
  void on_deadline() override {}
  plan current_plan() const override { return {true, INT64_MAX}; }
  void drain() override {}
  void on_close() override {}
  size_t release_idle_memory() override { return 0; }
  sn::session& session;
  std::string& read;
};

struct host final : sn::session_host, sn::preface_host {
  baton::loop::event_loop loop;
  sn::session_settings settings;
  sn::receive_buffer shared;
  sn::session_context context{loop, settings, *this, shared};
  x::proxy_settings trust;
  std::string after_header;
  bool handed = false;
  bool closed = false;
  int refused = 0;
  void session_closed(sn::session*, bool) override { closed = true; }
  void session_lingering(sn::session*) override {}
  std::unique_ptr<sn::protocol> first_protocol(sn::session& s) override {
    handed = true;
    return std::make_unique<recorder>(s, after_header);
  }
  void proxy_header_refused() override { ++refused; }
};

struct connection {
  int server_fd = -1;
  int client_fd = -1;
  sn::session* session = nullptr;
  connection(host& h, int timeout_ms) {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    server_fd = fds[0];
    client_fd = fds[1];
    sockaddr_storage unix_peer{};  // no address: a Unix socket's peer
    session = new sn::session(h.context, server_fd, unix_peer);
    session->start(std::make_unique<sn::proxy_preface>(*session, h, h.trust, timeout_ms, 1000));
  }
  ~connection() {
    if (!session->closed()) session->close_now();
    delete session;
    ::close(client_fd);
  }
  void send(std::string_view bytes) const {
    ASSERT_EQ(::write(client_fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }
};

void run_until(host& h, const bool& flag, int ms = 2000) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!flag && std::chrono::steady_clock::now() < until) h.loop.run_once(5);
}

void run_for(host& h, int ms) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) h.loop.run_once(5);
}

}  // namespace

TEST(ProxyPreface, AHeaderSentWithTheRequestIsTakenToItsLastByteAndNoFurther) {
  host h;
  connection c(h, 5000);
  c.send("PROXY TCP4 203.0.113.7 198.51.100.1 4711 8443\r\nGET / HTTP/1.1\r\n\r\n");
  run_until(h, h.handed);
  ASSERT_TRUE(h.handed);
  run_for(h, 30);
  EXPECT_EQ(h.after_header, "GET / HTTP/1.1\r\n\r\n");
  x::peer_info peer = c.session->peer();
  EXPECT_EQ(peer.address, "203.0.113.7");
  EXPECT_EQ(peer.port, 4711);
  EXPECT_EQ(peer.server_address, "198.51.100.1");
  EXPECT_EQ(peer.server_port, 8443);
}

TEST(ProxyPreface, AV2HeaderTrickledByteByByteIsTakenWhole) {
  host h;
  connection c(h, 5000);
  std::string header("\r\n\r\n\0\r\nQUIT\n\x21\x11\x00\x0f", 16);
  header += std::string("\xc0\x00\x02\x01\xc6\x33\x64\x07\xdc\x04\x01\xbb", 12);
  header += std::string("\x04\x00\x00", 3);  // a NOOP TLV
  for (char byte : header) {
    c.send(std::string_view(&byte, 1));
    run_for(h, 2);
    ASSERT_FALSE(h.closed);
  }
  c.send("PRI * HTTP/2.0\r\n");
  run_until(h, h.handed);
  ASSERT_TRUE(h.handed);
  run_for(h, 30);
  EXPECT_EQ(h.after_header, "PRI * HTTP/2.0\r\n");
  EXPECT_EQ(c.session->peer().address, "192.0.2.1");
  EXPECT_EQ(c.session->peer().port, 56324);
}

TEST(ProxyPreface, LocalKeepsTheSocketsOwnPeer) {
  host h;
  connection c(h, 5000);
  c.send(std::string("\r\n\r\n\0\r\nQUIT\n\x20\x00\x00\x00", 16) + "x");
  run_until(h, h.handed);
  ASSERT_TRUE(h.handed);
  run_for(h, 30);
  EXPECT_EQ(h.after_header, "x");
  EXPECT_TRUE(c.session->peer().address.empty());
  EXPECT_TRUE(c.session->peer().server_address.empty());
}

TEST(ProxyPreface, AnUntrustedPeerIsClosedAtOnce) {
  host h;
  h.trust.trust_unix = false;
  connection c(h, 5000);
  EXPECT_TRUE(h.closed);
  EXPECT_EQ(h.refused, 1);
  EXPECT_FALSE(h.handed);
}

TEST(ProxyPreface, AMalformedHeaderIsClosed) {
  host h;
  connection c(h, 5000);
  c.send("PROXY TCP4 203.0.113.7 198.51.100.1 99999 8443\r\n");
  run_until(h, h.closed);
  EXPECT_TRUE(h.closed);
  EXPECT_EQ(h.refused, 1);
  EXPECT_FALSE(h.handed);
}

TEST(ProxyPreface, AHeaderNotWholeInTimeIsClosedAtTheDeadline) {
  host h;
  connection c(h, 100);
  c.send("PROXY TCP4 203.0.");
  run_for(h, 50);
  EXPECT_FALSE(h.closed);
  run_until(h, h.closed, 1000);
  EXPECT_TRUE(h.closed);
  EXPECT_EQ(h.refused, 1);
}
