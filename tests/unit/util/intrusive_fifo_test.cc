// The intrusive FIFO: order kept through pushes at either end, the links
// left null once an element is out, and the count with them.
#include <gtest/gtest.h>

#include "core/util/intrusive_fifo.h"

namespace {

struct item {
  int id = 0;
  item* next = nullptr;
};

item*& link_of(item& x) { return x.next; }

using fifo = baton::util::intrusive_fifo<item, &link_of>;

TEST(IntrusiveFifo, ElementsLeaveInTheOrderTheyCame) {
  item a{1}, b{2}, c{3};
  fifo q;
  EXPECT_TRUE(q.empty());
  q.push_back(&a);
  q.push_back(&b);
  q.push_back(&c);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.front(), &a);
  EXPECT_EQ(q.pop_front(), &a);
  EXPECT_EQ(q.pop_front(), &b);
  EXPECT_EQ(q.pop_front(), &c);
  EXPECT_EQ(q.pop_front(), nullptr);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
}

TEST(IntrusiveFifo, AnElementPutBackAtTheFrontKeepsItsTurn) {
  item a{1}, b{2};
  fifo q;
  q.push_back(&a);
  q.push_back(&b);
  item* first = q.pop_front();
  q.push_front(first);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.pop_front(), &a);
  EXPECT_EQ(q.pop_front(), &b);
  // Into an empty queue at the front, then at the back behind it.
  q.push_front(&b);
  q.push_back(&a);
  EXPECT_EQ(q.pop_front(), &b);
  EXPECT_EQ(q.pop_front(), &a);
  EXPECT_TRUE(q.empty());
}

TEST(IntrusiveFifo, AnElementOutOfTheQueueHoldsNoLink) {
  item a{1}, b{2};
  fifo q;
  q.push_back(&a);
  q.push_back(&b);
  EXPECT_EQ(a.next, &b);
  q.pop_front();
  EXPECT_EQ(a.next, nullptr);
  q.push_back(&a);  // the same element again, behind b
  EXPECT_EQ(q.pop_front(), &b);
  EXPECT_EQ(q.pop_front(), &a);
  EXPECT_EQ(a.next, nullptr);
}

}  // namespace
