// Unit tests for byte_buffer (src/core/util/byte_buffer.h).
#include "core/util/byte_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace {

using baton::byte_buffer;

std::string pattern(size_t n, unsigned seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 167 + seed * 13 + (i >> 8)) & 0xff);
  return s;
}

TEST(ByteBuffer, StartsEmptyWithoutStorage) {
  byte_buffer b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(b.view(), "");
}

TEST(ByteBuffer, AppendKeepsBytesIntactAcrossGrowth) {
  byte_buffer b;
  std::string expected;
  size_t capacity_before = b.capacity();
  int growths = 0;
  for (unsigned i = 0; i < 200; ++i) {
    std::string piece = pattern(997, i);
    b.append(piece);
    expected += piece;
    if (b.capacity() != capacity_before) {
      ++growths;
      capacity_before = b.capacity();
    }
    ASSERT_EQ(b.size(), expected.size());
  }
  EXPECT_GE(growths, 3);
  EXPECT_TRUE(b.view() == expected);
}

TEST(ByteBuffer, AppendOfOneLargeBlockGrowsEnough) {
  byte_buffer b;
  b.append("x");
  std::string big = pattern(100000, 9);
  b.append(big);
  EXPECT_GE(b.capacity(), 100001u);
  EXPECT_TRUE(b.view() == "x" + big);
}

TEST(ByteBuffer, ConsumeAdvancesTheStart) {
  byte_buffer b;
  b.append("hello world");
  b.consume(6);
  EXPECT_EQ(b.view(), "world");
  EXPECT_EQ(b.size(), 5u);
  b.append("!");
  EXPECT_EQ(b.view(), "world!");
}

TEST(ByteBuffer, ConsumeToEmptyResetsToTheFront) {
  byte_buffer b;
  b.append("abcdef");
  const char* front = b.data();
  b.consume(2);
  EXPECT_NE(b.data(), front);
  b.consume(4);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.data(), front);
  EXPECT_EQ(b.writable(), b.capacity());
  b.append("xyz");
  EXPECT_EQ(b.view(), "xyz");
  EXPECT_EQ(b.data(), front);
}

TEST(ByteBuffer, PrepareCompactsWhenTheConsumedPrefixMakesRoom) {
  byte_buffer b;
  b.append(pattern(3000, 1));
  const char* front = b.data();
  size_t capacity = b.capacity();
  b.consume(2900);
  std::string live(b.view());
  ASSERT_LT(b.writable(), 2000u);
  char* p = b.prepare(2000);
  EXPECT_EQ(b.capacity(), capacity) << "grew although compaction made room";
  EXPECT_EQ(b.data(), front) << "live bytes were not moved to the front";
  EXPECT_GE(b.writable(), 2000u);
  EXPECT_EQ(p, b.data() + b.size());
  EXPECT_EQ(b.view(), live);
}

TEST(ByteBuffer, PrepareGrowsKeepingLiveBytesWhenCompactionIsNotEnough) {
  byte_buffer b;
  b.append(pattern(3000, 2));
  b.consume(1000);
  std::string live(b.view());
  size_t capacity = b.capacity();
  b.prepare(capacity);  // more than any compaction can free
  EXPECT_GT(b.capacity(), capacity);
  EXPECT_GE(b.writable(), capacity);
  EXPECT_TRUE(b.view() == live);
}

TEST(ByteBuffer, PrepareThenCommitAppendsWrittenBytes) {
  byte_buffer b;
  b.append("ab");
  char* p = b.prepare(10);
  ASSERT_GE(b.writable(), 10u);
  std::memcpy(p, "0123456789", 10);
  b.commit(4);  // only part of what was prepared
  EXPECT_EQ(b.view(), "ab0123");
  p = b.prepare(1);
  *p = 'z';
  b.commit(1);
  EXPECT_EQ(b.view(), "ab0123z");
}

TEST(ByteBuffer, PrepareWithoutCommitChangesNothingVisible) {
  byte_buffer b;
  b.append("keep");
  b.prepare(50000);
  EXPECT_EQ(b.view(), "keep");
}

TEST(ByteBuffer, ClearEmptiesButKeepsStorage) {
  byte_buffer b;
  b.append("something");
  size_t capacity = b.capacity();
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.capacity(), capacity);
  EXPECT_EQ(b.writable(), capacity);
}

TEST(ByteBuffer, ShrinkIfIdleFreesOnlyAnEmptyLargeBuffer) {
  byte_buffer b;
  b.append(pattern(100000, 3));
  size_t capacity = b.capacity();
  b.shrink_if_idle(4096);
  EXPECT_EQ(b.capacity(), capacity) << "freed while holding bytes";
  b.consume(b.size());
  b.shrink_if_idle(1u << 30);
  EXPECT_EQ(b.capacity(), capacity) << "freed although under the keep size";
  b.shrink_if_idle(4096);
  EXPECT_EQ(b.capacity(), 0u);
  b.append("again");
  EXPECT_EQ(b.view(), "again");
}

TEST(ByteBuffer, MoveConstructionTakesTheBytes) {
  byte_buffer a;
  a.append("moved bytes");
  a.consume(6);
  byte_buffer b(std::move(a));
  EXPECT_EQ(b.view(), "bytes");
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
}

TEST(ByteBuffer, MoveAssignmentTakesTheBytes) {
  byte_buffer a;
  a.append("source");
  byte_buffer b;
  b.append("target");
  b = std::move(a);
  EXPECT_EQ(b.view(), "source");
}

// A random mix of operations agrees with a std::string model throughout.
TEST(ByteBuffer, RandomOperationsMatchAStringModel) {
  std::mt19937 rng(4242);
  byte_buffer b;
  std::string model;
  for (int step = 0; step < 20000; ++step) {
    switch (rng() % 4) {
      case 0: {
        std::string piece = pattern(rng() % 3000, static_cast<unsigned>(step));
        b.append(piece);
        model += piece;
        break;
      }
      case 1: {
        size_t n = model.empty() ? 0 : rng() % (model.size() + 1);
        b.consume(n);
        model.erase(0, n);
        break;
      }
      case 2: {
        size_t want = rng() % 5000;
        char* p = b.prepare(want);
        ASSERT_GE(b.writable(), want);
        size_t n = want == 0 ? 0 : rng() % (want + 1);
        std::string piece = pattern(n, static_cast<unsigned>(step) + 1);
        if (n > 0) std::memcpy(p, piece.data(), n);
        b.commit(n);
        model += piece;
        break;
      }
      case 3:
        if (rng() % 50 == 0) {
          b.clear();
          model.clear();
        }
        break;
    }
    ASSERT_EQ(b.size(), model.size()) << "at step " << step;
    ASSERT_EQ(b.empty(), model.empty());
    ASSERT_TRUE(b.view() == model) << "bytes differ at step " << step;
  }
}

}  // namespace
