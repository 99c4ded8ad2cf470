#include "core/ws/protocol.h"

#include <utility>

#include "core/session/receive_buffer.h"
#include "core/ws/handshake.h"

namespace baton::ws {
namespace {

constexpr size_t read_size = 65536;

}  // namespace

protocol::protocol(context& ctx, session::session& s, exchange::exchange& x)
    : session_(s), endpoint_(ctx, *this, x) {}

void protocol::start() {
  // What the client sent after its opening request (it may not wait for the 101).
  byte_buffer early;
  std::swap(early, session_.input());
  endpoint_.start(early.data(), early.size(), session_.eof());
}

// Reads into the loop's shared buffer and decodes all of it at once: the
// decoder keeps a partial header and the message layer a partial message,
// so nothing of the read is left over and an idle WebSocket holds no input.
void protocol::on_readable() {
  if (endpoint_.held() > 0) {
    // Bytes held while the app's queue was full go first.
    endpoint_.resume();
    if (!endpoint_.wants_input()) return;
  }
  byte_buffer own;  // the shared one is lent (an inline app waits): this read's own
  session::received r{};
  {
    session::receive_lease lease = session_.lend_receive_buffer(own);
    byte_buffer& buffer = lease.bytes();
    char* p = buffer.prepare(read_size);
    r = session_.receive(p, buffer.writable());
    if (r.status == session::receive_status::data) {
      buffer.commit(r.bytes);
      endpoint_.feed(buffer.data(), buffer.size());
    }
  }
  if (r.status == session::receive_status::end || r.status == session::receive_status::failed) {
    endpoint_.peer_gone();
    session_.set_eof();
    session_.close_now();
    return;
  }
  endpoint_.flush();
  session_.update();
}

void protocol::finish() {
  if (!session_.write_blocked()) session_.start_lingering();
}

// --- the app's frames ---------------------------------------------------------------

bool wire::write_message(exchange::message_kind kind, const char* data, size_t length,
                         const exchange::upgrade_offer& offer, net::output_queue& out,
                         std::atomic<uint64_t>* unsent) const {
  uint8_t op = static_cast<uint8_t>(kind);
  if (kind != exchange::message_kind::close && offer.deflate && length >= deflate_.min_size) {
    thread_local deflater compressor;
    thread_local byte_buffer compressed;
    compressed.clear();
    if (compressor.compress(deflate_, offer.deflate_window_bits, data, length, compressed)) {
      append_frame(out.bytes(), op, true, true, compressed.data(), compressed.size());
      if (compressed.capacity() > size_t{1} << 20) compressed = byte_buffer();
      return false;
    }
  }
  if (unsent != nullptr && length >= in_place_at_least) {
    append_frame_header(out.bytes(), op, true, false, length);
    out.push_external(data, length, unsent);
    return true;
  }
  append_frame(out.bytes(), op, true, false, data, length);
  return false;
}

session::upgrade_verdict offer_opening(exchange::exchange& x, const settings& config,
                                       const exchange::message_wire& wire) {
  session::upgrade_verdict v;
  opening o = read_opening(x.head(), config.deflate);
  if (o.result == opening::verdict::not_websocket) return v;
  if (o.result == opening::verdict::refused) {
    v.result = session::upgrade_verdict::kind::refused;
    v.status = o.status;
    v.reason = o.reason;
    if (o.status == 426) v.extra_fields = "sec-websocket-version: 13\r\n";
    return v;
  }
  exchange::upgrade_offer& offer = x.offer_upgrade();
  offer.wire = &wire;
  offer.status = x.head().version_major >= 2 ? 200 : 101;
  offer.accept = std::move(o.accept);
  offer.extensions = std::move(o.extensions);
  offer.deflate = o.deflate.enabled;
  offer.deflate_window_bits = o.deflate.server_window_bits;
  v.result = session::upgrade_verdict::kind::offered;
  return v;
}

}  // namespace baton::ws
