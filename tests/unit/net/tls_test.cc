// The TLS transport on a real socket pair, against an OpenSSL client driven
// from the test: the handshake and ALPN, records that wait inside the TLS
// layer after a read that filled its buffer (the socket then says nothing),
// a session that must read them anyway, writes the socket would not take
// repeated as OpenSSL requires, and files through the copying path.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/loop/event_loop.h"
#include "core/net/output_queue.h"
#include "core/net/tls.h"
#include "core/session/session.h"
#include "core/session/tls_handshake.h"
#include "unit/support/test_certificate.h"

namespace {

namespace net = baton::net;
namespace sn = baton::session;

using baton::test::certificate_files;

const certificate_files& files() {
  static certificate_files f;
  return f;
}

std::unique_ptr<net::tls_context> server_context(bool h2 = false) {
  net::tls_settings settings;
  settings.certfile = files().cert;
  settings.keyfile = files().key;
  settings.offer_h2 = h2;
  std::string error;
  auto c = net::tls_context::load(settings, error);
  EXPECT_TRUE(c) << error;
  return c;
}

// The client: an OpenSSL connection on the other end of the pair, driven
// from the test's own thread between the server's steps.
struct client {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL* ssl = nullptr;
  int fd;
  explicit client(int fd_, const char* alpn = nullptr) : fd(fd_) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    ssl = SSL_new(ctx);
    if (alpn != nullptr) {
      std::string list(1, static_cast<char>(strlen(alpn)));
      list += alpn;
      SSL_set_alpn_protos(ssl, reinterpret_cast<const unsigned char*>(list.data()),
                          static_cast<unsigned int>(list.size()));
    }
    SSL_set_fd(ssl, fd);
    SSL_set_connect_state(ssl);
  }
  ~client() {
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    ::close(fd);
  }
  bool step_handshake() { return SSL_do_handshake(ssl) == 1; }
  void write(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      size_t n = 0;
      ASSERT_EQ(SSL_write_ex(ssl, bytes.data() + done, bytes.size() - done, &n), 1);
      done += n;
    }
  }
  // What has arrived, as far as it goes without waiting.
  std::string read_available() {
    std::string out;
    char buffer[16384];
    for (;;) {
      size_t n = 0;
      if (SSL_read_ex(ssl, buffer, sizeof buffer, &n) != 1) break;
      out.append(buffer, n);
    }
    ERR_clear_error();
    return out;
  }
};

// A non-blocking server end and a client end.
void socket_pair(int& server_fd, int& client_fd) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
  server_fd = fds[0];
  client_fd = fds[1];
}

bool socket_readable(int fd, int wait_ms = 0) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, wait_ms) == 1 && (p.revents & POLLIN) != 0;
}

// A connected TCP pair on loopback, both ends non-blocking: what the cork
// (TCP_CORK) and the segment counts need, which a Unix socket pair has not.
void tcp_pair(int& server_fd, int& client_fd) {
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  client_fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(connect(client_fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  server_fd = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK);
  ASSERT_GE(server_fd, 0);
  ::close(listener);
  fcntl(client_fd, F_SETFL, fcntl(client_fd, F_GETFL) | O_NONBLOCK);
  // Both ends send at once, as the server's and the clients of interest do
  // (Nagle would hold the request behind an unacknowledged Finished).
  int one = 1;
  setsockopt(server_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int corked(int fd) {
  int value = -1;
  socklen_t length = sizeof value;
  getsockopt(fd, IPPROTO_TCP, TCP_CORK, &value, &length);
  return value;
}

// Segments with a payload this end has received (the FIN and bare
// acknowledgements not counted).
uint32_t data_segments_in(int fd) {
  tcp_info info{};
  socklen_t length = sizeof info;
  getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length);
  return info.tcpi_data_segs_in;
}

void handshake(net::tls_transport& server, client& c) {
  std::string reason;
  bool server_done = false;
  bool client_done = false;
  for (int i = 0; i < 100 && !(server_done && client_done); ++i) {
    if (!client_done) client_done = c.step_handshake();
    if (!server_done) {
      auto r = server.handshake(reason);
      ASSERT_NE(r, net::tls_transport::handshake_result::failed) << reason;
      server_done = r == net::tls_transport::handshake_result::done;
    }
  }
  ASSERT_TRUE(server_done && client_done);
}

TEST(Tls, TheHandshakeSettlesVersionCipherAndAlpn) {
  auto context = server_context(true);
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd, "h2");
  handshake(server, c);
  EXPECT_EQ(server.facts().version, TLS1_3_VERSION);
  EXPECT_EQ(server.facts().cipher_suite, SSL_CIPHER_get_protocol_id(SSL_get_current_cipher(c.ssl)));
  EXPECT_TRUE(server.facts().h2);
  EXPECT_EQ(server.facts().client, nullptr);
}

TEST(Tls, WithoutH2OfferedAClientAskingOnlyForItGetsNoAlpnAnswer) {
  auto context = server_context(false);
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd, "h2");
  handshake(server, c);
  EXPECT_FALSE(server.facts().h2);
  const unsigned char* chosen = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(c.ssl, &chosen, &length);
  EXPECT_EQ(length, 0u);
}

