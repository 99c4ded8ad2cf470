// Unit tests for a request head sent as a field section with pseudo-fields (HTTP/2's and HTTP/3's) and RFC 9113's rules about it
// (src/core/exchange/pseudo_head.h), with no nghttp2: the fields are handed
// over one by one, as HPACK would decode them.
#include "core/exchange/pseudo_head.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/exchange/head.h"

namespace {

namespace x = baton::exchange;
using fields_list = std::vector<std::pair<std::string, std::string>>;

const fields_list get_root = {{":method", "GET"}, {":scheme", "https"}, {":path", "/"}, {":authority", "example.com"}};

fields_list with(fields_list base, const fields_list& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

void feed(x::pseudo_head& head, const fields_list& fields, const x::pseudo_limits& limits = {}) {
  for (const auto& [name, value] : fields) head.add(name, value, limits);
}

// What describe() gives the exchange, with its views copied out.
struct described {
  x::request_head head;
  std::vector<x::field> views;
  fields_list fields;
  std::string method, target, path, query, authority;
};

described describe(x::pseudo_head& head, bool body_ends) {
  described d;
  head.describe(body_ends, 2, d.head, d.views);
  for (size_t i = 0; i < d.head.field_count; ++i) {
    d.fields.emplace_back(d.head.fields[i].name, d.head.fields[i].value);
  }
  d.method = d.head.method;
  d.target = d.head.target;
  d.path = d.head.path;
  d.query = d.head.query;
  d.authority = d.head.authority;
  return d;
}

// The status and reason of refusal(), 0 and null when the head is not refused.
std::pair<int, const char*> refusal(const x::pseudo_head& head, const x::pseudo_limits& limits = {}) {
  int status = 0;
  const char* why = head.refusal(limits, status);
  return {why == nullptr ? 0 : status, why};
}

int refusal_status(const fields_list& fields, const x::pseudo_limits& limits = {}) {
  x::pseudo_head head;
  feed(head, fields, limits);
  EXPECT_EQ(head.malformed(true), nullptr);
  return refusal(head, limits).first;
}

const char* malformed(const fields_list& fields, bool body_ends = false) {
  x::pseudo_head head;
  feed(head, fields);
  return head.malformed(body_ends);
}

// --- cookies (RFC 9113 8.2.3) ------------------------------------------------

TEST(Http2RequestHead, CookieCrumbsAreJoinedWithSemicolonSpaceIntoOneFieldWhereTheFirstWas) {
  x::pseudo_head head;
  feed(head, with(get_root, {{"accept", "*/*"}, {"cookie", "a=1"}, {"x-between", "y"}, {"cookie", "b=2"},
                             {"cookie", "c=3"}, {"x-last", "z"}}));
  ASSERT_EQ(head.malformed(true), nullptr);
  described d = describe(head, true);
  fields_list expected = {{"host", "example.com"}, {"accept", "*/*"}, {"cookie", "a=1; b=2; c=3"},
                          {"x-between", "y"}, {"x-last", "z"}};
  EXPECT_EQ(d.fields, expected);
}

TEST(Http2RequestHead, ASingleCookieFieldIsPassedOnUntouched) {
  x::pseudo_head head;
  feed(head, with(get_root, {{"cookie", "a=1;b=2;  c"}, {"x-after", "y"}}));
  ASSERT_EQ(head.malformed(true), nullptr);
  described d = describe(head, true);
  fields_list expected = {{"host", "example.com"}, {"cookie", "a=1;b=2;  c"}, {"x-after", "y"}};
  EXPECT_EQ(d.fields, expected);
}

// --- host and :authority (RFC 9113 8.3.1) ------------------------------------

TEST(Http2RequestHead, AHostFieldIsMadeFromTheAuthorityWhenTheClientSentNone) {
  x::pseudo_head head;
  feed(head, with(get_root, {{"accept", "*/*"}}));
  ASSERT_EQ(head.malformed(true), nullptr);
  EXPECT_EQ(refusal(head).first, 0);
  described d = describe(head, true);
  fields_list expected = {{"host", "example.com"}, {"accept", "*/*"}};
  EXPECT_EQ(d.fields, expected);
  EXPECT_EQ(d.authority, "example.com");
}

TEST(Http2RequestHead, AHostFieldTheClientSentIsKeptAndNoSecondIsMade) {
  x::pseudo_head head;
  feed(head, with(get_root, {{"accept", "*/*"}, {"host", "example.com"}}));
  ASSERT_EQ(head.malformed(true), nullptr);
  EXPECT_EQ(refusal(head).first, 0);
  described d = describe(head, true);
  fields_list expected = {{"accept", "*/*"}, {"host", "example.com"}};
  EXPECT_EQ(d.fields, expected);
}

TEST(Http2RequestHead, AHostThatNamesAnotherOriginThanTheAuthorityIsRefusedWith400) {
  EXPECT_EQ(refusal_status(with(get_root, {{"host", "other.example"}})), 400);
  EXPECT_EQ(refusal_status(with(get_root, {{"host", "example.com:8443"}})), 400);
}

TEST(Http2RequestHead, AHostThatDiffersFromTheAuthorityOnlyInLetterCaseIsAccepted) {
  EXPECT_EQ(refusal_status(with(get_root, {{"host", "EXAMPLE.com"}})), 0);
}

TEST(Http2RequestHead, UserinfoInTheAuthorityIsRefusedWith400) {
  fields_list fields = {
      {":method", "GET"}, {":scheme", "https"}, {":path", "/"}, {":authority", "user:pw@example.com"}};
  x::pseudo_head head;
  feed(head, fields);
  ASSERT_EQ(head.malformed(true), nullptr);
  auto [status, why] = refusal(head);
  EXPECT_EQ(status, 400);
  EXPECT_STREQ(why, "userinfo in :authority");
}

TEST(Http2RequestHead, AnAuthorityThatIsNoHostAndPortIsRefusedWith400) {
  for (const char* authority : {"exa mple.com", "example.com:80x", "[::1", "[not-an-address]:80", "a/b"}) {
    fields_list fields = {{":method", "GET"}, {":scheme", "https"}, {":path", "/"}, {":authority", authority}};
    EXPECT_EQ(refusal_status(fields), 400) << authority;
  }
  fields_list fine = {{":method", "GET"}, {":scheme", "https"}, {":path", "/"}, {":authority", "[::1]:8443"}};
  EXPECT_EQ(refusal_status(fine), 0);
}

TEST(Http2RequestHead, WithoutAnAuthorityAnInvalidHostFieldIsRefusedWith400) {
  fields_list no_authority = {{":method", "GET"}, {":scheme", "https"}, {":path", "/"}};
  EXPECT_EQ(refusal_status(with(no_authority, {{"host", "bad host"}})), 400);
  EXPECT_EQ(refusal_status(with(no_authority, {{"host", "example.com:80"}})), 0);
}

// --- limits ------------------------------------------------------------------

TEST(Http2RequestHead, MoreFieldsThanMaxFieldsAreRefusedWith431AndPseudoFieldsDoNotCount) {
  x::pseudo_limits limits;
  limits.max_fields = 3;
  fields_list three = with(get_root, {{"a", "1"}, {"b", "2"}, {"c", "3"}});
  EXPECT_EQ(refusal_status(three, limits), 0);
  x::pseudo_head head;
  feed(head, with(three, {{"d", "4"}}), limits);
  ASSERT_EQ(head.malformed(true), nullptr);
  auto [status, why] = refusal(head, limits);
  EXPECT_EQ(status, 431);
  EXPECT_STREQ(why, "more header fields than --max-headers");
}

TEST(Http2RequestHead, CookieCrumbsCountAsOneFieldAgainstMaxFields) {
  x::pseudo_limits limits;
  limits.max_fields = 2;
  fields_list crumbs = with(get_root, {{"cookie", "a=1"}, {"cookie", "b=2"}, {"cookie", "c=3"}, {"accept", "*/*"}});
  EXPECT_EQ(refusal_status(crumbs, limits), 0);
  EXPECT_EQ(refusal_status(with(crumbs, {{"x-third", "y"}}), limits), 431);
}

TEST(Http2RequestHead, AHeaderListOverMaxListBytesIsRefusedWith431) {
  // RFC 9113 6.5.2's measure: each field's name and value and 32 octets.
  fields_list fields = with(get_root, {{"x-pad", std::string(100, 'p')}});
  uint64_t measure = 0;
  for (const auto& [name, value] : fields) measure += name.size() + value.size() + 32;
  x::pseudo_limits exact;
  exact.max_list_bytes = measure;
  EXPECT_EQ(refusal_status(fields, exact), 0);
  x::pseudo_limits under;
  under.max_list_bytes = measure - 1;
  x::pseudo_head head;
  feed(head, fields, under);
  auto [status, why] = refusal(head, under);
  EXPECT_EQ(status, 431);
  EXPECT_STREQ(why, "header list over the size limit");
}

// --- malformed requests (RFC 9113 8.2.2, 8.1.1) ------------------------------

TEST(Http2RequestHead, EachConnectionSpecificFieldMakesTheRequestMalformed) {
  const fields_list connection_specific = {{"connection", "close"},        {"keep-alive", "timeout=5"},
                                           {"proxy-connection", "keep-alive"}, {"transfer-encoding", "chunked"},
                                           {"upgrade", "websocket"},       {"te", "gzip"},
                                           {"te", "trailers, gzip"}};
  for (const auto& field : connection_specific) {
    const char* why = malformed(with(get_root, {field}));
    EXPECT_STREQ(why, "a connection-specific field") << field.first << ": " << field.second;
  }
}

TEST(Http2RequestHead, TeTrailersIsAllowed) {
  EXPECT_EQ(malformed(with(get_root, {{"te", "trailers"}})), nullptr);
  EXPECT_EQ(malformed(with(get_root, {{"te", "Trailers"}})), nullptr);
}

TEST(Http2RequestHead, AContentLengthThatIsNotANumberIsMalformed) {
  for (const char* value : {"abc", "", "-1", "1 2", "0x10", "12a"}) {
    EXPECT_STREQ(malformed(with(get_root, {{"content-length", value}})), "an invalid content-length") << value;
  }
}

TEST(Http2RequestHead, TwoDifferentContentLengthsAreMalformedAndTheSameOneTwiceIsNot) {
  EXPECT_STREQ(malformed(with(get_root, {{"content-length", "5"}, {"content-length", "6"}})),
               "an invalid content-length");
  EXPECT_EQ(malformed(with(get_root, {{"content-length", "5"}, {"content-length", "5"}})), nullptr);
}

TEST(Http2RequestHead, AHeadThatEndsTheStreamWithAPositiveContentLengthIsMalformed) {
  EXPECT_STREQ(malformed(with(get_root, {{"content-length", "5"}}), true),
               "its body is shorter than its content-length");
  EXPECT_EQ(malformed(with(get_root, {{"content-length", "0"}}), true), nullptr);
  EXPECT_EQ(malformed(with(get_root, {{"content-length", "5"}}), false), nullptr);
}

TEST(Http2RequestHead, TheContentLengthIsReadAndGivenToTheExchangeUnlessTheHeadEndsTheStream) {
  x::pseudo_head sent;
  feed(sent, with(get_root, {{"content-length", "1234"}}));
  ASSERT_EQ(sent.malformed(false), nullptr);
  EXPECT_EQ(sent.content_length(), 1234);
  EXPECT_EQ(describe(sent, false).head.content_length, 1234);

  x::pseudo_head none;
  feed(none, get_root);
  ASSERT_EQ(none.malformed(false), nullptr);
  EXPECT_EQ(none.content_length(), -1);
  EXPECT_EQ(describe(none, false).head.content_length, -1) << "a body without a length ends with the stream";

  x::pseudo_head ended;
  feed(ended, get_root);
  ASSERT_EQ(ended.malformed(true), nullptr);
  EXPECT_EQ(describe(ended, true).head.content_length, 0);
}

// --- the exchange's view -----------------------------------------------------

TEST(Http2RequestHead, TheRequestLineComesFromThePseudoFields) {
  x::pseudo_head head;
  feed(head, {{":method", "HEAD"}, {":scheme", "https"}, {":path", "/a/b?x=1&y"}, {":authority", "example.com"}});
  ASSERT_EQ(head.malformed(true), nullptr);
  described d = describe(head, true);
  EXPECT_EQ(d.method, "HEAD");
  EXPECT_EQ(d.target, "/a/b?x=1&y");
  EXPECT_EQ(d.path, "/a/b");
  EXPECT_EQ(d.query, "x=1&y");
  EXPECT_TRUE(d.head.is_head);
  EXPECT_EQ(d.head.form, x::target_form::origin);
  EXPECT_EQ(d.head.version_major, 2);
  EXPECT_EQ(d.head.version_minor, 0);
}

TEST(Http2RequestHead, ConnectIsAuthorityForm) {
  x::pseudo_head head;
  feed(head, {{":method", "CONNECT"}, {":authority", "example.com:443"}});
  ASSERT_EQ(head.malformed(false), nullptr);
  described d = describe(head, false);
  EXPECT_EQ(d.head.form, x::target_form::authority);
  EXPECT_EQ(d.authority, "example.com:443");
}

TEST(Http2RequestHead, AnAsteriskPathIsAsteriskForm) {
  x::pseudo_head head;
  feed(head, {{":method", "OPTIONS"}, {":scheme", "https"}, {":path", "*"}, {":authority", "example.com"}});
  ASSERT_EQ(head.malformed(true), nullptr);
  EXPECT_EQ(describe(head, true).head.form, x::target_form::asterisk);
}

TEST(Http2RequestHead, TheViewsOfDescribePointIntoBytes) {
  x::pseudo_head head;
  feed(head, with(get_root, {{"cookie", "a=1"}, {"accept", "*/*"}, {"cookie", "b=2"}}));
  ASSERT_EQ(head.malformed(true), nullptr);
  x::request_head h;
  std::vector<x::field> fields;
  head.describe(true, 2, h, fields);
  const baton::byte_buffer& bytes = head.bytes();
  auto inside = [&](std::string_view v) {
    return v.data() >= bytes.data() && v.data() + v.size() <= bytes.data() + bytes.size();
  };
  EXPECT_TRUE(inside(h.method));
  EXPECT_TRUE(inside(h.target));
  EXPECT_TRUE(inside(h.path));
  EXPECT_TRUE(inside(h.authority));
  ASSERT_EQ(h.field_count, 3u);
  // The host field made from :authority has a constant name and the
  // authority's bytes as its value; every other view is in bytes().
  EXPECT_EQ(h.fields[0].name, "host");
  EXPECT_TRUE(inside(h.fields[0].value));
  for (size_t i = 1; i < h.field_count; ++i) {
    EXPECT_TRUE(inside(h.fields[i].name)) << i;
    EXPECT_TRUE(inside(h.fields[i].value)) << i;
  }
  EXPECT_EQ(h.fields[1].value, "a=1; b=2");
}

}  // namespace

namespace {

const char* malformed_without(const std::string& pseudo) {
  x::pseudo_head head;
  fields_list fields;
  for (const auto& f : get_root) {
    if (f.first != pseudo) fields.push_back(f);
  }
  feed(head, fields);
  return head.malformed(true);
}

}  // namespace

TEST(Http2RequestHead, ARequestWithoutItsMethodSchemeOrPathIsMalformed) {
  // Baton's own rule (RFC 9113 8.3.1), whether or not nghttp2 checks it first.
  EXPECT_STREQ(malformed_without(":method"), "no :method");
  EXPECT_STREQ(malformed_without(":scheme"), "no :scheme or no :path");
  EXPECT_STREQ(malformed_without(":path"), "no :scheme or no :path");
  x::pseudo_head empty_path;
  feed(empty_path, {{":method", "GET"}, {":scheme", "https"}, {":path", ""}, {":authority", "example.com"}});
  EXPECT_NE(empty_path.malformed(true), nullptr);
  x::pseudo_head whole;
  feed(whole, get_root);
  EXPECT_EQ(whole.malformed(true), nullptr);
}

TEST(Http2RequestHead, AConnectNeedsAnAuthorityAndNoSchemeOrPath) {
  x::pseudo_head connect;
  feed(connect, {{":method", "CONNECT"}, {":authority", "example.com:443"}});
  EXPECT_EQ(connect.malformed(true), nullptr);
  x::pseudo_head with_path;
  feed(with_path, {{":method", "CONNECT"}, {":authority", "example.com:443"}, {":path", "/"}});
  EXPECT_NE(with_path.malformed(true), nullptr);
  x::pseudo_head no_authority;
  feed(no_authority, {{":method", "CONNECT"}});
  EXPECT_NE(no_authority.malformed(true), nullptr);
}

// RFC 8441 section 4: an extended CONNECT carries :protocol and, unlike a
// plain CONNECT, :scheme and :path; it is an origin-form request for that
// path, and :protocol on any other method is malformed.
TEST(Http2RequestHead, AnExtendedConnectNamesItsProtocolSchemeAndPath) {
  x::pseudo_head head;
  feed(head, {{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "https"}, {":path", "/chat?room=1"},
              {":authority", "example.com"}, {"sec-websocket-version", "13"}});
  ASSERT_EQ(head.malformed(false), nullptr);
  described d = describe(head, false);
  EXPECT_EQ(d.head.protocol, "websocket");
  EXPECT_EQ(d.head.form, x::target_form::origin);
  EXPECT_EQ(d.head.path, "/chat");
  EXPECT_EQ(d.head.query, "room=1");
  EXPECT_EQ(d.head.method, "CONNECT");
}

TEST(Http2RequestHead, AnExtendedConnectWithoutItsPseudoFieldsOrAProtocolOffConnectIsMalformed) {
  x::pseudo_head no_path;
  feed(no_path, {{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "https"}, {":authority", "a"}});
  EXPECT_NE(no_path.malformed(false), nullptr);
  x::pseudo_head no_authority;
  feed(no_authority, {{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "https"}, {":path", "/"}});
  EXPECT_NE(no_authority.malformed(false), nullptr);
  x::pseudo_head on_get;
  feed(on_get, {{":method", "GET"}, {":protocol", "websocket"}, {":scheme", "https"}, {":path", "/"},
                {":authority", "a"}});
  EXPECT_NE(on_get.malformed(true), nullptr);
  x::pseudo_head plain_get;
  feed(plain_get, {{":method", "GET"}, {":scheme", "https"}, {":path", "/"}, {":authority", "a"}});
  EXPECT_EQ(plain_get.malformed(true), nullptr);
  EXPECT_TRUE(describe(plain_get, true).head.protocol.empty());
}
