#include "core/net/proxy_protocol.h"

#include <gtest/gtest.h>

#include <string>

namespace pp = baton::net::proxy_protocol;

namespace {

const std::string v2_signature("\r\n\r\n\0\r\nQUIT\n", 12);

// A v2 header: `version_command`, `family_transport`, then `body` (the
// address block and any TLVs), its length as declared unless `declared` is given.
std::string v2(uint8_t version_command, uint8_t family_transport, const std::string& body, int declared = -1) {
  size_t length = declared < 0 ? body.size() : static_cast<size_t>(declared);
  std::string h = v2_signature;
  h += static_cast<char>(version_command);
  h += static_cast<char>(family_transport);
  h += static_cast<char>(length >> 8);
  h += static_cast<char>(length & 0xff);
  return h + body;
}

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += static_cast<char>(v);
  return s;
}

// 192.0.2.1:56324 -> 198.51.100.7:443
std::string inet_block() { return bytes({192, 0, 2, 1, 198, 51, 100, 7, 0xdc, 0x04, 0x01, 0xbb}); }

std::string inet6_block() {
  std::string b = bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  b += bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  return b + bytes({0x30, 0x39, 0x00, 0x50});  // 12345 -> 80
}

pp::result parse(const std::string& s) { return pp::parse(s); }

void expect_error(const std::string& input, const char* what) {
  pp::result r = parse(input);
  EXPECT_EQ(r.state, pp::status::error) << what;
  EXPECT_NE(r.reason, nullptr) << what;
}

// Every proper prefix of a header needs more; the whole is done, and the
// request after it is not part of it.
void expect_complete_only_at_end(const std::string& header) {
  std::string with_request = header + "GET / HTTP/1.1\r\n\r\n";
  for (size_t i = 0; i < header.size(); ++i) {
    ASSERT_EQ(pp::parse(std::string_view(with_request).substr(0, i)).state, pp::status::need_more) << i;
  }
  pp::result r = parse(with_request);
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.consumed, header.size());
}

}  // namespace

TEST(ProxyProtocolV1, Tcp4NamesTheClientAndTheServer) {
  std::string h = "PROXY TCP4 192.0.2.1 198.51.100.7 56324 443\r\n";
  pp::result r = parse(h + "GET / HTTP/1.1\r\n");
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.consumed, h.size());
  EXPECT_FALSE(r.keep_socket_addresses);
  EXPECT_EQ(r.source.address(), "192.0.2.1");
  EXPECT_EQ(r.source.port, 56324);
  EXPECT_EQ(r.destination.address(), "198.51.100.7");
  EXPECT_EQ(r.destination.port, 443);
}

TEST(ProxyProtocolV1, Tcp6AddressesComeOutInCanonicalForm) {
  pp::result r = parse("PROXY TCP6 2001:DB8:0:0::1 ::ffff:192.0.2.9 65535 0\r\n");
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.source.address(), "2001:db8::1");
  EXPECT_EQ(r.source.port, 65535);
  EXPECT_EQ(r.destination.address(), "::ffff:192.0.2.9");
  EXPECT_EQ(r.destination.port, 0);
}

TEST(ProxyProtocolV1, TheLongestLinesAreTaken) {
  std::string addresses = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535";
  pp::result tcp6 = parse("PROXY TCP6 " + addresses + "\r\n");
  ASSERT_EQ(tcp6.state, pp::status::done);
  EXPECT_EQ(tcp6.consumed, 104u);
  // The spec's worst case: UNKNOWN with the longest TCP6 fields after it.
  std::string unknown = "PROXY UNKNOWN " + addresses + "\r\n";
  ASSERT_EQ(unknown.size(), pp::max_v1_length);
  EXPECT_EQ(parse(unknown).state, pp::status::done);
}

TEST(ProxyProtocolV1, UnknownKeepsTheSocketAddressesAndIgnoresTheRest) {
  pp::result bare = parse("PROXY UNKNOWN\r\n");
  ASSERT_EQ(bare.state, pp::status::done);
  EXPECT_TRUE(bare.keep_socket_addresses);
  EXPECT_EQ(bare.consumed, 15u);
  pp::result with_rest = parse("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\nX");
  ASSERT_EQ(with_rest.state, pp::status::done);
  EXPECT_TRUE(with_rest.keep_socket_addresses);
  EXPECT_EQ(with_rest.consumed, 35u);
}