// The client's records are all read from the socket by the first small
// read (read-ahead): the rest waits inside the SSL object, and the socket
// says nothing more. input_pending() must say so until the last byte.
TEST(Tls, AReadThatFillsItsBufferLeavesInputPendingThatTheSocketDoesNotAnnounce) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake(server, c);
  std::string sent;
  for (int i = 0; i < 3; ++i) sent += std::string(1000, static_cast<char>('a' + i));
  c.write(sent.substr(0, 1000));
  c.write(sent.substr(1000, 1000));
  c.write(sent.substr(2000));
  std::string got;
  char buffer[10];
  // The handshake's last record may have come alone: read until the first bytes.
  for (int i = 0; i < 10 && got.empty(); ++i) {
    ssize_t n = server.receive(buffer, sizeof buffer);
    if (n > 0) got.append(buffer, static_cast<size_t>(n));
  }
  ASSERT_EQ(got.size(), sizeof buffer);
  while (got.size() < sent.size()) {
    ASSERT_FALSE(socket_readable(s)) << "the test needs every record read ahead";
    ASSERT_TRUE(server.input_pending()) << "after " << got.size() << " bytes";
    ssize_t n = server.receive(buffer, sizeof buffer);
    ASSERT_GT(n, 0);
    got.append(buffer, static_cast<size_t>(n));
  }
  EXPECT_TRUE(got == sent);
  ssize_t n = server.receive(buffer, sizeof buffer);
  EXPECT_EQ(n, -1);
  EXPECT_EQ(errno, EAGAIN);
  EXPECT_FALSE(server.input_pending());
}

// The server's flight answered and the client's Finished sent: on a TCP
// pair, the first step reads the ClientHello and writes the flight, the
// client then finishes (TLS 1.3: its Finished is its last word).
void handshake_to_the_clients_finished(net::tls_transport& server, client& c, int server_fd, int client_fd) {
  std::string reason;
  ASSERT_FALSE(c.step_handshake());  // the ClientHello
  ASSERT_TRUE(socket_readable(server_fd, 1000));
  ASSERT_EQ(server.handshake(reason), net::tls_transport::handshake_result::pending) << reason;
  ASSERT_TRUE(socket_readable(client_fd, 1000));
  ASSERT_TRUE(c.step_handshake());  // the Finished
  ASSERT_EQ(SSL_version(c.ssl), TLS1_3_VERSION);
}

// The client can resume its session: the server's ticket has arrived (and
// been read, by a read_available()).
bool holds_a_ticket(const client& c) {
  SSL_SESSION* session = SSL_get1_session(c.ssl);
  bool resumable = session != nullptr && SSL_SESSION_is_resumable(session) == 1;
  SSL_SESSION_free(session);
  return resumable;
}

