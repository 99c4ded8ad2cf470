// Unit tests for the output queue (src/core/net/output_queue.h), over a
// real AF_UNIX stream socketpair whose writing end is non-blocking.
#include "core/net/output_queue.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

using baton::net::output_queue;

// A connected pair: `writer` is non-blocking, `reader` is blocking.
struct socket_pair {
  int writer = -1;
  int reader = -1;
  socket_pair() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      ADD_FAILURE() << "socketpair: " << std::strerror(errno);
      return;
    }
    writer = sv[0];
    reader = sv[1];
    int flags = ::fcntl(writer, F_GETFL);
    ::fcntl(writer, F_SETFL, flags | O_NONBLOCK);
  }
  ~socket_pair() {
    if (writer >= 0) ::close(writer);
    if (reader >= 0) ::close(reader);
  }
  socket_pair(const socket_pair&) = delete;
  socket_pair& operator=(const socket_pair&) = delete;
};

// Reads whatever is available now (waiting at most `timeout_ms` for the
// first byte); an empty string means nothing arrived.
std::string read_some(int fd, int timeout_ms = 5000) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return {};
  char buf[65536];
  ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
  if (n <= 0) return {};
  return std::string(buf, static_cast<size_t>(n));
}

// Reads exactly `n` bytes, failing the test if they do not arrive.
std::string read_exactly(int fd, size_t n) {
  std::string out;
  while (out.size() < n) {
    std::string more = read_some(fd);
    if (more.empty()) {
      ADD_FAILURE() << "only " << out.size() << " of " << n << " bytes arrived";
      break;
    }
    out += more;
  }
  return out;
}

bool nothing_pending(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) == 0;
}

// An unlinked temporary file holding `content`; the caller owns the fd.
int temp_file_with(std::string_view content) {
  char path[] = "/tmp/baton-output-queue-test-XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0) {
    ADD_FAILURE() << "mkstemp: " << std::strerror(errno);
    return -1;
  }
  ::unlink(path);
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n <= 0) {
      ADD_FAILURE() << "write: " << std::strerror(errno);
      break;
    }
    done += static_cast<size_t>(n);
  }
  return fd;
}

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

std::string pattern(size_t n, unsigned seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 7 + (i >> 9)) & 0xff);
  return s;
}

TEST(OutputQueue, StartsEmpty) {
  output_queue q;
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.buffered_bytes(), 0u);
  q.bytes();  // asking for the buffer adds nothing
  EXPECT_TRUE(q.empty());
  socket_pair s;
  EXPECT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_TRUE(nothing_pending(s.reader));
}

TEST(OutputQueue, SendsBytesThenFileRangeThenBytesInOrder) {
  socket_pair s;
  std::string file_content = "0123456789abcdefghijklmnopqrstuvwxyz";
  int fd = temp_file_with(file_content);
  ASSERT_GE(fd, 0);
  // The range is read at its offset whatever the descriptor's position is.
  ASSERT_EQ(::lseek(fd, 0, SEEK_END), static_cast<off_t>(file_content.size()));

  output_queue q;
  q.bytes().append("head:");
  q.push_file(fd, 3, 10);
  q.bytes().append(":tail");
  EXPECT_FALSE(q.empty());
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.buffered_bytes(), 0u);

  std::string expected = "head:" + file_content.substr(3, 10) + ":tail";
  EXPECT_EQ(read_exactly(s.reader, expected.size()), expected);
  EXPECT_TRUE(nothing_pending(s.reader));
  EXPECT_FALSE(is_open(fd)) << "a sent file range's descriptor is closed";
}

TEST(OutputQueue, SendsSeveralFilesAndByteRunsInOrder) {
  socket_pair s;
  int a = temp_file_with("AAAAAAAAAA");
  int b = temp_file_with("BBBBBBBBBB");
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  output_queue q;
  q.push_file(a, 0, 4);
  q.push_file(b, 6, 4);
  q.bytes().append("1");
  q.bytes().append("2");
  q.push_file(::dup(a), 8, 2);
  q.bytes().append("3");
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_EQ(read_exactly(s.reader, 13), "AAAABBBB12AA3");
  EXPECT_TRUE(nothing_pending(s.reader));
}

TEST(OutputQueue, ZeroLengthFileRangeSendsNothingAndClosesFd) {
  socket_pair s;
  int fd = temp_file_with("xyz");
  ASSERT_GE(fd, 0);
  output_queue q;
  q.bytes().append("a");
  q.push_file(fd, 0, 0);
  q.bytes().append("b");
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_EQ(read_exactly(s.reader, 2), "ab");
  EXPECT_FALSE(is_open(fd));
}

