// A read's result, sorted once for every protocol (session/received.h):
// over a real socket pair, an empty socket says "again", bytes say "data"
// with their count, the peer's shutdown says "end", and a reset says
// "failed"; and errno's retry values are all "again".
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>

#include "core/session/received.h"

namespace {

namespace sn = baton::session;

struct socket_pair {
  int ours = -1;
  int theirs = -1;
  socket_pair() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    ours = fds[0];
    theirs = fds[1];
  }
  ~socket_pair() {
    if (ours >= 0) close(ours);
    if (theirs >= 0) close(theirs);
  }
  sn::received read(char* buffer, size_t length) const { return sn::sort_receive(::recv(ours, buffer, length, 0)); }
};

TEST(Received, AnEmptySocketSaysAgainAndBytesSayDataWithTheirCount) {
  socket_pair p;
  char buffer[16];
  sn::received r = p.read(buffer, sizeof buffer);
  EXPECT_EQ(r.status, sn::receive_status::again);
  EXPECT_EQ(r.bytes, 0u);
  ASSERT_EQ(::send(p.theirs, "hello", 5, 0), 5);
  r = p.read(buffer, sizeof buffer);
  EXPECT_EQ(r.status, sn::receive_status::data);
  EXPECT_EQ(r.bytes, 5u);
}

TEST(Received, ThePeersShutdownSaysEnd) {
  socket_pair p;
  ASSERT_EQ(::shutdown(p.theirs, SHUT_WR), 0);
  char buffer[16];
  sn::received r = p.read(buffer, sizeof buffer);
  EXPECT_EQ(r.status, sn::receive_status::end);
  EXPECT_EQ(r.bytes, 0u);
}

TEST(Received, AReadOnABrokenDescriptorSaysFailed) {
  char buffer[16];
  sn::received r = sn::sort_receive(::recv(-1, buffer, sizeof buffer, 0));  // EBADF
  EXPECT_EQ(r.status, sn::receive_status::failed);
}

TEST(Received, EveryRetryValueOfErrnoSaysAgainAndAnyOtherSaysFailed) {
  for (int e : {EAGAIN, EWOULDBLOCK, EINTR}) {
    errno = e;
    EXPECT_EQ(sn::sort_receive(-1).status, sn::receive_status::again) << e;
  }
  for (int e : {ECONNRESET, EPIPE, ETIMEDOUT}) {
    errno = e;
    EXPECT_EQ(sn::sort_receive(-1).status, sn::receive_status::failed) << e;
  }
}

}  // namespace
