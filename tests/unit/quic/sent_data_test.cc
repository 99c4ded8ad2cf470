// Unit tests for quic::sent_data: a response body's bytes taken out of a
// stream's output queue (bytes and file ranges alike) into chunks whose
// memory stays put until the client acknowledges it, and freed from the
// front as acknowledgements come, however they split the chunks.
#include "core/quic/sent_data.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using baton::quic::sent_data;

std::string taken(sent_data& sent, baton::net::output_queue& from, size_t most) {
  const uint8_t* base = nullptr;
  size_t length = 0;
  bool unreadable = false;
  if (!sent.take(from, most, base, length, unreadable)) return {};
  EXPECT_FALSE(unreadable);
  return std::string(reinterpret_cast<const char*>(base), length);
}

TEST(SentData, TakesAtMostWhatItIsAskedInOrderAndHoldsItUntilAcknowledged) {
  baton::net::output_queue queue;
  queue.bytes().append("hello, ");
  queue.bytes().append("world");
  sent_data sent;
  EXPECT_EQ(taken(sent, queue, 5), "hello");
  EXPECT_EQ(taken(sent, queue, 100), ", world");
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(sent.unacknowledged(), 12u);
  EXPECT_EQ(taken(sent, queue, 100), "") << "nothing left to take";
}

TEST(SentData, ChunksStayWhereTheyAreWhileMoreAreTaken) {
  baton::net::output_queue queue;
  sent_data sent;
  std::vector<std::pair<const uint8_t*, std::string>> handed;
  for (int i = 0; i < 200; ++i) {
    queue.bytes().append(std::to_string(i) + (i % 7 == 0 ? std::string(5000, 'x') : std::string("-")));
    const uint8_t* base = nullptr;
    size_t length = 0;
    bool unreadable = false;
    ASSERT_TRUE(sent.take(queue, 1 << 20, base, length, unreadable));
    handed.emplace_back(base, std::string(reinterpret_cast<const char*>(base), length));
  }
  // nghttp3 points at every chunk it was given until it is acknowledged:
  // none may have moved or changed.
  for (const auto& [base, copy] : handed) {
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(base), copy.size()), copy);
  }
}

TEST(SentData, AcknowledgementsFreeFromTheFrontAcrossChunkEdges) {
  baton::net::output_queue queue;
  queue.bytes().append(std::string(300, 'a'));
  sent_data sent;
  taken(sent, queue, 100);
  taken(sent, queue, 100);
  taken(sent, queue, 100);
  EXPECT_EQ(sent.unacknowledged(), 300u);
  sent.acknowledged(50);  // inside the first chunk
  EXPECT_EQ(sent.unacknowledged(), 250u);
  sent.acknowledged(120);  // the rest of the first and into the second
  EXPECT_EQ(sent.unacknowledged(), 130u);
  sent.acknowledged(130);
  EXPECT_EQ(sent.unacknowledged(), 0u);
  sent.clear();
  EXPECT_EQ(sent.unacknowledged(), 0u);
}

TEST(SentData, AFileRangeIsReadIntoTheChunkAndAnUnreadableOneSaysSo) {
  char path[] = "/tmp/sent-data-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  std::string content;
  for (int i = 0; i < 10000; ++i) content.push_back(static_cast<char>('a' + i % 26));
  ASSERT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
  baton::net::output_queue queue;
  queue.bytes().append("head:");
  queue.push_file(fd, 100, 5000);  // the queue owns fd now
  queue.bytes().append(":tail");
  sent_data sent;
  EXPECT_EQ(taken(sent, queue, 1000), "head:" + content.substr(100, 995));
  EXPECT_EQ(taken(sent, queue, 1 << 20), content.substr(1095, 4005) + ":tail");
  EXPECT_TRUE(queue.empty());

  // A range past the file's end cannot be read: nothing is taken, and the caller is told.
  int again = open(path, O_RDONLY);
  ASSERT_GE(again, 0);
  queue.push_file(again, 20000, 100);
  const uint8_t* base = nullptr;
  size_t length = 0;
  bool unreadable = false;
  EXPECT_FALSE(sent.take(queue, 1000, base, length, unreadable));
  EXPECT_TRUE(unreadable);
  unlink(path);
}

}  // namespace