// A client that sends its request right behind its Finished (one without
// keep-alive, a probe): the ticket the server writes on the Finished waits
// for the answer, and the two reach the client in one segment. Sent as
// they came, they made two, and close_notify and the FIN two more.
TEST(Tls, ATicketWaitsForTheAnswerToTheRequestBehindTheFinishedAndLeavesWithItInOneSegment) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  tcp_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake_to_the_clients_finished(server, c, s, cfd);
  const std::string request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  c.write(request);
  uint32_t segments_before = data_segments_in(cfd);
  std::string reason;
  ASSERT_EQ(server.handshake(reason), net::tls_transport::handshake_result::done) << reason;
  EXPECT_EQ(corked(s), 1);
  EXPECT_TRUE(server.input_pending()) << "the request behind the Finished was not looked for";
  EXPECT_FALSE(socket_readable(cfd)) << "the ticket went out alone";
  char buffer[256];
  ssize_t n = server.receive(buffer, sizeof buffer);
  ASSERT_EQ(n, static_cast<ssize_t>(request.size()));
  EXPECT_EQ(std::string(buffer, static_cast<size_t>(n)), request);
  const std::string answer = "HTTP/1.1 204 No Content\r\n\r\n";
  iovec iov[1] = {{const_cast<char*>(answer.data()), answer.size()}};
  ASSERT_EQ(server.send_gather(iov, 1), static_cast<ssize_t>(answer.size()));
  EXPECT_FALSE(socket_readable(cfd)) << "the answer went out before the session settled its output";
  server.settle_output(false);
  EXPECT_EQ(corked(s), 0);
  ASSERT_TRUE(socket_readable(cfd, 1000));
  EXPECT_EQ(c.read_available(), answer);
  EXPECT_EQ(data_segments_in(cfd) - segments_before, 1u);
  EXPECT_TRUE(holds_a_ticket(c));
}

// A client that sends nothing behind its Finished (it may wait for the
// ticket, or ask later): the ticket leaves at once, the socket uncorked.
TEST(Tls, WithNothingBehindTheFinishedTheTicketLeavesAtOnce) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  tcp_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake_to_the_clients_finished(server, c, s, cfd);
  ASSERT_TRUE(socket_readable(s, 1000));
  std::string reason;
  ASSERT_EQ(server.handshake(reason), net::tls_transport::handshake_result::done) << reason;
  EXPECT_EQ(corked(s), 0);
  EXPECT_FALSE(server.input_pending());
  ASSERT_TRUE(socket_readable(cfd, 100)) << "the ticket was held";
  EXPECT_EQ(c.read_available(), "");
  EXPECT_TRUE(holds_a_ticket(c));
}

// --- a session over TLS ---------------------------------------------------------

// Reads a few bytes per call, as a protocol whose window is nearly full
// does, and echoes them.
struct sipping_echo final : sn::protocol {
  explicit sipping_echo(sn::session& s) : session(s) {}
  void start() override {}
  void on_readable() override {
    char buffer[7];
    ssize_t n = session.io().receive(buffer, sizeof buffer);
    if (n > 0) {
      session.output().bytes().append(std::string_view(buffer, static_cast<size_t>(n)));
      session.flush();
    }
    if (n == 0) session.set_eof();
  }
  void on_writable() override { session.flush(); }
  void on_deadline() override {}
  plan current_plan() const override { return {true, INT64_MAX}; }
  void drain() override {}
  void on_close() override {}
  size_t release_idle_memory() override { return 0; }
  sn::session& session;
};

struct echo_host final : sn::session_host, sn::handshake_host {
  baton::loop::event_loop loop;
  sn::session_settings settings;
  sn::receive_buffer shared;
  sn::session_context context{loop, settings, *this, shared};
  bool closed = false;
  bool handed = false;
  void session_closed(sn::session*, bool) override { closed = true; }
  void session_lingering(sn::session*) override {}
  std::unique_ptr<sn::protocol> after_handshake(sn::session& s, const net::tls_facts&) override {
    handed = true;
    return std::make_unique<sipping_echo>(s);
  }
};

