// Unit tests for the fields and status codes every protocol shares
// (src/core/exchange/fields.h).
#include "core/exchange/fields.h"
#include "core/exchange/interim.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace std::string_view_literals;
namespace x = baton::exchange;

TEST(StatusReason, KnowsTheServersOwnStatuses) {
  EXPECT_STREQ(x::status_reason(200), "OK");
  EXPECT_STREQ(x::status_reason(400), "Bad Request");
  EXPECT_STREQ(x::status_reason(413), "Content Too Large");
  EXPECT_STREQ(x::status_reason(414), "URI Too Long");
  EXPECT_STREQ(x::status_reason(417), "Expectation Failed");
  EXPECT_STREQ(x::status_reason(431), "Request Header Fields Too Large");
  EXPECT_STREQ(x::status_reason(501), "Not Implemented");
  EXPECT_STREQ(x::status_reason(505), "HTTP Version Not Supported");
  EXPECT_STREQ(x::status_reason(301), "Moved Permanently");
  EXPECT_STREQ(x::status_reason(422), "Unprocessable Content");
  // RFC 9112 section 4: the reason phrase may be empty.
  EXPECT_STREQ(x::status_reason(299), "");
}

TEST(ForbiddenInTrailer, RefusesFramingRoutingAndControlFieldsInAnyCase) {
  for (std::string_view name : {"Content-Length"sv, "transfer-encoding"sv, "HOST"sv, "connection"sv, "TE"sv,
                                "trailer"sv, "expect"sv}) {
    EXPECT_TRUE(x::forbidden_in_trailer(name)) << name;
  }
  for (std::string_view name : {"x-checksum"sv, "grpc-status"sv, "server-timing"sv, "content-lengths"sv}) {
    EXPECT_FALSE(x::forbidden_in_trailer(name)) << name;
  }
}

TEST(ValidFieldName, AcceptsTokens) {
  EXPECT_TRUE(x::valid_field_name("Content-Type"));
  EXPECT_TRUE(x::valid_field_name("x"));
  EXPECT_TRUE(x::valid_field_name("X-Odd!#$%&'*+.^_`|~09"));
}

TEST(ValidFieldName, RejectsEmptyAndNonTokenNames) {
  EXPECT_FALSE(x::valid_field_name(""));
  EXPECT_FALSE(x::valid_field_name("X Name"));
  EXPECT_FALSE(x::valid_field_name("X-Name "));
  EXPECT_FALSE(x::valid_field_name("X:Name"));
  EXPECT_FALSE(x::valid_field_name("X\rName"));
  EXPECT_FALSE(x::valid_field_name("X\nName"));
  EXPECT_FALSE(x::valid_field_name("X\0Name"sv));
  EXPECT_FALSE(x::valid_field_name("X\tName"));
  EXPECT_FALSE(x::valid_field_name("X(Name)"));
  EXPECT_FALSE(x::valid_field_name("caf\xc3\xa9"));
}

TEST(ValidFieldValue, AcceptsVisibleCharactersSpacesTabsAndObsText) {
  EXPECT_TRUE(x::valid_field_value(""));
  EXPECT_TRUE(x::valid_field_value("text/plain; charset=utf-8"));
  EXPECT_TRUE(x::valid_field_value("a\tb c"));
  EXPECT_TRUE(x::valid_field_value("caf\xc3\xa9 \x80\xff"));
}

TEST(ValidFieldValue, RejectsCrLfNulAndControls) {
  EXPECT_FALSE(x::valid_field_value("a\rb"));
  EXPECT_FALSE(x::valid_field_value("a\nb"));
  EXPECT_FALSE(x::valid_field_value("a\r\nX-Injected: 1"));
  EXPECT_FALSE(x::valid_field_value("a\0b"sv));
  EXPECT_FALSE(x::valid_field_value("a\x7f"));
  EXPECT_FALSE(x::valid_field_value("\x01"));
  EXPECT_FALSE(x::valid_field_value("\x1b[31m"));
}