TEST(OutputQueue, BlockedFlushCompletesInOrderAfterReaderDrains) {
  socket_pair s;
  int small = 4096;
  ASSERT_EQ(::setsockopt(s.writer, SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
  ASSERT_EQ(::setsockopt(s.reader, SOL_SOCKET, SO_RCVBUF, &small, sizeof small), 0);

  std::string first = pattern(2 << 20, 1);
  std::string file_content = pattern(1 << 20, 2);
  std::string last = pattern(1 << 20, 3);
  int fd = temp_file_with(file_content);
  ASSERT_GE(fd, 0);

  output_queue q;
  q.bytes().append(first);
  q.push_file(fd, 0, file_content.size());
  q.bytes().append(last);
  EXPECT_EQ(q.buffered_bytes(), first.size() + last.size());

  std::string expected = first + file_content + last;
  std::string received;
  output_queue::flush_result r = q.flush(s.writer);
  ASSERT_EQ(r, output_queue::flush_result::blocked);
  EXPECT_FALSE(q.empty());
  EXPECT_LT(q.buffered_bytes(), first.size() + last.size()) << "a blocked flush still sent what fitted";
  int rounds = 0;
  while (r == output_queue::flush_result::blocked) {
    // The writer is blocked, so the socket holds bytes for the reader.
    std::string more = read_some(s.reader);
    ASSERT_FALSE(more.empty()) << "flush reported blocked but nothing was readable";
    received += more;
    r = q.flush(s.writer);
    ASSERT_NE(r, output_queue::flush_result::failed);
    ASSERT_LT(++rounds, 1000000);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.buffered_bytes(), 0u);
  received += read_exactly(s.reader, expected.size() - received.size());
  ASSERT_EQ(received.size(), expected.size());
  EXPECT_TRUE(received == expected) << "bytes arrived out of order or damaged";
  EXPECT_TRUE(nothing_pending(s.reader));
  EXPECT_FALSE(is_open(fd));
}

TEST(OutputQueue, BytesAppendedWhileBlockedFollowTheRest) {
  socket_pair s;
  int small = 4096;
  ASSERT_EQ(::setsockopt(s.writer, SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
  std::string first = pattern(1 << 20, 4);
  std::string later = pattern(1000, 5);
  output_queue q;
  q.bytes().append(first);
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::blocked);
  q.bytes().append(later);
  std::string received;
  output_queue::flush_result r = output_queue::flush_result::blocked;
  while (r == output_queue::flush_result::blocked) {
    std::string more = read_some(s.reader);
    ASSERT_FALSE(more.empty());
    received += more;
    r = q.flush(s.writer);
  }
  ASSERT_EQ(r, output_queue::flush_result::done);
  std::string expected = first + later;
  received += read_exactly(s.reader, expected.size() - received.size());
  EXPECT_TRUE(received == expected);
}

TEST(OutputQueue, FlushToClosedPeerFails) {
  socket_pair s;
  ::close(s.reader);
  s.reader = -1;
  output_queue q;
  q.bytes().append("nobody is listening");
  EXPECT_EQ(q.flush(s.writer), output_queue::flush_result::failed);
}

// A file range flushed to a closed peer must report `failed` like bytes do,
// not raise SIGPIPE (sendfile has no MSG_NOSIGNAL). Run in a child process
// with SIGPIPE at its default action, as in a host that does not ignore it.
// sendfile cannot be told MSG_NOSIGNAL, so the queue's contract is: with
// SIGPIPE ignored (server::run arranges it), a file range flushed to a peer
// that has gone fails cleanly. Run in a child so the disposition stays local.
TEST(OutputQueueDeathTest, FileRangeFlushToClosedPeerFailsWhenSigpipeIsIgnored) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::signal(SIGPIPE, SIG_IGN);
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) std::_Exit(3);
        ::close(sv[1]);
        int fd = temp_file_with("file bytes");
        output_queue q;
        q.push_file(fd, 0, 10);
        std::_Exit(q.flush(sv[0]) == output_queue::flush_result::failed ? 0 : 2);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(OutputQueue, ClearClosesQueuedFileDescriptors) {
  int a = temp_file_with("aaaa");
  int b = temp_file_with("bbbb");
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  output_queue q;
  q.bytes().append("x");
  q.push_file(a, 0, 4);
  q.push_file(b, 1, 2);
  EXPECT_TRUE(is_open(a));
  EXPECT_TRUE(is_open(b));
  q.clear();
  errno = 0;
  int rc = ::fcntl(a, F_GETFD);
  int error = errno;
  EXPECT_EQ(rc, -1);
  EXPECT_EQ(error, EBADF);
  EXPECT_FALSE(is_open(b));
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.buffered_bytes(), 0u);
}

TEST(OutputQueue, DestructorClosesQueuedFileDescriptors) {
  int fd = temp_file_with("data");
  ASSERT_GE(fd, 0);
  {
    output_queue q;
    q.push_file(fd, 0, 4);
  }
  EXPECT_FALSE(is_open(fd));
}

TEST(OutputQueue, BufferedBytesCountsMemoryButNotFileRanges) {
  int fd = temp_file_with(std::string(5000, 'f'));
  ASSERT_GE(fd, 0);
  output_queue q;
  q.bytes().append("0123456789");
  EXPECT_EQ(q.buffered_bytes(), 10u);
  q.push_file(fd, 0, 5000);
  EXPECT_EQ(q.buffered_bytes(), 10u);
  q.bytes().append("abcde");
  EXPECT_EQ(q.buffered_bytes(), 15u);
  q.bytes().append("fg");
  EXPECT_EQ(q.buffered_bytes(), 17u);
}

TEST(OutputQueue, QueueIsReusableAfterDone) {
  socket_pair s;
  output_queue q;
  q.bytes().append("one");
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_TRUE(q.empty());
  q.bytes().append("two");
  EXPECT_EQ(q.buffered_bytes(), 3u);
  ASSERT_EQ(q.flush(s.writer), output_queue::flush_result::done);
  EXPECT_EQ(read_exactly(s.reader, 6), "onetwo");
}

}  // namespace

