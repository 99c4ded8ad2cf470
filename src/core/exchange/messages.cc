#include "core/exchange/messages.h"

#include "core/exchange/storage.h"

namespace baton::exchange {
namespace {

void write_header(char* header, message_kind kind, size_t length, bool ascii) {
  header[0] = static_cast<char>(static_cast<uint8_t>(kind) | (ascii ? messages::ascii_bit : 0));
  for (size_t i = 0; i < 4; ++i) header[1 + i] = static_cast<char>((length >> (8 * i)) & 0xff);
}

}  // namespace

void messages::deliver(message_kind kind, const char* data, size_t length, bool ascii) {
  char header[header_size];
  write_header(header, kind, length, ascii);
  in_.deliver_unit(header, header_size, data, length);
}

void messages::deliver(message_kind kind, byte_buffer& payload, bool ascii) {
  if (payload.front_room() < header_size) {
    deliver(kind, payload.data(), payload.size(), ascii);
    payload.clear();
    return;
  }
  size_t length = payload.size();
  payload.claim_front(header_size);
  write_header(payload.data(), kind, length, ascii);
  in_.deliver_unit(payload);
}

void messages::begin_switch_response() {
  answering_ = true;
  if (offer_.status == 101) {
    out_.begin(101, "101 Switching Protocols");
    out_.add_own_field("upgrade", "websocket");
    out_.add_own_field("sec-websocket-accept", offer_.accept);
  } else {
    out_.begin(offer_.status, "200 OK");  // over HTTP/2 the code alone goes out
  }
  if (!offer_.extensions.empty()) out_.add_own_field("sec-websocket-extensions", offer_.extensions);
}

read_status messages::try_read(client_message& m) {
  std::string_view view;
  read_status r = in_.try_read(view);
  if (r != read_status::data) return r;
  if (view.size() < header_size) return read_status::error;  // never: messages arrive whole
  size_t length = 0;
  for (size_t i = 0; i < 4; ++i) length |= static_cast<size_t>(static_cast<unsigned char>(view[1 + i])) << (8 * i);
  if (view.size() < header_size + length) return read_status::error;
  auto first = static_cast<uint8_t>(view[0]);
  m.kind = static_cast<message_kind>(first & ~ascii_bit);
  m.ascii = (first & ascii_bit) != 0;
  m.payload = view.substr(header_size, length);
  taken_ = header_size + length;
  return read_status::data;
}

void messages::consume() {
  size_t n = taken_;
  taken_ = 0;
  if (n == 0) return;
  in_.consume_unit(n);
  // No buffer of a large message is kept after it (see message_storage_kept).
  in_.trim_after_message(message_storage_kept);
}

send_status messages::send(message_kind kind, const char* data, size_t length, in_place_payload* keep) {
  uint32_t flags = m_.state.load(std::memory_order_acquire);
  if ((flags & (meeting::cancelled | meeting::app_closed)) != 0 || (flags & meeting::switched) == 0) {
    return send_status::gone;
  }
  bool in_place = offer_.wire->write_message(kind, data, length, offer_, out_.framing_queue(),
                                             keep != nullptr ? keep->unsent : nullptr);
  if (keep != nullptr) keep->taken = in_place;
  out_.count_and_publish(length);
  // After the publish: the loop that sees the flag finds the close queued.
  if (kind == message_kind::close) m_.raise(meeting::app_closed);
  m_.notify_loop(true);
  return send_status::accepted;
}

}  // namespace baton::exchange