TEST(Tls, ASessionReadsRecordsWaitingInsideTheTlsLayerWithoutTheSocketSayingReadable) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  fcntl(cfd, F_SETFL, fcntl(cfd, F_GETFL) & ~O_NONBLOCK);
  echo_host host;
  sockaddr_storage peer{};
  auto* session = new sn::session(host.context, s, peer, 0, context.get());
  session->start(std::make_unique<sn::tls_handshake>(*session, *session->tls(), host, 5000, 1000));
  client c(cfd);
  // The client's handshake blocks for the server's answers: run the loop between its steps.
  fcntl(cfd, F_SETFL, fcntl(cfd, F_GETFL) | O_NONBLOCK);
  for (int i = 0; i < 200 && !(c.step_handshake() && host.handed); ++i) host.loop.run_once(5);
  ASSERT_TRUE(host.handed);
  std::string sent;
  for (int i = 0; i < 40; ++i) sent += std::string(997, static_cast<char>('A' + i % 26));
  c.write(sent);
  std::string echoed;
  // Seven bytes a pass: thousands of passes, most with the socket silent.
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (echoed.size() < sent.size() && std::chrono::steady_clock::now() < until) {
    host.loop.run_once(1);
    echoed += c.read_available();
  }
  EXPECT_EQ(echoed.size(), sent.size());
  EXPECT_TRUE(echoed == sent);
  session->close_now();
  delete session;
}

// A session on TCP whose client sent a few bytes behind its Finished: the
// protocol after the handshake reads them on the handshake's own passes
// (the sipping echo takes seven bytes a pass, so two), and the ticket and
// both echoes reach the client in one segment, the cork off once the
// session has nothing more to read.
TEST(Tls, ASessionAnswersWhatCameBehindTheFinishedWithTheTicketInOneSegment) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  tcp_pair(s, cfd);
  echo_host host;
  sockaddr_storage peer{};
  auto* session = new sn::session(host.context, s, peer, 0, context.get());
  session->start(std::make_unique<sn::tls_handshake>(*session, *session->tls(), host, 5000, 1000));
  client c(cfd);
  bool client_done = false;
  for (int i = 0; i < 200 && !client_done; ++i) {
    client_done = c.step_handshake();
    if (!client_done) host.loop.run_once(5);
  }
  ASSERT_TRUE(client_done);
  ASSERT_FALSE(host.handed);
  const std::string sent = "echo me, please";
  c.write(sent);
  uint32_t segments_before = data_segments_in(cfd);
  std::string echoed;
  for (int i = 0; i < 200 && echoed.size() < sent.size(); ++i) {
    host.loop.run_once(5);
    echoed += c.read_available();
  }
  EXPECT_EQ(echoed, sent);
  EXPECT_EQ(data_segments_in(cfd) - segments_before, 1u);
  EXPECT_EQ(corked(s), 0);
  session->close_now();
  delete session;
}

// A file goes out through the copying path (this test's socket is no TCP:
// no kTLS): the output queue reads it into the records it stages, whole.
TEST(Tls, AFileGoesOutWholeThroughTheCopyingPath) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake(server, c);
  char path[] = "/tmp/baton-tls-file-XXXXXX";
  int file = mkstemp(path);
  std::string content;
  for (int i = 0; i < 50000; ++i) content += static_cast<char>(i * 31);
  ASSERT_EQ(::write(file, content.data(), content.size()), static_cast<ssize_t>(content.size()));
  net::output_queue queue;
  queue.push_file(file, 100, content.size() - 100);  // the queue closes it
  std::string got;
  for (;;) {
    net::output_queue::flush_result r = queue.flush(server);
    got += c.read_available();
    if (r == net::output_queue::flush_result::done) break;
    ASSERT_EQ(r, net::output_queue::flush_result::blocked);
  }
  for (int i = 0; i < 10 && got.size() < content.size() - 100; ++i) got += c.read_available();
  EXPECT_EQ(got.size(), content.size() - 100);
  EXPECT_TRUE(got == content.substr(100));
  unlink(path);
}

