#include "core/exchange/pseudo_head.h"

#include "core/exchange/authority.h"
#include "core/util/text.h"

namespace baton::exchange {

namespace {

// RFC 9113 8.2.2: the fields of an HTTP/1 connection, not of a request
// (`te` is allowed only as "trailers").
bool connection_specific(std::string_view name, std::string_view value) {
  switch (name.size()) {
    case 2:
      return name == "te" && !util::equals_ignore_case(value, "trailers");
    case 7:
      return name == "upgrade";
    case 10:
      return name == "connection" || name == "keep-alive";
    case 16:
      return name == "proxy-connection";
    case 17:
      return name == "transfer-encoding";
    default:
      return false;
  }
}

}  // namespace

void pseudo_head::add(std::string_view name, std::string_view value, const pseudo_limits& limits) {
  list_bytes_ += name.size() + value.size() + 32;
  if (list_bytes_ > limits.max_list_bytes) too_large_ = true;
  if (too_large_) return;  // refused with 431: nothing more is kept
  if (name.empty() || name[0] != ':') {
    // Cookie crumbs are one field once joined (RFC 9113 8.2.3), as they
    // are over HTTP/1.1: a browser splitting its cookies is not over the limit.
    bool counted = name != "cookie" || cookies_++ == 0;
    if (counted) ++field_count_;
    if (malformed_ == nullptr && connection_specific(name, value)) malformed_ = "a connection-specific field";
    if (field_count_ > limits.max_fields) return;  // refused with 431
  }
  auto at = static_cast<uint32_t>(bytes_.size());
  bytes_.append(name);
  bytes_.append(value);
  spans_.push_back({at, static_cast<uint32_t>(name.size()), at + static_cast<uint32_t>(name.size()),
                    static_cast<uint32_t>(value.size())});
  int index = static_cast<int>(spans_.size()) - 1;
  if (name == ":method") method_ = index;
  else if (name == ":path") path_ = index;
  else if (name == ":scheme") scheme_ = index;
  else if (name == ":authority") authority_ = index;
  else if (name == ":protocol") protocol_ = index;
  else if (name == "host" && host_ < 0) host_ = index;
}

std::string_view pseudo_head::value_of(int i) const {
  if (i < 0) return {};
  const span& sp = spans_[static_cast<size_t>(i)];
  return bytes_.view().substr(sp.value_at, sp.value_length);
}

// RFC 9113 8.1.1: a content-length that is not one number, or that a body
// ending with the head contradicts, makes the request malformed. The body's
// own length is held to it as DATA arrives (the protocol's job).
const char* pseudo_head::malformed(bool body_ends) {
  // RFC 9113 8.3.1: every request names its method; all but CONNECT (8.5)
  // a scheme and a path that is not empty; CONNECT an authority and
  // neither of the others. RFC 8441 section 4: an extended CONNECT (one
  // with :protocol, which no other method may carry) names all three.
  bool connect = value_of(method_) == "CONNECT";
  bool extended = protocol_ >= 0;
  if (malformed_ == nullptr && method_ < 0) malformed_ = "no :method";
  if (malformed_ == nullptr && extended && !connect) malformed_ = ":protocol on a request that is not a CONNECT";
  if (malformed_ == nullptr && (!connect || extended) && (scheme_ < 0 || path_ < 0 || value_of(path_).empty())) {
    malformed_ = "no :scheme or no :path";
  }
  if (malformed_ == nullptr && connect && !extended && (authority_ < 0 || scheme_ >= 0 || path_ >= 0)) {
    malformed_ = "a CONNECT without :authority, or with :scheme or :path";
  }
  if (malformed_ == nullptr && extended && authority_ < 0) malformed_ = "an extended CONNECT without :authority";
  for (size_t i = 0; i < spans_.size() && malformed_ == nullptr; ++i) {
    if (name_of(i) != "content-length") continue;
    uint64_t length = 0;
    if (!util::parse_decimal(value_of(static_cast<int>(i)), length) ||
        (content_length_ >= 0 && static_cast<uint64_t>(content_length_) != length)) {
      malformed_ = "an invalid content-length";
    } else if (body_ends && length != 0) {
      malformed_ = "its body is shorter than its content-length";
    }
    content_length_ = static_cast<int64_t>(length);
  }
  return malformed_;
}

const char* pseudo_head::refusal(const pseudo_limits& limits, int& status) const {
  status = 431;
  if (too_large_) return "header list over the size limit";
  if (field_count_ > limits.max_fields) return "more header fields than --max-headers";
  status = 400;
  std::string_view authority = value_of(authority_);
  // RFC 9110 4.2.4: userinfo in an http(s) URI is an error (as it is in an
  // HTTP/1.1 absolute-form target): no app should see credentials there.
  if (authority.find('@') != std::string_view::npos) return "userinfo in :authority";
  host_and_port parts;
  if (!parse_host_and_port(authority, parts)) return "an invalid :authority";
  if (host_ >= 0) {
    std::string_view host = value_of(host_);
    if (authority_ < 0 && !parse_host_and_port(host, parts)) return "an invalid host field";
    // RFC 9113 8.3.1: a host naming another origin than :authority is
    // malformed; the app would otherwise see whichever the server picked.
    if (authority_ >= 0 && !util::equals_ignore_case(host, authority)) return ":authority and host disagree";
  }
  return nullptr;
}

// RFC 9113 8.2.3: a client may split its cookies into several fields (for
// HPACK); before they reach an app they are one field again, joined by
// "; ". The joined value goes at the end of the bytes, where the exchange's
// copy of the head takes it from. Returns its span, or -1.
int pseudo_head::join_cookies() {
  if (cookies_ < 2) return -1;
  size_t at = bytes_.size();
  size_t joined = 0;
  for (size_t i = 0; i < spans_.size(); ++i) {
    if (name_of(i) == "cookie") joined += spans_[i].value_length + 2;
  }
  bytes_.prepare(joined);  // room for all of it: the appends below read from the buffer itself
  bool first = true;
  for (size_t i = 0; i < spans_.size(); ++i) {
    if (name_of(i) != "cookie") continue;
    if (!first) bytes_.append("; ");
    first = false;
    bytes_.append(bytes_.data() + spans_[i].value_at, spans_[i].value_length);
  }
  spans_.push_back({0, 0, static_cast<uint32_t>(at), static_cast<uint32_t>(bytes_.size() - at)});
  return static_cast<int>(spans_.size()) - 1;
}

void pseudo_head::describe(bool body_ends, uint8_t version, request_head& h, std::vector<field>& fields) {
  int joined_cookie = join_cookies();
  h.method = value_of(method_);
  h.target = value_of(path_);
  h.authority = value_of(authority_);
  size_t q = h.target.find('?');
  h.path = q == std::string_view::npos ? h.target : h.target.substr(0, q);
  h.query = q == std::string_view::npos ? std::string_view() : h.target.substr(q + 1);
  h.protocol = value_of(protocol_);
  h.form = h.method == "CONNECT" && h.protocol.empty() ? target_form::authority
           : h.target == "*"     ? target_form::asterisk
                                 : target_form::origin;
  h.version_major = version;
  h.version_minor = 0;
  h.is_head = h.method == "HEAD";
  h.content_length = body_ends ? 0 : content_length_;
  fields.reserve(spans_.size() + 1);
  if (host_ < 0 && !h.authority.empty()) fields.push_back({"host", h.authority});
  bool cookie_placed = false;
  size_t regular = joined_cookie >= 0 ? static_cast<size_t>(joined_cookie) : spans_.size();
  for (size_t i = 0; i < regular; ++i) {
    std::string_view name = name_of(i);
    if (name.empty() || name[0] == ':') continue;
    std::string_view value = value_of(static_cast<int>(i));
    if (joined_cookie >= 0 && name == "cookie") {
      if (cookie_placed) continue;
      cookie_placed = true;
      value = value_of(joined_cookie);
    }
    fields.push_back({name, value});
  }
  h.fields = fields.data();
  h.field_count = fields.size();
}

void pseudo_head::clear() {
  bytes_ = byte_buffer();
  spans_ = std::vector<span>();
}

}  // namespace baton::exchange
