// Unit tests for the fields and status codes every protocol shares
// (src/core/exchange/fields.h).
#include "core/exchange/fields.h"

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

}  // namespace
