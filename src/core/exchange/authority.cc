#include "core/exchange/authority.h"

#include <array>
#include <cstddef>

namespace baton::exchange {
namespace {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// unreserved / sub-delims (RFC 3986 section 2): every octet a reg-name may
// hold as itself. The only other thing it may hold is a pct-encoded triplet.
constexpr std::array<bool, 256> make_reg_name_table() {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (char c : std::string_view("-._~!$&'()*+,;=")) t[static_cast<unsigned char>(c)] = true;
  return t;
}

constexpr auto reg_name_table = make_reg_name_table();

bool is_reg_name_char(char c) { return reg_name_table[static_cast<unsigned char>(c)]; }

bool is_reg_name(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (is_reg_name_char(s[i])) continue;
    if (s[i] == '%' && i + 2 < s.size() && is_hex_digit(s[i + 1]) && is_hex_digit(s[i + 2])) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

// IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet, where a
// dec-octet is 0-255 without leading zeros.
bool is_ipv4_address(std::string_view s) {
  size_t i = 0;
  for (int octet = 0; octet < 4; ++octet) {
    if (octet > 0) {
      if (i == s.size() || s[i] != '.') return false;
      ++i;
    }
    size_t start = i;
    int value = 0;
    while (i < s.size() && i - start < 3 && is_digit(s[i])) {
      value = value * 10 + (s[i] - '0');
      ++i;
    }
    size_t digits = i - start;
    if (digits == 0 || value > 255 || (digits > 1 && s[start] == '0')) return false;
  }
  return i == s.size();
}

// h16 = 1*4HEXDIG
bool is_h16(std::string_view s) {
  if (s.empty() || s.size() > 4) return false;
  for (char c : s) {
    if (!is_hex_digit(c)) return false;
  }
  return true;
}

// The number of 16-bit pieces in a ':'-separated run of h16, the part of an
// IPv6 address on one side of "::". When `may_end_in_ipv4`, the run's last
// element may be a dotted IPv4 address, which stands for two pieces.
// Returns -1 for any other shape, an empty element included.
int count_pieces(std::string_view run, bool may_end_in_ipv4) {
  if (run.empty()) return 0;
  int pieces = 0;
  while (pieces <= 8) {
    size_t colon = run.find(':');
    std::string_view element = run.substr(0, colon);
    if (colon == std::string_view::npos) {
      if (may_end_in_ipv4 && element.find('.') != std::string_view::npos) {
        return is_ipv4_address(element) ? pieces + 2 : -1;
      }
      return is_h16(element) ? pieces + 1 : -1;
    }
    if (!is_h16(element)) return -1;
    ++pieces;
    run.remove_prefix(colon + 1);
  }
  return -1;  // longer than any address
}

// RFC 3986's IPv6address: eight pieces, or fewer with one "::" standing for
// at least one zero piece.
bool is_ipv6_address(std::string_view s) {
  size_t gap = s.find("::");
  if (gap == std::string_view::npos) return count_pieces(s, true) == 8;
  int before = count_pieces(s.substr(0, gap), false);
  int after = count_pieces(s.substr(gap + 2), true);
  return before >= 0 && after >= 0 && before + after <= 7;
}

// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
bool is_ipv_future(std::string_view s) {
  if (s.empty() || (s[0] != 'v' && s[0] != 'V')) return false;
  size_t i = 1;
  while (i < s.size() && is_hex_digit(s[i])) ++i;
  if (i == 1 || i == s.size() || s[i] != '.') return false;
  ++i;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (!is_reg_name_char(s[i]) && s[i] != ':') return false;
  }
  return true;
}

}  // namespace

bool parse_host_and_port(std::string_view text, host_and_port& out) {
  std::string_view rest;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos) return false;
    std::string_view literal = text.substr(1, close - 1);
    if (!is_ipv6_address(literal) && !is_ipv_future(literal)) return false;
    out.host = text.substr(0, close + 1);
    rest = text.substr(close + 1);
  } else {
    // A reg-name holds no ':', so the first one starts the port.
    size_t colon = text.find(':');
    out.host = text.substr(0, colon);
    if (!is_reg_name(out.host)) return false;
    if (colon != std::string_view::npos) rest = text.substr(colon);
  }
  out.has_port = !rest.empty();
  out.port = {};
  if (rest.empty()) return true;
  if (rest.front() != ':') return false;
  out.port = rest.substr(1);
  for (char c : out.port) {
    if (!is_digit(c)) return false;
  }
  return true;
}

}  // namespace baton::exchange
