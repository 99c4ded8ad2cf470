// Unit tests for the case-blind compares (src/core/util/text.h), one of
// which reads eight bytes at a time.
#include "core/util/text.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "core/exchange/fields.h"

namespace {

// The rule, a byte at a time: equal bytes, or the same ASCII letter in
// either case.
bool reference(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = static_cast<unsigned char>(a[i]);
    auto y = static_cast<unsigned char>(b[i]);
    bool letter = (x | 0x20) >= 'a' && (x | 0x20) <= 'z';
    if (x != y && !(letter && (x ^ y) == 0x20)) return false;
  }
  return true;
}

TEST(EqualsIgnoreCase, KnowsNamesInAnyCase) {
  EXPECT_TRUE(baton::util::equals_ignore_case("Content-Length", "content-length"));
  EXPECT_TRUE(baton::util::equals_ignore_case("TRANSFER-ENCODING", "transfer-encoding"));
  EXPECT_TRUE(baton::util::equals_ignore_case("", ""));
  EXPECT_FALSE(baton::util::equals_ignore_case("content-length", "content-lengt"));
  EXPECT_FALSE(baton::util::equals_ignore_case("content-length", "content_length"));
  EXPECT_FALSE(baton::util::equals_ignore_case("content\rlength", "content-length"));  // 0x0d | 0x20 is '-'
  EXPECT_FALSE(baton::util::equals_ignore_case("x-forwarded-for\xc0", "x-forwarded-for\xe0"));
}

TEST(TokenEqualsLowercase, KnowsNamesInAnyCase) {
  EXPECT_TRUE(baton::util::token_equals_lowercase("Content-Length", "content-length"));
  EXPECT_TRUE(baton::util::token_equals_lowercase("TRANSFER-ENCODING", "transfer-encoding"));
  EXPECT_TRUE(baton::util::token_equals_lowercase("Host", "host"));
  EXPECT_FALSE(baton::util::token_equals_lowercase("Content-Lengths", "content-length"));
  EXPECT_FALSE(baton::util::token_equals_lowercase("Content_Length", "content-length"));
  EXPECT_FALSE(baton::util::token_equals_lowercase("Content-Type!!", "content-length"));
}

// Every token byte at every place of a name, against lower-case names of
// letters, digits and '-' as the callers pass: the rule's answer. (Bytes
// outside a token are the caller's to refuse before it compares.)
TEST(TokenEqualsLowercase, EveryTokenByteAtEveryPlaceFollowsTheRule) {
  for (std::string lower : {"te", "upgrade", "content-length", "transfer-encoding", "x-forwarded-proto-2"}) {
    std::string name = lower;
    for (size_t i = 0; i < name.size(); i += 2) name[i] = static_cast<char>(std::toupper(name[i]));
    for (size_t at = 0; at < name.size(); ++at) {
      char was = name[at];
      for (int x = 0; x < 256; ++x) {
        if (!baton::exchange::is_token_char(static_cast<unsigned char>(x))) continue;
        name[at] = static_cast<char>(x);
        ASSERT_EQ(baton::util::token_equals_lowercase(name, lower), reference(name, lower))
            << "byte " << x << " at " << at << " of " << name.size();
      }
      name[at] = was;
    }
  }
}

// Two texts of one length, alike but for one place where the first has byte
// x and the second byte y: every pair of bytes, at every place of texts one
// to twenty-four bytes long (so in the first byte, in a first, middle or
// overlapping last word), over letters in mixed case, gives the rule's
// answer.
TEST(EqualsIgnoreCase, EveryPairOfBytesAtEveryPlaceFollowsTheRule) {
  const std::string letters = "Content-Length: X-Forwarded-Proto";
  for (size_t length : {1, 2, 7, 8, 9, 15, 16, 17, 24}) {
    std::string a = letters.substr(0, length);
    std::string b = a;
    for (size_t i = 0; i < length; ++i) {
      if (std::isalpha(static_cast<unsigned char>(b[i])) && i % 3 == 0) b[i] = static_cast<char>(b[i] ^ 0x20);
    }
    for (size_t at = 0; at < length; ++at) {
      char a_was = a[at];
      char b_was = b[at];
      for (int x = 0; x < 256; ++x) {
        a[at] = static_cast<char>(x);
        for (int y = 0; y < 256; ++y) {
          b[at] = static_cast<char>(y);
          ASSERT_EQ(baton::util::equals_ignore_case(a, b), reference(a, b))
              << "bytes " << x << " and " << y << " at " << at << " of " << length;
        }
      }
      a[at] = a_was;
      b[at] = b_was;
    }
  }
}

}  // namespace
