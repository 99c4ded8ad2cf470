#include "core/net/proxy_protocol.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <cstring>

namespace baton::net::proxy_protocol {

namespace {

constexpr std::string_view v1_prefix = "PROXY ";
constexpr char v2_signature[12] = {'\r', '\n', '\r', '\n', '\0', '\r', '\n', 'Q', 'U', 'I', 'T', '\n'};
constexpr size_t v2_preamble = 16;

result failed(uint8_t version, const char* reason) {
  result r;
  r.state = status::error;
  r.version = version;
  r.reason = reason;
  return r;
}

// `bytes` (however short) is the start of `whole`.
bool starts_like(std::string_view bytes, std::string_view whole) {
  size_t n = bytes.size() < whole.size() ? bytes.size() : whole.size();
  return std::memcmp(bytes.data(), whole.data(), n) == 0;
}

// --- version 1 ------------------------------------------------------------------

// The next space-separated field of `line` (one space exactly between
// fields, as the spec writes them); false when none is left.
bool next_field(std::string_view& line, std::string_view& field) {
  if (line.empty()) return false;
  size_t space = line.find(' ');
  field = line.substr(0, space);
  line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
  return !field.empty();
}

bool parse_address(std::string_view text, int family, endpoint& out) {
  char copy[46];
  if (text.size() >= sizeof copy) return false;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  unsigned char bytes[16];
  if (inet_pton(family, copy, bytes) != 1) return false;
  // Written back in inet_ntop's form, as an accepted socket's would be.
  if (inet_ntop(family, bytes, out.text, sizeof out.text) == nullptr) return false;
  out.length = static_cast<uint8_t>(strnlen(out.text, sizeof out.text));
  return true;
}

// Decimal, 0 to 65535, no sign and no leading zero.
bool parse_port(std::string_view text, uint16_t& port) {
  if (text.empty() || text.size() > 5 || (text[0] == '0' && text.size() > 1)) return false;
  uint32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  if (value > 65535) return false;
  port = static_cast<uint16_t>(value);
  return true;
}

// The line between "PROXY " and its CRLF.
result parse_v1_line(std::string_view line, size_t consumed) {
  std::string_view protocol;
  if (!next_field(line, protocol)) return failed(1, "PROXY v1: no protocol");
  result r;
  r.version = 1;
  r.consumed = consumed;
  if (protocol == "UNKNOWN") {
    // Whatever follows UNKNOWN is to be ignored; the socket's addresses stand.
    r.state = status::done;
    r.keep_socket_addresses = true;
    return r;
  }
  int family = protocol == "TCP4" ? AF_INET : protocol == "TCP6" ? AF_INET6 : AF_UNSPEC;
  if (family == AF_UNSPEC) return failed(1, "PROXY v1: protocol is not TCP4, TCP6 or UNKNOWN");
  std::string_view source, destination, source_port, destination_port;
  // A trailing space would leave an empty fifth field that next_field cannot see.
  bool trailing_space = !line.empty() && line.back() == ' ';
  if (trailing_space || !next_field(line, source) || !next_field(line, destination) ||
      !next_field(line, source_port) || !next_field(line, destination_port) || !line.empty()) {
    return failed(1, "PROXY v1: not four fields after the protocol");
  }
  if (!parse_address(source, family, r.source) || !parse_address(destination, family, r.destination)) {
    return failed(1, "PROXY v1: an address is not of the protocol's family");
  }
  if (!parse_port(source_port, r.source.port) || !parse_port(destination_port, r.destination.port)) {
    return failed(1, "PROXY v1: a port is not a number from 0 to 65535");
  }
  r.state = status::done;
  return r;
}

result parse_v1(std::string_view bytes) {
  size_t limit = bytes.size() < max_v1_length ? bytes.size() : max_v1_length;
  for (size_t i = v1_prefix.size(); i < limit; ++i) {
    if (bytes[i] == '\n') return failed(1, "PROXY v1: LF without CR");
    if (bytes[i] != '\r') continue;
    if (i + 2 > max_v1_length) break;  // no room left for the LF
    if (i + 1 == bytes.size()) break;  // the LF has not come yet
    if (bytes[i + 1] != '\n') return failed(1, "PROXY v1: CR without LF");
    return parse_v1_line(bytes.substr(v1_prefix.size(), i - v1_prefix.size()), i + 2);
  }
  if (bytes.size() >= max_v1_length) return failed(1, "PROXY v1: no CRLF within 107 bytes");
  result r;
  r.version = 1;
  return r;
}

// --- version 2 ------------------------------------------------------------------

enum : uint8_t { command_local = 0, command_proxy = 1 };
enum : uint8_t { family_unspecified = 0, family_inet = 1, family_inet6 = 2, family_unix = 3 };
enum : uint8_t { transport_unspecified = 0, transport_stream = 1, transport_datagram = 2 };

void take_address(const unsigned char* at, int family, const unsigned char* port, endpoint& out) {
  inet_ntop(family, at, out.text, sizeof out.text);
  out.length = static_cast<uint8_t>(strnlen(out.text, sizeof out.text));
  out.port = static_cast<uint16_t>((port[0] << 8) | port[1]);
}

// The address block of a PROXY command over TCP.
void take_addresses(const unsigned char* block, uint8_t family, result& r) {
  if (family == family_inet) {
    take_address(block, AF_INET, block + 8, r.source);
    take_address(block + 4, AF_INET, block + 10, r.destination);
  } else {
    take_address(block, AF_INET6, block + 32, r.source);
    take_address(block + 16, AF_INET6, block + 34, r.destination);
  }
}

size_t address_block_size(uint8_t family) {
  switch (family) {
    case family_inet:
      return 12;
    case family_inet6:
      return 36;
    case family_unix:
      return 216;
    default:
      return 0;
  }
}

result parse_v2(std::string_view bytes) {
  result r;
  r.version = 2;
  if (bytes.size() < v2_preamble) return r;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  uint8_t version = b[12] >> 4, command = b[12] & 0x0f;
  uint8_t family = b[13] >> 4, transport = b[13] & 0x0f;
  size_t length = (static_cast<size_t>(b[14]) << 8) | b[15];
  if (version != 2) return failed(2, "PROXY v2: version is not 2");
  if (command != command_local && command != command_proxy) {
    return failed(2, "PROXY v2: command is not LOCAL or PROXY");
  }
  if (family > family_unix) return failed(2, "PROXY v2: unknown address family");
  if (transport > transport_datagram) return failed(2, "PROXY v2: unknown transport");
  if (v2_preamble + length > max_v2_length) return failed(2, "PROXY v2: header longer than this server takes");
  bool names_client = command == command_proxy && (family == family_inet || family == family_inet6);
  if (command == command_proxy && length < address_block_size(family)) {
    return failed(2, "PROXY v2: length too short for its addresses");
  }
  if (names_client && transport != transport_stream) return failed(2, "PROXY v2: transport is not a stream");
  if (bytes.size() < v2_preamble + length) return r;
  // LOCAL (the balancer's own connection, a health check), and the
  // families that name no IP client, keep the socket's addresses. The TLVs
  // after the address block are skipped: nothing here needs them.
  r.state = status::done;
  r.consumed = v2_preamble + length;
  r.keep_socket_addresses = !names_client;
  if (names_client) take_addresses(b + v2_preamble, family, r);
  return r;
}

}  // namespace

result parse(std::string_view bytes) {
  if (bytes.empty()) return {};
  if (starts_like(bytes, v1_prefix)) {
    if (bytes.size() >= v1_prefix.size()) return parse_v1(bytes);
    result r;
    r.version = 1;
    return r;
  }
  if (starts_like(bytes, std::string_view(v2_signature, sizeof v2_signature))) return parse_v2(bytes);
  return failed(0, "no PROXY header (neither the v1 nor the v2 signature)");
}

}  // namespace baton::net::proxy_protocol