TEST(ProxyProtocolV1, ByteAtATimeNeedsMoreUntilTheCrlf) {
  expect_complete_only_at_end("PROXY TCP4 10.1.2.3 10.4.5.6 1 2\r\n");
  expect_complete_only_at_end("PROXY TCP6 ::1 ::2 1000 2000\r\n");
  expect_complete_only_at_end("PROXY UNKNOWN\r\n");
}

TEST(ProxyProtocolV1, MalformedLinesAreRefused) {
  expect_error("PROXY TCP5 1.2.3.4 1.2.3.5 1 2\r\n", "unknown protocol");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 1\r\n", "a port missing");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 1 2 3\r\n", "a field too many");
  expect_error("PROXY TCP4  1.2.3.4 1.2.3.5 1 2\r\n", "two spaces");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 1 2 \r\n", "a trailing space");
  expect_error("PROXY TCP4 ::1 ::2 1 2\r\n", "IPv6 under TCP4");
  expect_error("PROXY TCP6 1.2.3.4 1.2.3.5 1 2\r\n", "IPv4 under TCP6");
  expect_error("PROXY TCP4 1.2.3.256 1.2.3.5 1 2\r\n", "an octet past 255");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 65536 2\r\n", "a port past 65535");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 99999 2\r\n", "a port past 65535");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 100000 2\r\n", "six digits");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 -1 2\r\n", "a sign");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 0x50 2\r\n", "hex");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 080 2\r\n", "a leading zero");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 1 2\n", "LF without CR");
  expect_error("PROXY TCP4 1.2.3.4 1.2.3.5 1 2\rX", "CR without LF");
  expect_error("PROXY \r\n", "no protocol");
  expect_error("PROXY UNKNOWNX\r\n", "a protocol that only starts like UNKNOWN");
}

TEST(ProxyProtocolV1, NoCrlfWithin107BytesIsRefused) {
  std::string line = "PROXY UNKNOWN " + std::string(93, 'x');
  ASSERT_EQ(line.size(), pp::max_v1_length);
  expect_error(line, "107 bytes without CRLF");
  // 106 bytes may still end in CRLF; a CR as the 107th byte leaves no room for its LF.
  EXPECT_EQ(parse(line.substr(0, 106)).state, pp::status::need_more);
  expect_error(line.substr(0, 106) + "\r", "a CR as the 107th byte");
  expect_error(line.substr(0, 106) + "\r\n", "a CRLF ending at byte 108");
}

TEST(ProxyProtocolV1, CrlfAtTheLastAllowedByteIsTaken) {
  std::string line = "PROXY UNKNOWN " + std::string(91, 'x') + "\r\n";
  ASSERT_EQ(line.size(), pp::max_v1_length);
  EXPECT_EQ(parse(line).state, pp::status::done);
}

TEST(ProxyProtocol, AnythingElseIsNoHeader) {
  expect_error("GET / HTTP/1.1\r\n", "HTTP/1");
  expect_error("PRI * HTTP/2.0\r\n", "HTTP/2's preface");
  expect_error(std::string("\x16\x03\x01\x02\x00", 5), "a TLS ClientHello");
  expect_error("proxy TCP4", "lower case");
  expect_error(std::string("\r\n\r\n\0\r\nQUIX", 12), "a signature off by one byte");
  EXPECT_EQ(parse("").state, pp::status::need_more);
  EXPECT_EQ(parse("PROX").state, pp::status::need_more);
  EXPECT_EQ(parse(std::string("\r\n\r\n\0", 5)).state, pp::status::need_more);
}

TEST(ProxyProtocolV2, ProxyOverTcp4NamesTheClientAndTheServer) {
  std::string h = v2(0x21, 0x11, inet_block());
  pp::result r = parse(h + "GET /");
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.version, 2);
  EXPECT_EQ(r.consumed, 28u);
  EXPECT_FALSE(r.keep_socket_addresses);
  EXPECT_EQ(r.source.address(), "192.0.2.1");
  EXPECT_EQ(r.source.port, 56324);
  EXPECT_EQ(r.destination.address(), "198.51.100.7");
  EXPECT_EQ(r.destination.port, 443);
}

TEST(ProxyProtocolV2, ProxyOverTcp6NamesTheClientAndTheServer) {
  pp::result r = parse(v2(0x21, 0x21, inet6_block()));
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.consumed, 52u);
  EXPECT_EQ(r.source.address(), "2001:db8::1");
  EXPECT_EQ(r.source.port, 12345);
  EXPECT_EQ(r.destination.address(), "2001:db8::2");
  EXPECT_EQ(r.destination.port, 80);
}

