#include "core/exchange/request.h"

#include <utility>

#include "core/exchange/storage.h"
#include "core/util/text.h"

namespace baton::exchange {

// One copy of the raw head; every view is re-pointed by the same offset.
void request::assign(const request_head& parsed, const char* raw, size_t raw_length) {
  head_bytes_.clear();
  if (head_bytes_.capacity() > keep_capacity) head_bytes_ = byte_buffer();
  head_bytes_.append(raw, raw_length);
  const char* base = head_bytes_.data();
  auto rebase = [&](std::string_view v) -> std::string_view {
    if (v.data() == nullptr || v.empty()) return v.empty() ? std::string_view() : v;
    if (v.data() < raw || v.data() >= raw + raw_length) return v;  // a constant, not in the head
    return {base + (v.data() - raw), v.size()};
  };
  head_ = parsed;
  head_.method = rebase(parsed.method);
  head_.target = rebase(parsed.target);
  head_.path = rebase(parsed.path);
  head_.query = rebase(parsed.query);
  head_.authority = rebase(parsed.authority);
  head_.protocol = rebase(parsed.protocol);
  fields_.resize(parsed.field_count);
  for (size_t i = 0; i < parsed.field_count; ++i) {
    fields_[i].name = rebase(parsed.fields[i].name);
    fields_[i].value = rebase(parsed.fields[i].value);
  }
  head_.fields = fields_.data();
}

void request::adopt(const request_head& parsed, byte_buffer& bytes, std::vector<field>& fields) {
  std::swap(head_bytes_, bytes);
  fields_.swap(fields);
  head_ = parsed;
  head_.fields = fields_.data();
  head_.field_count = fields_.size();
}

void request::keep_exact() {
  if (head_bytes_.capacity() <= head_bytes_.size()) return;
  byte_buffer exact = head_bytes_.exact_copy();
  const char* from = head_bytes_.data();
  size_t size = head_bytes_.size();
  auto rebase = [&](std::string_view& v) {
    if (!v.empty() && v.data() >= from && v.data() < from + size) v = {exact.data() + (v.data() - from), v.size()};
  };
  rebase(head_.method);
  rebase(head_.target);
  rebase(head_.path);
  rebase(head_.query);
  rebase(head_.authority);
  rebase(head_.protocol);
  for (field& f : fields_) {
    rebase(f.name);
    rebase(f.value);
  }
  head_bytes_ = std::move(exact);
}

void request::set_client(const peer_info& peer, const proxy_settings* proxy) {
  peer_info client = peer;
  https_ = peer.tls != nullptr;
  secure_ = peer.tls != nullptr;
  if (secure_) tls_ = *peer.tls;
  else if (tls_.client) tls_.client.reset();
  forwarded_port_length_ = 0;
  if (proxy != nullptr) {
    forwarded_facts facts;
    read_forwarded(head_, *proxy, facts);
    if (!facts.client.empty()) {
      client.address = facts.client;
      client.port = facts.client_port;
    }
    if (!facts.proto.empty()) {
      https_ = util::equals_ignore_case(facts.proto, "https") || util::equals_ignore_case(facts.proto, "wss");
    }
    forwarded_port_length_ = facts.port.size() <= sizeof forwarded_port_ ? facts.port.size() : 0;
    util::copy_bytes(forwarded_port_, facts.port, forwarded_port_length_);
  }
  size_t n = client.address.size() < sizeof peer_address_ ? client.address.size() : sizeof peer_address_ - 1;
  util::copy_bytes(peer_address_, client.address, n);
  peer_address_length_ = n;
  peer_port_ = client.port;
  listener_ = client.listener;
  // Only with a PROXY header; the listener's name stands otherwise.
  server_address_length_ = 0;
  if (!peer.server_address.empty() && peer.server_address.size() < sizeof server_address_) {
    util::copy_bytes(server_address_, peer.server_address, peer.server_address.size());
    server_address_length_ = static_cast<uint8_t>(peer.server_address.size());
  }
  server_port_ = peer.server_port;
}

}  // namespace baton::exchange
