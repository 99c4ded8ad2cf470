// Unit tests for the connection-independent response pieces
// (src/core/http1/response.h).
#include "core/http1/response.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace std::string_literals;
using namespace std::string_view_literals;
namespace h = baton::http1;

TEST(DateCache, FormatsEpochAsImfFixdateLine) {
  h::date_cache dates;
  EXPECT_EQ(dates.line(0), "date: Thu, 01 Jan 1970 00:00:00 GMT\r\n");
}

TEST(DateCache, FormatsKnownInstantsAsImfFixdateLines) {
  h::date_cache dates;
  EXPECT_EQ(dates.line(784111777), "date: Sun, 06 Nov 1994 08:49:37 GMT\r\n");  // RFC 9110's example
  EXPECT_EQ(dates.line(951782400), "date: Tue, 29 Feb 2000 00:00:00 GMT\r\n");
  EXPECT_EQ(dates.line(1700000000), "date: Tue, 14 Nov 2023 22:13:20 GMT\r\n");
  EXPECT_EQ(dates.line(4102444799), "date: Thu, 31 Dec 2099 23:59:59 GMT\r\n");
}

TEST(DateCache, LineChangesOnlyWhenTheSecondChanges) {
  h::date_cache dates;
  std::string first(dates.line(1700000000));
  std::string_view again = dates.line(1700000000);
  EXPECT_EQ(again, first);
  std::string_view next = dates.line(1700000001);
  EXPECT_EQ(next, "date: Tue, 14 Nov 2023 22:13:21 GMT\r\n");
  EXPECT_NE(std::string(next), first);
  // Going back to an earlier second formats that second again.
  EXPECT_EQ(dates.line(1700000000), first);
}

TEST(DateCache, SameSecondReturnsTheSameFormattedBytes) {
  h::date_cache dates;
  std::string_view a = dates.line(1234567890);
  std::string_view b = dates.line(1234567890);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(b, "date: Fri, 13 Feb 2009 23:31:30 GMT\r\n");
}

TEST(StatusReason, KnowsTheServersOwnStatuses) {
  EXPECT_STREQ(h::status_reason(200), "OK");
  EXPECT_STREQ(h::status_reason(400), "Bad Request");
  EXPECT_STREQ(h::status_reason(413), "Content Too Large");
  EXPECT_STREQ(h::status_reason(414), "URI Too Long");
  EXPECT_STREQ(h::status_reason(417), "Expectation Failed");
  EXPECT_STREQ(h::status_reason(431), "Request Header Fields Too Large");
  EXPECT_STREQ(h::status_reason(501), "Not Implemented");
  EXPECT_STREQ(h::status_reason(505), "HTTP Version Not Supported");
  EXPECT_STREQ(h::status_reason(301), "Moved Permanently");
  EXPECT_STREQ(h::status_reason(422), "Unprocessable Content");
  // RFC 9112 section 4: the reason phrase may be empty.
  EXPECT_STREQ(h::status_reason(299), "");
}

TEST(ValidHeaderName, AcceptsTokens) {
  EXPECT_TRUE(h::valid_header_name("Content-Type"));
  EXPECT_TRUE(h::valid_header_name("x"));
  EXPECT_TRUE(h::valid_header_name("X-Odd!#$%&'*+.^_`|~09"));
}

TEST(ValidHeaderName, RejectsEmptyAndNonTokenNames) {
  EXPECT_FALSE(h::valid_header_name(""));
  EXPECT_FALSE(h::valid_header_name("X Name"));
  EXPECT_FALSE(h::valid_header_name("X-Name "));
  EXPECT_FALSE(h::valid_header_name("X:Name"));
  EXPECT_FALSE(h::valid_header_name("X\rName"));
  EXPECT_FALSE(h::valid_header_name("X\nName"));
  EXPECT_FALSE(h::valid_header_name("X\0Name"sv));
  EXPECT_FALSE(h::valid_header_name("X\tName"));
  EXPECT_FALSE(h::valid_header_name("X(Name)"));
  EXPECT_FALSE(h::valid_header_name("caf\xc3\xa9"));
}

TEST(ValidHeaderValue, AcceptsVisibleCharactersSpacesTabsAndObsText) {
  EXPECT_TRUE(h::valid_header_value(""));
  EXPECT_TRUE(h::valid_header_value("text/plain; charset=utf-8"));
  EXPECT_TRUE(h::valid_header_value("a\tb c"));
  EXPECT_TRUE(h::valid_header_value("caf\xc3\xa9 \x80\xff"));
}

TEST(ValidHeaderValue, RejectsCrLfNulAndControls) {
  EXPECT_FALSE(h::valid_header_value("a\rb"));
  EXPECT_FALSE(h::valid_header_value("a\nb"));
  EXPECT_FALSE(h::valid_header_value("a\r\nX-Injected: 1"));
  EXPECT_FALSE(h::valid_header_value("a\0b"sv));
  EXPECT_FALSE(h::valid_header_value("a\x7f"));
  EXPECT_FALSE(h::valid_header_value("\x01"));
  EXPECT_FALSE(h::valid_header_value("\x1b[31m"));
}

