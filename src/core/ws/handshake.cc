#include "core/ws/handshake.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "core/util/text.h"

namespace baton::ws {
namespace {

constexpr std::string_view guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

bool base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

// Every value of a field (a client may repeat it), as one comma list.
std::string joined(const exchange::request_head& head, std::string_view name) {
  std::string out;
  for (size_t i = 0; i < head.field_count; ++i) {
    if (!util::equals_ignore_case(head.fields[i].name, name)) continue;
    if (!out.empty()) out += ", ";
    out += head.fields[i].value;
  }
  return out;
}

opening refuse(int status, const char* reason) {
  opening o;
  o.result = opening::verdict::refused;
  o.status = status;
  o.reason = reason;
  return o;
}

}  // namespace

bool key_is_sixteen_bytes(std::string_view text) {
  // 16 bytes are 22 characters of base64 and two of padding.
  if (text.size() != 24 || text[22] != '=' || text[23] != '=') return false;
  for (size_t i = 0; i < 22; ++i) {
    if (!base64_char(text[i])) return false;
  }
  // The last character holds 2 bits of data and 4 that must be zero.
  char last = text[21];
  return last == 'A' || last == 'Q' || last == 'g' || last == 'w';
}

std::string accept_value(std::string_view key) {
  std::string input(key);
  input += guid;
  unsigned char digest[SHA_DIGEST_LENGTH];
  unsigned int length = 0;
  // Fetched once for the process (a thread-safe static), not looked up in
  // OpenSSL's method store at every handshake, which loop threads would
  // otherwise search side by side.
  static EVP_MD* const sha1 = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  EVP_Digest(input.data(), input.size(), digest, &length, sha1 != nullptr ? sha1 : EVP_sha1(), nullptr);
  unsigned char encoded[4 * ((SHA_DIGEST_LENGTH + 2) / 3) + 1];
  int n = EVP_EncodeBlock(encoded, digest, static_cast<int>(length));
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<size_t>(n));
}

namespace {

// What both openings share once they are found valid: the subprotocols
// offered and permessage-deflate's negotiation.
opening agree(const exchange::request_head& head, const deflate_settings& deflate) {
  opening o;
  o.result = opening::verdict::valid;
  for (size_t i = 0; i < head.field_count; ++i) {
    if (!util::equals_ignore_case(head.fields[i].name, "sec-websocket-protocol")) continue;
    util::for_each_list_element(head.fields[i].value, [&](std::string_view p) {
      o.subprotocols.push_back(p);
      return true;
    });
  }
  o.deflate = negotiate_deflate(joined(head, "sec-websocket-extensions"), deflate, o.extensions);
  return o;
}

// RFC 8441 section 5 (RFC 9220 says the same of HTTP/3): over HTTP/2 and
// HTTP/3 the opening is an extended CONNECT whose :protocol is "websocket";
// no key, no Upgrade or Connection (neither protocol has them), and the
// answer is a 200 with no accept value.
opening read_extended_connect(const exchange::request_head& head, const deflate_settings& deflate) {
  if (head.method != "CONNECT" || head.protocol != "websocket") return {};
  std::string version = joined(head, "sec-websocket-version");
  if (util::trim_ows(version) != "13") return refuse(426, "unsupported Sec-WebSocket-Version");
  return agree(head, deflate);
}

}  // namespace

opening read_opening(const exchange::request_head& head, const deflate_settings& deflate) {
  if (head.version_major >= 2) return read_extended_connect(head, deflate);
  std::string upgrade = joined(head, "upgrade");
  if (!util::has_list_token(upgrade, "websocket")) return {};
  if (head.method != "GET") return refuse(400, "a WebSocket handshake must be a GET");
  if (head.version_major == 1 && head.version_minor == 0) return refuse(400, "a WebSocket handshake needs HTTP/1.1");
  if (!head.upgrade) return refuse(400, "a WebSocket handshake needs Connection: upgrade");
  // Its bytes would be read as frames after the switch.
  if (head.content_length != 0) return refuse(400, "a WebSocket handshake carries no body");
  std::string version = joined(head, "sec-websocket-version");
  if (util::trim_ows(version) != "13") return refuse(426, "unsupported Sec-WebSocket-Version");
  std::string key = joined(head, "sec-websocket-key");
  std::string_view trimmed = util::trim_ows(key);
  if (!key_is_sixteen_bytes(trimmed)) return refuse(400, "Sec-WebSocket-Key is not 16 bytes of base64");
  opening o = agree(head, deflate);
  o.accept = accept_value(trimmed);
  return o;
}

}  // namespace baton::ws
