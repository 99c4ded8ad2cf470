#include "core/exchange/forwarded.h"

#include <arpa/inet.h>

#include <cstring>

#include "core/util/text.h"

namespace baton::exchange {
namespace {

// An address as the chain gives it: brackets and quotes stripped, and an
// IPv4 address's ":port" split off (an IPv6 one carries its port only in
// brackets).
std::string_view bare_address(std::string_view a, uint16_t* port) {
  a = util::trim_ows(a);
  if (a.size() >= 2 && a.front() == '"' && a.back() == '"') a = a.substr(1, a.size() - 2);
  if (!a.empty() && a.front() == '[') {
    size_t close = a.find(']');
    if (close == std::string_view::npos) return {};
    std::string_view rest = a.substr(close + 1);
    if (port != nullptr && rest.size() > 1 && rest.front() == ':') {
      uint64_t p = 0;
      if (util::parse_decimal(rest.substr(1), p) && p < 65536) *port = static_cast<uint16_t>(p);
    }
    return a.substr(1, close - 1);
  }
  size_t colon = a.find(':');
  if (colon != std::string_view::npos && a.find(':', colon + 1) == std::string_view::npos) {
    if (port != nullptr) {
      uint64_t p = 0;
      if (util::parse_decimal(a.substr(colon + 1), p) && p < 65536) *port = static_cast<uint16_t>(p);
    }
    return a.substr(0, colon);
  }
  return a;
}

bool to_bytes(std::string_view text, uint8_t out[16], int& family) {
  char buffer[64];
  if (text.empty() || text.size() >= sizeof buffer) return false;
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  if (inet_pton(AF_INET, buffer, out) == 1) {
    family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, buffer, out) == 1) {
    family = AF_INET6;
    return true;
  }
  return false;
}

// The chain's elements, right to left: the first that is not a trusted
// proxy is the client (all trusted: the leftmost). Only an IP address is
// taken: RFC 7239's "unknown", an obfuscated "_name" or anything else a
// client could have written there leaves the peer's address as it is.
template <typename Each>
std::string_view pick_client(std::string_view chain, const address_list& trusted, Each&& element_address,
                             uint16_t* port) {
  std::string_view chosen;
  uint16_t chosen_port = 0;
  bool chosen_is_ip = false;
  while (!chain.empty()) {
    size_t comma = chain.rfind(',');
    std::string_view part = util::trim_ows(comma == std::string_view::npos ? chain : chain.substr(comma + 1));
    chain = comma == std::string_view::npos ? std::string_view() : chain.substr(0, comma);
    uint16_t p = 0;
    std::string_view address = part.empty() ? part : bare_address(element_address(part), &p);
    if (address.empty()) continue;
    uint8_t bytes[16] = {};
    int family = 0;
    chosen = address;
    chosen_port = p;
    chosen_is_ip = to_bytes(address, bytes, family);  // each element is parsed once
    if (!trusted.any() && !(chosen_is_ip && trusted.contains(bytes, family))) break;
  }
  if (!chosen_is_ip) return {};
  if (port != nullptr) *port = chosen_port;
  return chosen;
}

// A parameter of one Forwarded element ("for", "proto", ...), or "".
std::string_view forwarded_parameter(std::string_view element, std::string_view name) {
  while (!element.empty()) {
    size_t semicolon = element.find(';');
    std::string_view pair = util::trim_ows(element.substr(0, semicolon));
    size_t equals = pair.find('=');
    if (equals != std::string_view::npos && util::equals_ignore_case(pair.substr(0, equals), name)) {
      std::string_view value = pair.substr(equals + 1);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
    if (semicolon == std::string_view::npos) break;
    element.remove_prefix(semicolon + 1);
  }
  return {};
}

std::string_view last_list_element(std::string_view list) {
  size_t comma = list.rfind(',');
  return util::trim_ows(comma == std::string_view::npos ? list : list.substr(comma + 1));
}

}  // namespace

bool address_list::parse(std::string_view text, std::string& error) {
  networks_.clear();
  any_ = false;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view entry = util::trim_ows(text.substr(0, comma));
    if (entry == "*") {
      any_ = true;
    } else if (!entry.empty()) {
      network n;
      size_t slash = entry.find('/');
      if (!to_bytes(entry.substr(0, slash), n.bytes, n.family)) {
        error = "not an IP address or network: " + std::string(entry);
        return false;
      }
      int bits = n.family == AF_INET ? 32 : 128;
      n.prefix = bits;
      if (slash != std::string_view::npos) {
        uint64_t prefix = 0;
        if (!util::parse_decimal(entry.substr(slash + 1), prefix) || prefix > static_cast<uint64_t>(bits)) {
          error = "bad network prefix: " + std::string(entry);
          return false;
        }
        n.prefix = static_cast<int>(prefix);
      }
      networks_.push_back(n);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return true;
}

bool address_list::contains(std::string_view address) const {
  if (any_) return true;
  uint8_t bytes[16] = {};
  int family = 0;
  return to_bytes(address, bytes, family) && contains(bytes, family);
}

bool address_list::contains(const uint8_t bytes[16], int family) const {
  if (any_) return true;
  for (const network& n : networks_) {
    if (n.family != family) continue;
    int full = n.prefix / 8, rest = n.prefix % 8;
    if (std::memcmp(bytes, n.bytes, static_cast<size_t>(full)) != 0) continue;
    if (rest != 0) {
      uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
      if ((bytes[full] & mask) != (n.bytes[full] & mask)) continue;
    }
    return true;
  }
  return false;
}

void read_forwarded(const request_head& head, const proxy_settings& proxy, forwarded_facts& out) {
  std::string_view xff, xfp, xfport, forwarded;
  for (size_t i = 0; i < head.field_count; ++i) {
    std::string_view name = head.fields[i].name;
    if (name.size() < 9 || (name[0] | 0x20) != 'x') {
      if (name.size() == 9 && util::equals_ignore_case(name, "forwarded")) forwarded = head.fields[i].value;
      continue;
    }
    if (util::equals_ignore_case(name, "x-forwarded-for")) xff = head.fields[i].value;
    else if (util::equals_ignore_case(name, "x-forwarded-proto")) xfp = head.fields[i].value;
    else if (util::equals_ignore_case(name, "x-forwarded-port")) xfport = head.fields[i].value;
  }
  if (!forwarded.empty()) {
    // RFC 7239: the element the nearest proxy added is the last.
    out.client = pick_client(forwarded, proxy.trusted,
                             [](std::string_view element) { return forwarded_parameter(element, "for"); },
                             &out.client_port);
    out.proto = forwarded_parameter(last_list_element(forwarded), "proto");
    std::string_view host = forwarded_parameter(last_list_element(forwarded), "host");
    size_t colon = host.rfind(':');
    if (colon != std::string_view::npos && host.find(']', colon) == std::string_view::npos) {
      out.port = host.substr(colon + 1);
    }
  }
  if (out.client.empty() && !xff.empty()) {
    out.client = pick_client(xff, proxy.trusted, [](std::string_view element) { return element; }, nullptr);
  }
  if (out.proto.empty() && !xfp.empty()) out.proto = last_list_element(xfp);
  if (out.port.empty() && !xfport.empty()) out.port = last_list_element(xfport);
  uint64_t port = 0;
  if (!out.port.empty() && (!util::parse_decimal(out.port, port) || port > 65535)) out.port = {};
  std::string_view proto = out.proto;
  if (!(util::equals_ignore_case(proto, "http") || util::equals_ignore_case(proto, "https") ||
        util::equals_ignore_case(proto, "ws") || util::equals_ignore_case(proto, "wss"))) {
    out.proto = {};
  }
}

}  // namespace baton::exchange
