// Unit tests for the chunked transfer-coding decoder (src/core/http1/chunked.h).
//
// decode_everywhere() decodes each body whole, byte by byte and at 50 random
// splittings, concatenating the data runs, and fails unless all agree. Under
// AddressSanitizer the bytes past the length handed to step() are poisoned.
#include "core/http1/chunked.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/exact_bytes.h"

// Readable names in assertion messages.
namespace baton::http1 {
inline void PrintTo(chunked_decoder::status s, std::ostream* os) {
  static const char* const names[] = {"data", "need_more", "done", "error"};
  *os << names[static_cast<int>(s)];
}
}  // namespace baton::http1

namespace {

using baton::test::exact_bytes;
using baton::test::printable;

using namespace std::string_literals;
using baton::http1::chunked_decoder;
using dstatus = chunked_decoder::status;



struct decoded {
  dstatus state = dstatus::need_more;
  std::string body;
  size_t end = 0;  // for done: input offset just past the final CRLF
  std::string reason;

  std::string describe() const {
    std::ostringstream s;
    switch (state) {
      case dstatus::data: s << "data?"; break;
      case dstatus::need_more: s << "need_more"; break;
      case dstatus::done: s << "done end=" << end; break;
      case dstatus::error: s << "error"; break;
    }
    s << " body=[" << printable(body) << "]";
    return s.str();
  }
};

// Decodes `input`, showing the decoder the lengths in `cuts` (ascending,
// each below input.size()) and then all of it. Consumed bytes are dropped
// from the front the way a connection does.
decoded decode(std::string_view input, const std::vector<size_t>& cuts) {
  exact_bytes bytes(input);
  chunked_decoder dec;
  decoded d;
  std::vector<size_t> lengths = cuts;
  lengths.push_back(input.size());
  size_t next = 0;
  size_t visible = lengths[next];
  const char* buf = bytes.show(visible);
  size_t pos = 0;
  for (int guard = 0; guard < 1000000; ++guard) {
    chunked_decoder::step_result r = dec.step(buf + pos, visible - pos);
    EXPECT_LE(r.consumed, visible - pos) << "consumed more than it was given";
    if (r.consumed > visible - pos) {
      d.state = dstatus::error;
      return d;
    }
    switch (r.state) {
      case dstatus::data:
        EXPECT_GT(r.data_length, 0u);
        EXPECT_GE(r.data, buf + pos);
        EXPECT_LE(r.data + r.data_length, buf + pos + r.consumed);
        d.body.append(r.data, r.data_length);
        pos += r.consumed;
        continue;
      case dstatus::need_more:
        EXPECT_EQ(r.data_length, 0u);
        pos += r.consumed;
        if (++next == lengths.size()) {
          d.state = dstatus::need_more;
          return d;
        }
        visible = lengths[next];
        buf = bytes.show(visible);
        continue;
      case dstatus::done:
        pos += r.consumed;
        EXPECT_TRUE(dec.done());
        d.state = dstatus::done;
        d.end = pos;
        return d;
      case dstatus::error:
        EXPECT_NE(r.reason, nullptr);
        d.state = dstatus::error;
        d.reason = r.reason != nullptr ? r.reason : "";
        return d;
    }
  }
  ADD_FAILURE() << "the decoder made no progress";
  return d;
}

decoded decode_everywhere(std::string_view input) {
  decoded whole = decode(input, {});
  std::string expected = whole.describe();

  std::vector<size_t> every;
  for (size_t k = 1; k < input.size(); ++k) every.push_back(k);
  decoded bytewise = decode(input, every);
  EXPECT_EQ(bytewise.describe(), expected) << "byte by byte disagrees with whole for: " << printable(input);

  if (input.size() >= 2) {
    std::mt19937 rng(7101);
    std::uniform_int_distribution<size_t> pick(1, input.size() - 1);
    std::uniform_int_distribution<int> how_many(1, 4);
    int disagreements = 0;
    for (int i = 0; i < 50; ++i) {
      std::vector<size_t> cuts;
      for (int n = how_many(rng); n > 0; --n) cuts.push_back(pick(rng));
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      decoded split = decode(input, cuts);
      std::ostringstream where;
      for (size_t c : cuts) where << c << ' ';
      if (split.describe() != expected && disagreements++ == 0) {
        // Report the first disagreement only; the count follows.
        EXPECT_EQ(split.describe(), expected)
            << "split at " << where.str() << "disagrees with whole for: " << printable(input);
      }
    }
    EXPECT_EQ(disagreements, 0) << "of 50 random splittings disagreed with whole";
  }
  return whole;
}

::testing::AssertionResult decodes_to(std::string_view input, std::string_view body) {
  decoded d = decode_everywhere(input);
  if (d.state == dstatus::done && d.body == body && d.end == input.size()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected done with body [" << printable(body) << "] ending at "
                                       << input.size() << ", got " << d.describe() << " (" << d.reason
                                       << ") for: " << printable(input);
}

::testing::AssertionResult rejects(std::string_view input) {
  decoded d = decode_everywhere(input);
  if (d.state == dstatus::error) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected error, got " << d.describe() << " for: " << printable(input);
}

TEST(Chunked, DecodesSimpleChunks) {
  EXPECT_TRUE(decodes_to("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world"));
  EXPECT_TRUE(decodes_to("0\r\n\r\n", ""));
  EXPECT_TRUE(decodes_to("1\r\na\r\n1\r\nb\r\n1\r\nc\r\n0\r\n\r\n", "abc"));
}

TEST(Chunked, PassesCrlfInsideChunkDataThrough) {
  EXPECT_TRUE(decodes_to("4\r\n\r\n\r\n\r\n3\r\n0\r\n\r\n0\r\n\r\n", "\r\n\r\n0\r\n"));
  EXPECT_TRUE(decodes_to("3\r\n\0\xff\n\r\n0\r\n\r\n"s, "\0\xff\n"s));
}

TEST(Chunked, AcceptsUppercaseAndMixedCaseHex) {
  std::string sixteen(16, 'x');
  std::string ten(10, 'y');
  std::string big(0xabc, 'z');
  EXPECT_TRUE(decodes_to("A\r\n" + ten + "\r\n10\r\n" + sixteen + "\r\n0\r\n\r\n", ten + sixteen));
  EXPECT_TRUE(decodes_to("aBc\r\n" + big + "\r\n0\r\n\r\n", big));
  EXPECT_TRUE(decodes_to("F\r\n" + std::string(15, 'f') + "\r\n0\r\n\r\n", std::string(15, 'f')));
}

TEST(Chunked, AcceptsLeadingZeros) {
  EXPECT_TRUE(decodes_to("0005\r\nhello\r\n000\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("000000000000005\r\nhello\r\n0\r\n\r\n", "hello"));  // 15 digits
}

TEST(Chunked, AcceptsChunkExtensions) {
  EXPECT_TRUE(decodes_to("5;a\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5;a=b\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5;a=\"q s\"\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5;a=\"q \\\" s\"\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5 ;a\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5\t;a\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5; a = b ;c;d=\"e\"\r\nhello\r\n0\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("5\r\nhello\r\n0;last=yes\r\n\r\n", "hello"));
}

TEST(Chunked, RejectsMalformedChunkExtensions) {
  EXPECT_TRUE(rejects("5;\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=\"open\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a b\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=b c\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;=b\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=\"x\x01\"\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, AcceptsTrailers) {
  EXPECT_TRUE(decodes_to("5\r\nhello\r\n0\r\nX-Checksum: abc\r\nY:\r\n\r\n", "hello"));
  EXPECT_TRUE(decodes_to("0\r\nServer-Timing: a;dur=1\r\n\r\n", ""));
}

TEST(Chunked, RejectsForbiddenTrailerFields) {
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\r\nContent-Length: 5\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\r\ncontent-length: 5\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\r\nHost: evil\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\r\nX-Fine: 1\r\nHOST: evil\r\n\r\n"));
}

TEST(Chunked, RejectsMalformedTrailerLines) {
  EXPECT_TRUE(rejects("0\r\nX: a\r\n b\r\n\r\n"));      // obs-fold
  EXPECT_TRUE(rejects("0\r\nX : a\r\n\r\n"));           // whitespace before colon
  EXPECT_TRUE(rejects("0\r\nNoColon\r\n\r\n"));
  EXPECT_TRUE(rejects("0\r\n: a\r\n\r\n"));
  EXPECT_TRUE(rejects("0\r\nX: a\x7f\r\n\r\n"));
  EXPECT_TRUE(rejects("0\r\nX: a\n\r\n"));             // bare LF
  EXPECT_TRUE(rejects("0\r\nX: a\r\n\n"));             // bare LF as the end
}

TEST(Chunked, RejectsMissingCrlfAfterData) {
  EXPECT_TRUE(rejects("5\r\nhelloX\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\rX0\r\n\r\n"));
  EXPECT_TRUE(rejects("3\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsBareLfInSizeLine) {
  EXPECT_TRUE(rejects("5\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=b\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n0\n\r\n"));
  EXPECT_TRUE(rejects("\n"));
}

TEST(Chunked, RejectsBareCrInSizeLine) {
  EXPECT_TRUE(rejects("5;a\rb\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5;a=\"x\ry\"\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsWhitespaceAfterSizeWithoutExtension) {
  EXPECT_TRUE(rejects("0 \r\n\r\n"));
  EXPECT_TRUE(rejects("5 \r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\t\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsLeadingWhitespaceBeforeSize) {
  EXPECT_TRUE(rejects(" 5\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("\t5\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsEmptySizeLine) {
  EXPECT_TRUE(rejects("\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5\r\nhello\r\n\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects(";a\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsSignedOrPrefixedSize) {
  EXPECT_TRUE(rejects("-5\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("+5\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("0x5\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("5g\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsSizeWithSixteenOrMoreHexDigits) {
  EXPECT_TRUE(rejects("ffffffffffffffff\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("10000000000000000\r\nhello\r\n0\r\n\r\n"));
  EXPECT_TRUE(rejects("0000000000000005\r\nhello\r\n0\r\n\r\n"));
}

TEST(Chunked, RejectsSizeLineLongerThanMaxSizeLineWhileIncomplete) {
  std::string line = "1;" + std::string(chunked_decoder::max_size_line, 'a');  // no line end yet
  EXPECT_TRUE(rejects(line));
}

TEST(Chunked, RejectsSizeLineLongerThanMaxSizeLine) {
  std::string body = "1;" + std::string(chunked_decoder::max_size_line, 'a') + "\r\nx\r\n0\r\n\r\n";
  EXPECT_TRUE(rejects(body));
}

TEST(Chunked, AcceptsSizeLineWellUnderMaxSizeLine) {
  std::string ext = ";" + std::string(chunked_decoder::max_size_line / 2, 'a');
  EXPECT_TRUE(decodes_to("1" + ext + "\r\nx\r\n0\r\n\r\n", "x"));
}

TEST(Chunked, RejectsTrailerSectionOverMaxTrailerBytes) {
  std::string body = "1\r\nx\r\n0\r\n";
  size_t n = 0;
  while (body.size() < chunked_decoder::max_trailer_bytes + 200) {
    body += "X-T" + std::to_string(n++) + ": " + std::string(100, 'v') + "\r\n";
  }
  body += "\r\n";
  EXPECT_TRUE(rejects(body));

  std::string one_line = "0\r\nX: " + std::string(chunked_decoder::max_trailer_bytes, 'v');  // never ends
  EXPECT_TRUE(rejects(one_line));
}

TEST(Chunked, AcceptsTrailerSectionUnderMaxTrailerBytes) {
  std::string body = "1\r\nx\r\n0\r\n";
  for (int i = 0; i < 10; ++i) body += "X-T" + std::to_string(i) + ": " + std::string(100, 'v') + "\r\n";
  body += "\r\n";
  EXPECT_TRUE(decodes_to(body, "x"));
}

TEST(Chunked, NeedsMoreOnTruncatedInput) {
  for (std::string_view cut : {"5", "5\r", "5\r\nhel", "5\r\nhello", "5\r\nhello\r", "5\r\nhello\r\n0\r\n",
                               "5\r\nhello\r\n0\r\nX: y\r\n", "5\r\nhello\r\n0\r\n\r", "5;a=\"b"}) {
    decoded d = decode_everywhere(cut);
    EXPECT_EQ(d.state, dstatus::need_more) << printable(cut) << " gave " << d.describe();
  }
  decoded d = decode_everywhere("5\r\nhel");
  EXPECT_EQ(d.body, "hel");
}

TEST(Chunked, DoneStopsAtEndOfFinalCrlf) {
  std::string body = "5\r\nhello\r\n0\r\nX: y\r\n\r\n";
  std::string next = "GET /next HTTP/1.1\r\nHost: a\r\n\r\n";
  decoded d = decode_everywhere(body + next);
  EXPECT_EQ(d.state, dstatus::done);
  EXPECT_EQ(d.body, "hello");
  EXPECT_EQ(d.end, body.size());

  d = decode_everywhere("0\r\n\r\n0\r\n\r\n");
  EXPECT_EQ(d.state, dstatus::done);
  EXPECT_EQ(d.end, 5u);
}

TEST(Chunked, StepAfterDoneConsumesNothing) {
  std::string input = "0\r\n\r\nXYZ";
  chunked_decoder dec;
  chunked_decoder::step_result r = dec.step(input.data(), input.size());
  ASSERT_EQ(r.state, dstatus::done);
  ASSERT_EQ(r.consumed, 5u);
  EXPECT_TRUE(dec.done());
  r = dec.step(input.data() + 5, 3);
  EXPECT_EQ(r.state, dstatus::done);
  EXPECT_EQ(r.consumed, 0u);
}

TEST(Chunked, ResetStartsANewBody) {
  chunked_decoder dec;
  std::string first = "0\r\n\r\n";
  ASSERT_EQ(dec.step(first.data(), first.size()).state, dstatus::done);
  dec.reset();
  EXPECT_FALSE(dec.done());
  std::string second = "2\r\nhi\r\n0\r\n\r\n";
  chunked_decoder::step_result r = dec.step(second.data(), second.size());
  ASSERT_EQ(r.state, dstatus::data);
  EXPECT_EQ(std::string_view(r.data, r.data_length), "hi");
}

}  // namespace
