// Unit tests for HTTP/1.1's response wire (src/core/http1/encoder.h): the
// Date line, chunk framing, the connection's own answers, and the head the
// encoder writes for an exchange's response.
#include "core/http1/encoder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "core/exchange/head.h"

namespace {

using namespace std::string_literals;
using namespace std::string_view_literals;
namespace h = baton::http1;

TEST(DateCache, FormatsEpochAsImfFixdateLine) {
  baton::util::date_cache dates;
  EXPECT_EQ(dates.line(0), "date: Thu, 01 Jan 1970 00:00:00 GMT\r\n");
}

TEST(DateCache, FormatsKnownInstantsAsImfFixdateLines) {
  baton::util::date_cache dates;
  EXPECT_EQ(dates.line(784111777), "date: Sun, 06 Nov 1994 08:49:37 GMT\r\n");  // RFC 9110's example
  EXPECT_EQ(dates.line(951782400), "date: Tue, 29 Feb 2000 00:00:00 GMT\r\n");
  EXPECT_EQ(dates.line(1700000000), "date: Tue, 14 Nov 2023 22:13:20 GMT\r\n");
  EXPECT_EQ(dates.line(4102444799), "date: Thu, 31 Dec 2099 23:59:59 GMT\r\n");
}

TEST(DateCache, LineChangesOnlyWhenTheSecondChanges) {
  baton::util::date_cache dates;
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
  baton::util::date_cache dates;
  std::string_view a = dates.line(1234567890);
  std::string_view b = dates.line(1234567890);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(b, "date: Fri, 13 Feb 2009 23:31:30 GMT\r\n");
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

TEST(EndBody, WritesTheLastChunkAloneWithoutTrailers) {
  h::encoder e("");
  baton::exchange::response_state r;
  baton::byte_buffer out;
  e.end_body(r, out);
  EXPECT_EQ(out.view(), "0\r\n\r\n");
}

TEST(EndBody, WritesTheTrailerSectionAfterTheLastChunkInOrder) {
  h::encoder e("");
  baton::exchange::response_state r;
  r.trailers.add("X-Checksum", "c1");
  r.trailers.add("grpc-status", "0");
  baton::byte_buffer out;
  e.end_body(r, out);
  EXPECT_EQ(out.view(), "0\r\nX-Checksum: c1\r\ngrpc-status: 0\r\n\r\n");
  r.reset();
  EXPECT_TRUE(r.trailers.empty());  // a kept-alive connection's next response starts without them
}

TEST(Interim, AnHttp11ClientGetsA103WithEachFieldOnItsOwnLine) {
  h::encoder e("baton");
  baton::exchange::field_list fields;
  fields.add("Link", "</a.css>; rel=preload; as=style");
  fields.add("link", "</b.js>; rel=preload; as=script");
  baton::exchange::request_head request;
  baton::byte_buffer out;
  EXPECT_EQ(e.write_interim(103, fields, request, out), baton::exchange::interim_result::written);
  EXPECT_EQ(out.view(),
            "HTTP/1.1 103 Early Hints\r\n"
            "Link: </a.css>; rel=preload; as=style\r\n"
            "link: </b.js>; rel=preload; as=script\r\n"
            "\r\n");
}

TEST(Interim, AnHttp10ClientGetsNone) {
  h::encoder e("");
  baton::exchange::field_list fields;
  fields.add("link", "</a.css>; rel=preload");
  baton::exchange::request_head request;
  request.version_minor = 0;
  baton::byte_buffer out;
  EXPECT_EQ(e.write_interim(103, fields, request, out), baton::exchange::interim_result::not_sent);
  EXPECT_TRUE(out.empty());
}

}  // namespace

namespace {

namespace x = baton::exchange;

// The head `wire` writes for a 200 with `fields` (the app's), as text.
std::string head_of(const h::encoder& wire, std::initializer_list<std::pair<std::string_view, std::string_view>> fields,
                    bool app_server = false, bool app_alt_svc = false) {
  x::request_head request;
  x::response_state r;
  r.status = 200;
  r.status_line = "200 OK";
  for (auto [n, v] : fields) r.fields.add(n, v);
  r.length = 0;
  r.app_date = true;
  r.app_server = app_server;
  r.app_alt_svc = app_alt_svc;
  x::commit_facts facts{request, true, false, 0, true};
  baton::byte_buffer out;
  wire.write_head(r, facts, out);
  return std::string(out.view());
}

TEST(EncoderHead, AddsTheServerAndTheListenersAltSvcAfterTheAppsFields) {
  h::encoder wire("baton", "h3=\":8443\"; ma=86400");
  EXPECT_EQ(head_of(wire, {{"Content-Length", "0"}}),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nserver: baton\r\nalt-svc: h3=\":8443\"; ma=86400\r\n\r\n");
}

TEST(EncoderHead, WithoutAnAltSvcOnlyTheServerIsAdded) {
  h::encoder wire("baton");
  EXPECT_EQ(head_of(wire, {{"Content-Length", "0"}}), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nserver: baton\r\n\r\n");
}

TEST(EncoderHead, TheAppsOwnAltSvcOrServerWinsAndIsNotDoubled) {
  h::encoder wire("baton", "h3=\":8443\"");
  EXPECT_EQ(head_of(wire, {{"Content-Length", "0"}, {"Alt-Svc", "clear"}}, false, true),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nAlt-Svc: clear\r\nserver: baton\r\n\r\n");
  EXPECT_EQ(head_of(wire, {{"Content-Length", "0"}, {"Server", "mine"}}, true, false),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nServer: mine\r\nalt-svc: h3=\":8443\"\r\n\r\n");
}

}  // namespace