TEST(ParseStatusLine, ReadsTheLeadingThreeDigitCode) {
  EXPECT_EQ(h::parse_status_line("200 OK"), 200);
  EXPECT_EQ(h::parse_status_line("404"), 404);
  EXPECT_EQ(h::parse_status_line("599 Whatever You Like"), 599);
  EXPECT_EQ(h::parse_status_line("100 Continue"), 100);
  EXPECT_EQ(h::parse_status_line("200 "), 200);
  EXPECT_EQ(h::parse_status_line("204 No\tContent \xc3\xa9"), 204);
}

TEST(ParseStatusLine, ReturnsZeroForMalformedStatus) {
  EXPECT_EQ(h::parse_status_line("20 OK"), 0);
  EXPECT_EQ(h::parse_status_line("abc"), 0);
  EXPECT_EQ(h::parse_status_line("200OK"), 0);
  EXPECT_EQ(h::parse_status_line("200 O\rK"), 0);
  EXPECT_EQ(h::parse_status_line("200 O\nK"), 0);
  EXPECT_EQ(h::parse_status_line("200 O\0K"sv), 0);
  EXPECT_EQ(h::parse_status_line(""), 0);
  EXPECT_EQ(h::parse_status_line("20"), 0);
  EXPECT_EQ(h::parse_status_line("2000 OK"), 0);
  EXPECT_EQ(h::parse_status_line("099 Low"), 0);
  EXPECT_EQ(h::parse_status_line(" 200 OK"), 0);
  EXPECT_EQ(h::parse_status_line("-20 OK"), 0);
}

TEST(ChunkHeader, AppendsLowercaseHexSizeAndCrlf) {
  baton::byte_buffer out;
  h::append_chunk_header(out, 0);
  EXPECT_EQ(out.view(), "0\r\n");
  out.clear();
  h::append_chunk_header(out, 255);
  EXPECT_EQ(out.view(), "ff\r\n");
  out.clear();
  h::append_chunk_header(out, 4096);
  EXPECT_EQ(out.view(), "1000\r\n");
  out.clear();
  h::append_chunk_header(out, SIZE_MAX);
  EXPECT_EQ(out.view(), "ffffffffffffffff\r\n");
}

TEST(ChunkHeader, AppendsAfterExistingBytes) {
  baton::byte_buffer out;
  out.append("body");
  h::append_chunk_header(out, 10);
  out.append("0123456789\r\n");
  out.append(h::last_chunk);
  EXPECT_EQ(out.view(), "bodya\r\n0123456789\r\n0\r\n\r\n");
}

TEST(SimpleResponse, WritesExactBytesWithClose) {
  baton::byte_buffer out;
  h::append_simple_response(out, 400, "date: Thu, 01 Jan 1970 00:00:00 GMT\r\n", "text/plain; charset=utf-8",
                            "Bad Request", true);
  EXPECT_EQ(out.view(),
            "HTTP/1.1 400 Bad Request\r\n"
            "content-type: text/plain; charset=utf-8\r\n"
            "content-length: 11\r\n"
            "connection: close\r\n"
            "date: Thu, 01 Jan 1970 00:00:00 GMT\r\n"
            "\r\n"
            "Bad Request");
}

TEST(SimpleResponse, WritesExactBytesWithoutClose) {
  baton::byte_buffer out;
  h::append_simple_response(out, 200, "date: X\r\n", "text/plain", "Hello, World!", false);
  EXPECT_EQ(out.view(),
            "HTTP/1.1 200 OK\r\n"
            "content-type: text/plain\r\n"
            "content-length: 13\r\n"
            "date: X\r\n"
            "\r\n"
            "Hello, World!");
}

TEST(SimpleResponse, HeadOnlyKeepsContentLengthButOmitsBody) {
  baton::byte_buffer out;
  h::append_simple_response(out, 404, "date: X\r\n", "text/plain", "Not Found", false, true);
  EXPECT_EQ(out.view(),
            "HTTP/1.1 404 Not Found\r\n"
            "content-type: text/plain\r\n"
            "content-length: 9\r\n"
            "date: X\r\n"
            "\r\n");
}

TEST(SimpleResponse, AppendsAfterExistingBytes) {
  baton::byte_buffer out;
  out.append("previous");
  h::append_simple_response(out, 413, "date: X\r\n", "text/plain", "", true);
  EXPECT_EQ(out.view(),
            "previous"
            "HTTP/1.1 413 Content Too Large\r\n"
            "content-type: text/plain\r\n"
            "content-length: 0\r\n"
            "connection: close\r\n"
            "date: X\r\n"
            "\r\n");
}

}  // namespace