TEST(ProxyProtocolV2, TlvsAfterTheAddressesAreSkipped) {
  // An ALPN TLV (0x01) and a unique-id TLV (0x05), as HAProxy sends them.
  std::string tlvs = bytes({0x01, 0x00, 0x02}) + "h2" + bytes({0x05, 0x00, 0x04}) + "abcd";
  std::string h = v2(0x21, 0x11, inet_block() + tlvs);
  pp::result r = parse(h + "PRI * HTTP/2.0");
  ASSERT_EQ(r.state, pp::status::done);
  EXPECT_EQ(r.consumed, h.size());
  EXPECT_EQ(r.source.address(), "192.0.2.1");
}

TEST(ProxyProtocolV2, LocalKeepsTheSocketAddressesWithOrWithoutABody) {
  pp::result empty = parse(v2(0x20, 0x00, ""));
  ASSERT_EQ(empty.state, pp::status::done);
  EXPECT_TRUE(empty.keep_socket_addresses);
  EXPECT_EQ(empty.consumed, 16u);
  pp::result with_addresses = parse(v2(0x20, 0x11, inet_block() + bytes({0x04, 0x00, 0x00})));
  ASSERT_EQ(with_addresses.state, pp::status::done);
  EXPECT_TRUE(with_addresses.keep_socket_addresses);
  EXPECT_EQ(with_addresses.consumed, 16u + 15u);
}

TEST(ProxyProtocolV2, UnspecifiedAndUnixFamiliesKeepTheSocketAddresses) {
  pp::result unspecified = parse(v2(0x21, 0x00, ""));
  ASSERT_EQ(unspecified.state, pp::status::done);
  EXPECT_TRUE(unspecified.keep_socket_addresses);
  pp::result unix_family = parse(v2(0x21, 0x31, std::string(216, '\0')));
  ASSERT_EQ(unix_family.state, pp::status::done);
  EXPECT_TRUE(unix_family.keep_socket_addresses);
}

TEST(ProxyProtocolV2, ByteAtATimeNeedsMoreUntilTheDeclaredLength) {
  expect_complete_only_at_end(v2(0x21, 0x11, inet_block()));
  expect_complete_only_at_end(v2(0x21, 0x21, inet6_block() + bytes({0x04, 0x00, 0x01, 0x00})));
  expect_complete_only_at_end(v2(0x20, 0x00, ""));
}

TEST(ProxyProtocolV2, MalformedHeadersAreRefused) {
  expect_error(v2(0x11, 0x11, inet_block()), "version 1 in a v2 header");
  expect_error(v2(0x31, 0x11, inet_block()), "version 3");
  expect_error(v2(0x22, 0x11, inet_block()), "command 2");
  expect_error(v2(0x2f, 0x11, inet_block()), "command 15");
  expect_error(v2(0x21, 0x41, inet_block()), "family 4");
  expect_error(v2(0x21, 0xf1, inet_block()), "family 15");
  expect_error(v2(0x21, 0x13, inet_block()), "transport 3");
  expect_error(v2(0x21, 0x12, inet_block()), "UDP over a TCP connection");
  expect_error(v2(0x21, 0x10, inet_block()), "an unspecified transport for TCP4");
  expect_error(v2(0x21, 0x11, inet_block().substr(0, 11)), "TCP4 addresses in 11 bytes");
  expect_error(v2(0x21, 0x21, inet6_block().substr(0, 35)), "TCP6 addresses in 35 bytes");
  expect_error(v2(0x21, 0x21, inet_block()), "TCP6 with TCP4's block");
  expect_error(v2(0x21, 0x31, std::string(100, '\0')), "a Unix block too short");
}

TEST(ProxyProtocolV2, ShortLengthIsRefusedBeforeTheBodyArrives) {
  // Only the 16-byte preamble: the declared length alone tells.
  expect_error(v2(0x21, 0x11, "", 4), "a declared length under the address block");
}

TEST(ProxyProtocolV2, LengthsPastTheCapAreRefusedAtOnce) {
  expect_error(v2(0x21, 0x11, "", 0xffff), "the spec's largest length");
  std::string largest_taken = v2(0x21, 0x11, inet_block() + std::string(pp::max_v2_length - 16 - 12, '\0'));
  EXPECT_EQ(parse(largest_taken).state, pp::status::done);
  expect_error(v2(0x21, 0x11, "", static_cast<int>(pp::max_v2_length - 16 + 1)), "one byte past the cap");
}

TEST(ProxyProtocolV2, ATruncatedHeaderOnlyNeedsMore) {
  std::string h = v2(0x21, 0x11, inet_block());
  EXPECT_EQ(parse(h.substr(0, 20)).state, pp::status::need_more);
}
