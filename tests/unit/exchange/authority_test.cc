// Unit tests for the host syntax check (src/core/exchange/authority.h).
//
// Every input is handed over in a heap block of exactly its size, so under
// AddressSanitizer a read past the end of the view crashes the test.
#include "core/exchange/authority.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "support/exact_bytes.h"

namespace {

using baton::test::exact_bytes;
using baton::test::printable;
using namespace std::string_literals;
namespace h = baton::exchange;

struct checked {
  bool ok = false;
  std::string host, port;
  bool has_port = false;
};

checked check(std::string_view text) {
  exact_bytes bytes(text);
  h::host_and_port parts;
  checked c;
  c.ok = h::parse_host_and_port(std::string_view(bytes.show(text.size()), text.size()), parts);
  if (c.ok) {
    c.host = parts.host;
    c.port = parts.port;
    c.has_port = parts.has_port;
  }
  return c;
}

TEST(Host, AcceptsNamesAddressesAndPorts) {
  struct expectation {
    const char* text;
    const char* host;
    const char* port;
    bool has_port;
  };
  const expectation cases[] = {
      {"example.com", "example.com", "", false},
      {"example.com:80", "example.com", "80", true},
      {"127.0.0.1", "127.0.0.1", "", false},
      {"127.0.0.1:8000", "127.0.0.1", "8000", true},
      {"xn--bcher-kva.example", "xn--bcher-kva.example", "", false},
      {"[::1]", "[::1]", "", false},
      {"[::1]:8080", "[::1]", "8080", true},
      {"[2001:db8::7]", "[2001:db8::7]", "", false},
      {"[2001:0db8:0000:0000:0000:ff00:0042:8329]", "[2001:0db8:0000:0000:0000:ff00:0042:8329]", "", false},
      {"[::ffff:192.0.2.1]:443", "[::ffff:192.0.2.1]", "443", true},
      {"[1:2:3:4:5:6:1.2.3.4]", "[1:2:3:4:5:6:1.2.3.4]", "", false},
      {"[1:2:3:4:5:6:7::]", "[1:2:3:4:5:6:7::]", "", false},
      {"[::2:3:4:5:6:7:8]", "[::2:3:4:5:6:7:8]", "", false},
      {"[::]", "[::]", "", false},
      {"[v1.fe80::a+en1]", "[v1.fe80::a+en1]", "", false},
      // RFC 3986 section 3.2.2: pct-encoded octets and sub-delims are reg-name.
      {"ex%41mple.com", "ex%41mple.com", "", false},
      {"a!$&'()*+,;=b", "a!$&'()*+,;=b", "", false},
      {"under_score~tilde", "under_score~tilde", "", false},
      // port = *DIGIT: the digits may be absent.
      {"example.com:", "example.com", "", true},
      // RFC 9112 section 3.2: an empty Host is allowed.
      {"", "", "", false},
      {":80", "", "80", true},
  };
  for (const expectation& e : cases) {
    SCOPED_TRACE(e.text);
    checked c = check(e.text);
    ASSERT_TRUE(c.ok);
    EXPECT_EQ(c.host, e.host);
    EXPECT_EQ(c.port, e.port);
    EXPECT_EQ(c.has_port, e.has_port);
  }
}

TEST(Host, RejectsWhatIsNotUriHostAndPort) {
  const std::string cases[] = {
      "a b/c@d",       // space, '/', userinfo
      "a:b:c",         // a second ':' and a port that is not digits
      "a\xff",         // obs-text
      "user@example.com",
      "example.com/path",
      "example.com?q",
      "example.com#f",
      "example.com:8o",
      "example.com:80:80",
      "exa mple.com",
      "exa\tmple.com",
      "example.com\x7f",
      "a\0b"s,
      "ex%4mple.com",  // a truncated pct-encoding
      "ex%zzmple.com",
      "ex%",
      "ex%4",
      "\"quoted\"",
      "a<b>",
      "a\\b",
      "a[b]",
      "[::1",          // unclosed IP-literal
      "[::1]x",
      "[::1]:8o",
      "[]",
      "[example.com]",
      "[127.0.0.1]",   // IPv4 is not an IP-literal
      "[::1%eth0]",    // zone identifiers are not part of RFC 3986
      "[1:2:3:4:5:6:7:8:9]",
      "[1:2:3:4:5:6:7]",
      "[1:2:3:4:5:6:7:8::]",
      "[1::2::3]",
      "[:::]",
      "[:1::]",
      "[1::2:]",
      "[12345::]",
      "[g::]",
      "[1.2.3.4::]",
      "[::1.2.3]",
      "[::1.2.3.256]",
      "[::01.2.3.4]",
      "[::1.2.3.4.5]",
      "[1:2:3:4:5:6:7:1.2.3.4]",
      "[v.x]",         // IPvFuture needs hex digits after 'v'
      "[v1.]",
      "[v1x]",
      "[v1.a/b]",
  };
  for (const std::string& text : cases) {
    EXPECT_FALSE(check(text).ok) << printable(text);
  }
}

}  // namespace
