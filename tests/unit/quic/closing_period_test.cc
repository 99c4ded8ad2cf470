// Unit tests for the closing period (src/core/quic/closing_period.h): in
// the closing state the late packets are answered with the close kept, the
// 1st, 2nd, 4th, 8th... of them and no others; draining or before any close,
// none is.
#include "core/quic/closing_period.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using baton::quic::closing_period;

TEST(ClosingPeriod, ClosingAnswersLatePacketsAtAFallingRateWithTheCloseKept) {
  closing_period p;
  EXPECT_FALSE(p.answer_due());  // nothing closed yet
  const uint8_t close[] = {0x40, 1, 2, 3};
  p.closing(close, sizeof(close));
  EXPECT_EQ(p.now(), closing_period::state::closing);
  EXPECT_EQ(p.packet(), (std::vector<uint8_t>{0x40, 1, 2, 3}));
  std::vector<int> answered;
  for (int n = 1; n <= 70; ++n) {
    if (p.answer_due()) answered.push_back(n);
  }
  EXPECT_EQ(answered, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
}

TEST(ClosingPeriod, DrainingAnswersNothing) {
  closing_period p;
  p.draining();
  EXPECT_EQ(p.now(), closing_period::state::draining);
  for (int n = 0; n < 10; ++n) EXPECT_FALSE(p.answer_due());
}

}  // namespace