// The socket takes no more: a write that returned EAGAIN is repeated with
// the same first bytes (and more after them), and everything arrives once,
// in order.
TEST(Tls, WritesTheSocketRefusedAreRepeatedAndArriveOnceInOrder) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  int small = 4096;
  setsockopt(s, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake(server, c);
  std::string pending;  // what the test's "queue" holds, front first
  std::string expected;
  std::string got;
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    std::string more(static_cast<size_t>(500 + round * 37 % 3000), static_cast<char>('a' + round % 26));
    pending += more;
    expected += more;
    // Two runs, as a response head and its body.
    size_t split = pending.size() / 3;
    iovec iov[2] = {{pending.data(), split}, {pending.data() + split, pending.size() - split}};
    ssize_t n = server.send_gather(iov, 2);
    if (n < 0) {
      ASSERT_EQ(errno, EAGAIN);
      ++refused;
    } else {
      pending.erase(0, static_cast<size_t>(n));
    }
    if (round % 7 == 0) got += c.read_available();
  }
  while (!pending.empty()) {
    got += c.read_available();
    iovec iov[1] = {{pending.data(), pending.size()}};
    ssize_t n = server.send_gather(iov, 1);
    if (n > 0) pending.erase(0, static_cast<size_t>(n));
  }
  for (int i = 0; i < 10; ++i) got += c.read_available();
  EXPECT_GT(refused, 0) << "the socket never refused: the test did not test the repeat";
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
}

// A client's KeyUpdate asking for the server's own (TLS 1.3) while the
// server's output is stuck, a record of it half in the socket: OpenSSL
// answers at the next write, so the read still delivers the bytes behind
// it (a read that must write first, wants_writable(), does not arise here;
// with renegotiation off it is a guard). Once the client reads, the stuck
// output and what follows arrive whole, in order, under the new keys.
TEST(Tls, AKeyUpdateWhileOutputIsStuckDeliversTheBytesBehindItAndLosesNothing) {
  auto context = server_context();
  int s = -1;
  int cfd = -1;
  socket_pair(s, cfd);
  int small = 4096;
  setsockopt(s, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  net::tls_transport server(*context, s);
  client c(cfd);
  handshake(server, c);
  ASSERT_EQ(SSL_version(c.ssl), TLS1_3_VERSION);
  std::string answer(16384, 'r');
  std::string pending = answer;
  std::string expected;
  auto send_some = [&] {
    iovec iov[1] = {{pending.data(), pending.size()}};
    ssize_t n = server.send_gather(iov, 1);
    if (n <= 0) return false;
    expected.append(pending, 0, static_cast<size_t>(n));
    pending.erase(0, static_cast<size_t>(n));
    if (pending.empty()) pending = answer;
    return true;
  };
  int refused = 0;
  for (int i = 0; i < 200 && refused == 0; ++i) refused += send_some() ? 0 : 1;
  ASSERT_EQ(refused, 1) << "the socket never refused: nothing was stuck";
  ASSERT_EQ(SSL_key_update(c.ssl, SSL_KEY_UPDATE_REQUESTED), 1);
  c.write("after the key update");
  char buffer[256];
  std::string got_in;
  for (int i = 0; i < 10 && got_in.empty(); ++i) {
    ssize_t n = server.receive(buffer, sizeof buffer);
    if (n > 0) got_in.append(buffer, static_cast<size_t>(n));
  }
  EXPECT_EQ(got_in, "after the key update");
  EXPECT_FALSE(server.wants_writable());
  // The client reads; the server goes on writing (its KeyUpdate goes first)
  // up to 1 MiB, then repeats its last refused write until it is taken whole.
  std::string got_out;
  for (int i = 0; i < 400 && expected.size() < (size_t{1} << 20); ++i) {
    got_out += c.read_available();
    send_some();
  }
  for (int i = 0; i < 1000 && pending.size() != answer.size(); ++i) {
    got_out += c.read_available();
    send_some();
  }
  for (int i = 0; i < 50 && got_out.size() < expected.size(); ++i) got_out += c.read_available();
  EXPECT_EQ(got_out.size(), expected.size());
  EXPECT_TRUE(got_out == expected);
}

}  // namespace
