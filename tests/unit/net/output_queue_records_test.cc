// Unit tests for the output queue's records (src/core/net/output_queue.h):
// a transport that frames its output in records of its own (TLS) has each
// record filled from consecutive runs, file ranges included, so that an
// HTTP/2 frame's 9-byte header and its payload share a record. Over a
// recording transport: the records it was handed, each attempt's bytes.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/net/output_queue.h"

namespace {

using baton::net::output_queue;
using flush_result = output_queue::flush_result;

// Takes records as TLS would: from its stage, at most `accept` bytes of one
// at a time, and EAGAIN on the attempts `refuse` names (counted from 0).
class recording_transport final : public baton::net::transport {
 public:
  explicit recording_transport(size_t capacity) : stage_(capacity) {}
  ssize_t receive(char*, size_t) override { return 0; }
  ssize_t send_gather(const iovec* buffers, size_t count) override {
    std::string all;
    for (size_t i = 0; i < count; ++i) all.append(static_cast<const char*>(buffers[i].iov_base), buffers[i].iov_len);
    ++gathers;
    return take(all);
  }
  ssize_t send_file(int, off_t*, size_t) override {
    ++files;  // never, with records: the queue reads the files itself
    errno = EIO;
    return -1;
  }
  void shutdown_write() override {}
  void close() override {}
  int fd() const override { return -1; }
  char* record_stage(size_t& capacity) override {
    capacity = stage_.size();
    return stage_.data();
  }
  ssize_t send_staged(size_t length) override { return take(std::string(stage_.data(), length)); }

  std::vector<std::string> attempts;  // what each write was handed
  std::vector<std::string> records;   // what each write took
  std::string wire;
  size_t accept = SIZE_MAX;
  std::vector<size_t> refuse;
  int gathers = 0;
  int files = 0;

 private:
  ssize_t take(const std::string& offered) {
    size_t attempt = attempts.size();
    attempts.push_back(offered);
    for (size_t r : refuse) {
      if (r == attempt) {
        errno = EAGAIN;
        return -1;
      }
    }
    size_t n = offered.size() < accept ? offered.size() : accept;
    records.push_back(offered.substr(0, n));
    wire += records.back();
    return static_cast<ssize_t>(n);
  }
  std::vector<char> stage_;
};

std::string pattern(size_t n, unsigned seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 7 + (i >> 9)) & 0xff);
  return s;
}

int temp_file_with(const std::string& content) {
  char path[] = "/tmp/baton-output-records-test-XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0) return -1;
  ::unlink(path);
  if (::write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size())) ADD_FAILURE() << "write";
  return fd;
}

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

// Four HTTP/2 DATA frames of a 64 KiB file, as the protocol queues them: a
// 9-byte header, then the payload as a range of the file.
struct framed_file {
  std::string content = pattern(65536, 3);
  std::string expected;
  std::vector<int> fds;
  explicit framed_file(output_queue& q) {
    for (int frame = 0; frame < 4; ++frame) {
      std::string header = pattern(9, 100 + static_cast<unsigned>(frame));
      q.bytes().append(header.data(), header.size());
      int fd = temp_file_with(content);
      fds.push_back(fd);
      q.push_file(fd, static_cast<off_t>(frame) * 16384, 16384);
      expected += header + content.substr(static_cast<size_t>(frame) * 16384, 16384);
    }
  }
};

TEST(OutputQueueRecords, AFrameHeaderAndItsFilePayloadShareFullRecords) {
  output_queue q;
  framed_file f(q);
  recording_transport t(16384);
  EXPECT_EQ(q.flush(t), flush_result::done);
  EXPECT_EQ(t.wire, f.expected);
  // 65 572 bytes in records of 16 384: four full and the rest, where one
  // record a header and one a payload made eight.
  ASSERT_EQ(t.records.size(), 5u);
  for (size_t i = 0; i + 1 < t.records.size(); ++i) EXPECT_EQ(t.records[i].size(), 16384u) << i;
  EXPECT_EQ(t.records.back().size(), f.expected.size() - 4 * 16384);
  EXPECT_EQ(t.files, 0);
  EXPECT_TRUE(q.empty());
  for (int fd : f.fds) EXPECT_FALSE(is_open(fd));
}

TEST(OutputQueueRecords, ARecordTakenInPartsOrRefusedIsOfferedAgainFromTheSameFirstByte) {
  output_queue q;
  framed_file f(q);
  recording_transport t(16384);
  t.accept = 5000;
  t.refuse = {1, 2, 6};
  std::vector<flush_result> results;
  for (int i = 0; i < 100 && !q.empty(); ++i) results.push_back(q.flush(t));
  EXPECT_EQ(t.wire, f.expected);
  EXPECT_EQ(results.back(), flush_result::done);
  EXPECT_EQ(std::count(results.begin(), results.end(), flush_result::blocked), 3);
  // After a refusal the next attempt starts with every byte the refused one
  // did (OpenSSL's rule for a repeated write), in order.
  for (size_t r : t.refuse) {
    ASSERT_LT(r + 1, t.attempts.size());
    EXPECT_EQ(t.attempts[r + 1].compare(0, t.attempts[r].size(), t.attempts[r]), 0) << r;
  }
  for (int fd : f.fds) EXPECT_FALSE(is_open(fd));
}

TEST(OutputQueueRecords, ARunAsLargeAsARecordGoesFromWhereItIs) {
  output_queue q;
  std::string small = pattern(100, 1), large = pattern(40000, 2);
  q.bytes().append(small.data(), small.size());
  std::atomic<uint64_t> unsent{0};
  q.push_external(large.data(), large.size(), &unsent);
  recording_transport t(16384);
  EXPECT_EQ(q.flush(t), flush_result::done);
  EXPECT_EQ(t.wire, small + large);
  EXPECT_EQ(unsent.load(), 0u);
  // The first record takes the small run and the large one's start; what is
  // left of the large run (past a record's size) is written from its memory.
  EXPECT_EQ(t.records[0].size(), 16384u);
  EXPECT_GE(t.gathers, 1);
}

TEST(OutputQueueRecords, AFileThatShrankFailsTheFlushAfterWhatItHad) {
  output_queue q;
  std::string content = pattern(1000, 4);
  int fd = temp_file_with(content);
  q.bytes().append("head", 4);
  q.push_file(fd, 0, 5000);  // 4 000 bytes past the file's end
  recording_transport t(16384);
  EXPECT_EQ(q.flush(t), flush_result::failed);
  EXPECT_EQ(t.wire, "head" + content);
}

TEST(OutputQueueRecords, AnEmptyFileRangeAndEmptyRunsEndTheFlushWithItsFileClosed) {
  output_queue q;
  int fd = temp_file_with("unused");
  q.bytes().append("x", 1);
  q.push_file(fd, 0, 0);
  recording_transport t(64);
  EXPECT_EQ(q.flush(t), flush_result::done);
  EXPECT_EQ(t.wire, "x");
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(is_open(fd));
}

}  // namespace