// The validators read eight bytes at a time: every byte value, at every
// place of names and values from one byte to three words and a half long
// (each place of the first, middle and overlapping last word), in a run of
// letters, digits and '-' (the quick path's alphabet) or of other valid
// bytes (the table's), gives what the byte's class says.
TEST(FieldValidation, EveryByteAtEveryPlaceIsJudgedByItsClass) {
  for (bool plain : {true, false}) {
    for (size_t length = 1; length <= 28; ++length) {
      for (size_t at = 0; at < length; ++at) {
        for (int b = 0; b < 256; ++b) {
          std::string name(length, '\0');
          std::string value(length, '\0');
          for (size_t i = 0; i < length; ++i) {
            name[i] = plain ? "aZ9-"[i % 4] : "!#_~|^`'"[i % 8];
            value[i] = plain ? "aZ 9/;="[i % 7] : "\t\x80\xff~"[i % 4];
          }
          name[at] = static_cast<char>(b);
          value[at] = static_cast<char>(b);
          auto c = static_cast<unsigned char>(b);
          ASSERT_EQ(x::valid_field_name(name), x::is_token_char(c)) << "byte " << b << " at " << at << " of " << length;
          ASSERT_EQ(x::valid_field_value(value), x::is_field_value_char(c))
              << "byte " << b << " at " << at << " of " << length;
        }
      }
    }
  }
}

TEST(ParseStatusCode, ReadsTheLeadingThreeDigitCode) {
  EXPECT_EQ(x::parse_status_code("200 OK"), 200);
  EXPECT_EQ(x::parse_status_code("404"), 404);
  EXPECT_EQ(x::parse_status_code("599 Whatever You Like"), 599);
  EXPECT_EQ(x::parse_status_code("100 Continue"), 100);
  EXPECT_EQ(x::parse_status_code("200 "), 200);
  EXPECT_EQ(x::parse_status_code("204 No\tContent \xc3\xa9"), 204);
}

TEST(ParseStatusCode, ReturnsZeroForMalformedStatus) {
  EXPECT_EQ(x::parse_status_code("20 OK"), 0);
  EXPECT_EQ(x::parse_status_code("abc"), 0);
  EXPECT_EQ(x::parse_status_code("200OK"), 0);
  EXPECT_EQ(x::parse_status_code("200 O\rK"), 0);
  EXPECT_EQ(x::parse_status_code("200 O\nK"), 0);
  EXPECT_EQ(x::parse_status_code("200 O\0K"sv), 0);
  EXPECT_EQ(x::parse_status_code(""), 0);
  EXPECT_EQ(x::parse_status_code("20"), 0);
  EXPECT_EQ(x::parse_status_code("2000 OK"), 0);
  EXPECT_EQ(x::parse_status_code("099 Low"), 0);
  EXPECT_EQ(x::parse_status_code(" 200 OK"), 0);
  EXPECT_EQ(x::parse_status_code("-20 OK"), 0);
}

TEST(FieldList, KeepsFieldsInOrderAndFindsThemByAnyCase) {
  x::field_list fields;
  EXPECT_TRUE(fields.empty());
  fields.add("Content-Type", "text/plain");
  fields.add("x-empty", "");
  fields.add("Set-Cookie", "a=1");
  fields.add("set-cookie", "b=2");
  std::vector<std::pair<std::string, std::string>> seen;
  fields.for_each([&](std::string_view n, std::string_view v) { seen.emplace_back(n, v); });
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0], std::make_pair(std::string("Content-Type"), std::string("text/plain")));
  EXPECT_EQ(seen[1], std::make_pair(std::string("x-empty"), std::string()));
  EXPECT_EQ(fields.find("content-type"), "text/plain");
  EXPECT_EQ(fields.find("SET-COOKIE"), "a=1") << "the first of a repeated name";
  EXPECT_EQ(fields.find("missing"), "");
  size_t lines = 0;
  for (const auto& [n, v] : seen) lines += n.size() + v.size() + 4;
  EXPECT_GE(fields.line_bytes_bound(), lines);
  fields.clear();
  EXPECT_TRUE(fields.empty());
}

TEST(InterimField, TakesValidFieldsButNoneThatFramesOrKeepsTheConnection) {
  EXPECT_TRUE(x::valid_interim_field("Link", "</a.css>; rel=preload; as=style"));
  EXPECT_TRUE(x::valid_interim_field("x-trace", "1"));
  EXPECT_FALSE(x::valid_interim_field("link", "</a.css>\r\nx-injected: 1"));
  EXPECT_FALSE(x::valid_interim_field("link", std::string_view("</a.css>\0", 9)));
  EXPECT_FALSE(x::valid_interim_field("bad name", "1"));
  for (std::string_view own : {"Content-Length", "transfer-encoding", "Connection", "keep-alive", "upgrade"}) {
    EXPECT_FALSE(x::valid_interim_field(own, "0")) << own;
  }
}

}  // namespace
