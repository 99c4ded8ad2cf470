// The loop's receive buffer: lent to one read at a time, given back by the
// lease whatever way the read ends.
#include "core/session/receive_buffer.h"

#include <gtest/gtest.h>

namespace {

using baton::byte_buffer;
using baton::session::receive_buffer;
using baton::session::receive_lease;

TEST(receive_lease, TakesTheSharedBufferWhenFreeAndGivesItBackEmptyAtItsEnd) {
  receive_buffer shared;
  byte_buffer own;
  receive_lease* current = nullptr;
  {
    receive_lease lease(shared, own, true, current);
    EXPECT_TRUE(lease.shared());
    EXPECT_EQ(&lease.bytes(), &shared.bytes);
    EXPECT_TRUE(shared.lent);
    EXPECT_EQ(current, &lease);
    lease.bytes().append("abc", 3);
  }
  EXPECT_FALSE(shared.lent);
  EXPECT_TRUE(shared.bytes.empty());
  EXPECT_EQ(current, nullptr);
}

TEST(receive_lease, ANestedReadGetsItsFallbackWhileTheOuterHoldsTheSharedBuffer) {
  receive_buffer shared;
  byte_buffer outer_own;
  byte_buffer inner_own;
  inner_own.append("kept", 4);
  receive_lease* current = nullptr;
  receive_lease outer(shared, outer_own, true, current);
  {
    receive_lease inner(shared, inner_own, true, current);
    EXPECT_FALSE(inner.shared());
    EXPECT_EQ(&inner.bytes(), &inner_own);
    EXPECT_EQ(inner.bytes().view(), "kept");  // a fallback is read into as it is
    EXPECT_EQ(current, &inner);
  }
  EXPECT_EQ(current, &outer);
  EXPECT_TRUE(shared.lent);  // the inner lease's end leaves the outer's alone
}

TEST(receive_lease, OneThatMayNotShareReadsIntoItsFallback) {
  receive_buffer shared;
  byte_buffer own;
  receive_lease* current = nullptr;
  receive_lease lease(shared, own, false, current);
  EXPECT_FALSE(lease.shared());
  EXPECT_FALSE(shared.lent);
}

TEST(receive_lease, KeepUnreadMovesTheRestIntoTheOwnBufferAndLendsTheSharedOneAgainAtOnce) {
  receive_buffer shared;
  byte_buffer own;
  own.append("a", 1);
  receive_lease* current = nullptr;
  receive_lease lease(shared, own, true, current);
  lease.bytes().append("bcd", 3);
  byte_buffer& rest = lease.keep_unread(own);
  EXPECT_EQ(&rest, &own);
  EXPECT_EQ(own.view(), "abcd");
  EXPECT_FALSE(shared.lent);
  EXPECT_TRUE(shared.bytes.empty());
  // Another session's read (an inline app's wait runs one) takes it now.
  byte_buffer other_own;
  receive_lease* other_current = nullptr;
  {
    receive_lease other(shared, other_own, true, other_current);
    EXPECT_TRUE(other.shared());
  }
  EXPECT_FALSE(shared.lent);
  // And the first lease's end does not give back what it no longer holds.
  EXPECT_EQ(&lease.keep_unread(own), &own);
  EXPECT_EQ(own.view(), "abcd");
}

}  // namespace