// HTTP/2 moves each DATA frame's payload from a stream's queue to the
// session's: any cut through small runs, large runs, external memory and
// file ranges keeps every byte once and in order, and the unsent count of
// external memory and the file descriptors come out right.
TEST(OutputQueue, MovingTheFrontInPiecesKeepsEveryByteInOrder) {
  std::string small = pattern(100, 1);
  std::string large = pattern(40000, 2);
  std::string external = pattern(30000, 3);
  std::string file_content = pattern(50000, 4);
  for (uint64_t piece : {1u, 7u, 100u, 16384u, 100000u}) {
    int fd = temp_file_with(file_content);
    ASSERT_GE(fd, 0);
    std::atomic<uint64_t> unsent{0};
    output_queue source;
    source.bytes().append(small);
    source.bytes().append(large);  // one run of 40 100 bytes: moved whole when it fits
    source.push_external(external.data(), external.size(), &unsent);
    source.push_file(fd, 1000, 20000);
    source.bytes().append(small);
    uint64_t total = small.size() * 2 + large.size() + external.size() + 20000;
    EXPECT_EQ(source.queued_bytes(), total);
    output_queue dest;
    uint64_t moved = 0;
    while (moved < total) {
      uint64_t n = source.move_front(dest, piece);
      ASSERT_EQ(n, std::min<uint64_t>(piece, total - moved)) << "piece " << piece << " at " << moved;
      moved += n;
      EXPECT_EQ(source.queued_bytes() + dest.queued_bytes(), total);
    }
    EXPECT_EQ(source.move_front(dest, piece), 0u);
    EXPECT_TRUE(source.empty());
    EXPECT_EQ(unsent.load(), 0u) << "external memory is copied as it moves, its owner free at once";
    socket_pair s;
    std::string expected = small + large + external + file_content.substr(1000, 20000) + small;
    std::string got;
    while (got.size() < expected.size()) {
      output_queue::flush_result r = dest.flush(s.writer);
      ASSERT_NE(r, output_queue::flush_result::failed);
      got += read_some(s.reader);
    }
    EXPECT_EQ(got, expected) << "piece " << piece;
    EXPECT_TRUE(dest.empty());
    EXPECT_EQ(unsent.load(), 0u);
    EXPECT_FALSE(is_open(fd)) << "the original descriptor is closed once its last part is sent";
  }
}

// An app waiting for its memory to be let go (WSGI's pool sends the app's
// bytes without copying them) is free as soon as its bytes are moved: the
// moved copy is the session's.
TEST(OutputQueue, MovingExternalMemoryLowersItsUnsentCountAtOnce) {
  std::string external = pattern(1000, 5);
  std::atomic<uint64_t> unsent{0};
  output_queue source;
  source.push_external(external.data(), external.size(), &unsent);
  output_queue dest;
  EXPECT_EQ(source.move_front(dest, 300), 300u);
  EXPECT_EQ(unsent.load(), 700u);
  dest.clear();
  EXPECT_EQ(unsent.load(), 700u);
  source.clear();
  EXPECT_EQ(unsent.load(), 0u);
}

// An HTTP/2 connection's output never empties while frames flow: each DATA
// frame's header is appended, its payload moved in as a segment of its own
// (take_from without the small copy), and a flush writes all but what comes
// after. Its storage must stay bounded however many frames it has carried;
// it once kept a spent segment for every frame (some 150 bytes a request).
TEST(OutputQueue, AQueueThatNeverEmptiesKeepsItsStorageBoundedAsFramesPass) {
  socket_pair s;
  output_queue out;
  output_queue payload;
  std::string header(9, 'h');
  std::string body(13, 'b');
  size_t after_warm_up = 0;
  for (int frame = 0; frame < 200000; ++frame) {
    out.bytes().append(header);
    payload.bytes().append(body);
    out.take_from(payload, false);
    if (frame % 4 == 3) {
      ASSERT_EQ(out.flush(s.writer), output_queue::flush_result::done);
      ASSERT_EQ(read_exactly(s.reader, 4 * (header.size() + body.size())),
                std::string(header + body + header + body + header + body + header + body));
    }
    if (frame == 1000) after_warm_up = out.storage_bytes();
  }
  EXPECT_LE(out.storage_bytes(), after_warm_up + 1024) << "storage after 200 000 frames";
}
