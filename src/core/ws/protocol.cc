#include "core/ws/protocol.h"

#include <cerrno>
#include <cstring>

#include "core/util/log.h"
#include "core/ws/handshake.h"

namespace baton::ws {
namespace {

constexpr size_t read_size = 65536;

// A close frame's payload: the code in network order, then the reason.
std::string close_payload(uint16_t code, std::string_view reason) {
  std::string p;
  if (code == close_code::no_status) return p;
  p.push_back(static_cast<char>(code >> 8));
  p.push_back(static_cast<char>(code & 0xff));
  p.append(utf8_prefix(reason, 123));  // a control frame carries at most 125 bytes
  return p;
}

}  // namespace

protocol::protocol(context& ctx, session::session& s, exchange::exchange& x)
    : context_(ctx),
      session_(s),
      x_(&x),
      reader_(ctx.config.max_message, x.upgrade().deflate ? &ctx.inflate : nullptr) {
  x_->add_ref();
  x_->sink = this;
}

protocol::~protocol() { let_go_of_exchange(); }

void protocol::start() {
  started_ = true;
  int64_t now = session_.now_ms();
  if (context_.config.ping_interval_ms > 0) next_ping_ms_ = now + context_.config.ping_interval_ms;
  take_app_output();
  // The 101 went through the exchange's channels: an open WebSocket keeps
  // no storage there until its first message.
  x_->release_channel_memory();
  if (session_.eof()) {
    // The client finished sending before the 101 went out: it will send no frame.
    tell_app_closed(close_code::abnormal, {});
    session_.close_now();
    return;
  }
  // What the client sent after its opening request (it may not wait for the 101).
  bytes_in_ += session_.input().size();
  feed_held();
  if (app_done_ && state_ == state::open) begin_close(close_code::normal);
  // A WebSocket that opens during a drain closes at once, as the open ones did.
  if (context_.drain_begun) begin_close(context_.drain_code);
  flush();
}

// Reads into the loop's shared buffer and decodes all of it at once: the
// decoder keeps a partial header and the message layer a partial message,
// so nothing of the read is left over and an idle WebSocket holds no input.
void protocol::on_readable() {
  if (!session_.input().empty()) {
    // Bytes held while the app's queue was full go first.
    feed_held();
    if (x_ != nullptr && x_->reading_paused()) return;
  }
  byte_buffer own;  // the shared one is lent (an inline app waits): this read's own
  ssize_t n = 0;
  int saved = 0;
  {
    session::receive_lease lease = session_.lend_receive_buffer(own);
    byte_buffer& buffer = lease.bytes();
    char* p = buffer.prepare(read_size);
    n = session_.io().receive(p, buffer.writable());
    saved = errno;
    if (n > 0) {
      buffer.commit(static_cast<size_t>(n));
      bytes_in_ += static_cast<uint64_t>(n);
      // A client that is sending is alive: its pong may wait behind a frame
      // it has not finished (a control frame cannot interrupt one), so the
      // ping timeout measures its silence.
      if (pong_deadline_ms_ != INT64_MAX) pong_deadline_ms_ = session_.now_ms() + context_.config.ping_timeout_ms;
      feed(buffer.data(), buffer.size());
    }
  }
  if (n == 0 || (n < 0 && saved != EAGAIN && saved != EWOULDBLOCK && saved != EINTR)) {
    // The client went without finishing a close handshake.
    if (state_ != state::ended) {
      if (state_ == state::open) {
        log::write(log::level::debug, "a WebSocket client at %s went without a close", session_.peer_for_log());
      }
      tell_app_closed(close_code::abnormal, {});
    }
    session_.set_eof();
    session_.close_now();
    return;
  }
  flush();
  session_.update();
}

// Decodes what it can; when the app's queue fills, the rest waits in the
// session's input until the app has taken enough.
void protocol::feed(char* data, size_t length) {
  if (state_ == state::ended) return;
  size_t used = reader_.feed(data, length, *this);
  if (used < length && !reader_.done() && state_ != state::ended) session_.input().append(data + used, length - used);
}

void protocol::feed_held() {
  byte_buffer held;
  std::swap(held, session_.input());
  if (!held.empty()) feed(held.data(), held.size());
}

void protocol::on_writable() { flush(); }

// --- the reader's hooks -----------------------------------------------------------

bool protocol::on_message(bool text, byte_buffer& payload) {
  if (state_ != state::open || app_told_) return true;  // closing: data is dropped
  x_->deliver_message(text ? exchange::message_kind::text : exchange::message_kind::binary, payload);
  pause_if_queue_full();
  return !x_->reading_paused();  // paused: the rest of the read waits
}

void protocol::on_ping(const char* data, size_t n) {
  if (state_ == state::open) send_control(opcode::pong, data, n);
}

void protocol::on_pong(const char* data, size_t n) {
  // Only the answer to our latest ping counts (an unsolicited pong is a heartbeat with no reply wanted).
  uint32_t count = ping_count_;
  if (n == sizeof count && std::memcmp(data, &count, sizeof count) == 0) pong_deadline_ms_ = INT64_MAX;
}

void protocol::on_close(uint16_t code, std::string_view reason) {
  if (state_ == state::open) {
    // The client closes first: what the app has sent goes before the echo
    // of its code, then the connection ends.
    take_app_output();
    send_close(code, {});
    close_code_ = code;
  } else if (close_code_ == close_code::abnormal) {
    close_code_ = code;  // the app closed first: the client's answer
  }
  tell_app_closed(code, reason);
  end();
}

void protocol::on_error(uint16_t code, const char* reason) {
  const exchange::request_head& h = x_->head();
  log::write(log::level::info, "WebSocket %.*s from %s: %s; closing with %u", static_cast<int>(h.path.size()),
             h.path.data(), session_.peer_for_log(), reason, static_cast<unsigned>(code));
  if (state_ == state::open) send_close(code);
  close_code_ = code;
  tell_app_closed(code, {});
  end();
}

// --- output ---------------------------------------------------------------------

void protocol::send_control(opcode op, const char* data, size_t length) {
  byte_buffer& out = session_.output().bytes();
  size_t before = out.size();
  append_frame(out, static_cast<uint8_t>(op), true, false, data, length);
  bytes_out_ += out.size() - before;
}

void protocol::send_close(uint16_t code, std::string_view reason) {
  std::string payload = close_payload(code, reason);
  send_control(opcode::close, payload.data(), payload.size());
}

void protocol::begin_close(uint16_t code, std::string_view reason) {
  if (state_ != state::open) return;
  take_app_output();  // what the app sent before goes first
  if (state_ != state::open) return;  // it was the app's own close
  send_close(code, reason);
  close_code_ = code;
  state_ = state::closing;
  close_deadline_ms_ = session_.now_ms() + context_.config.close_timeout_ms;
  tell_app_closed(code, reason);
}

// The app's receive() returns the messages already delivered, then the
// close; its send() fails from now on.
void protocol::tell_app_closed(uint16_t code, std::string_view reason) {
  if (app_told_ || x_ == nullptr) return;
  app_told_ = true;
  if (code != close_code::abnormal) {
    std::string payload = close_payload(code, reason);
    x_->deliver_message(exchange::message_kind::close, payload.data(), payload.size());
    x_->deliver_body_end();
  }
  x_->cancel();
}

void protocol::take_app_output() {
  if (x_ == nullptr) return;
  if (state_ != state::open) {
    // Nothing may follow a close frame: what the app sent after it is dropped.
    net::output_queue dropped;
    x_->take_output(dropped);
    return;
  }
  bool closed = x_->app_closed();  // before the output: the close is then in it
  uint64_t moved = x_->take_output(session_.output());
  bytes_out_ += moved;
  if (closed && state_ == state::open) {
    // The app closed first: the client's close is awaited.
    state_ = state::closing;
    close_deadline_ms_ = session_.now_ms() + context_.config.close_timeout_ms;
  }
}

void protocol::end() {
  state_ = state::ended;
  next_ping_ms_ = pong_deadline_ms_ = close_deadline_ms_ = INT64_MAX;
}

void protocol::flush() {
  if (!session_.flush()) return;
  if (x_ != nullptr) x_->set_backlog(session_.output().buffered_bytes());
  if (state_ == state::ended && !session_.write_blocked()) session_.start_lingering();
}

void protocol::pause_if_queue_full() {
  size_t window = context_.config.max_message < size_t{1} << 20 ? context_.config.max_message : size_t{1} << 20;
  if (x_->messages_waiting() >= context_.config.max_queue || x_->body_buffered() >= window) {
    x_->pause_reading(window, context_.config.max_queue);
  }
}

// --- the app's side ---------------------------------------------------------------

void protocol::on_exchange_news(exchange::exchange* x) {
  if (x != x_ || !started_ || session_.closed()) return;
  take_app_output();
  if (!x_->reading_paused() && !session_.input().empty()) {
    // The app took enough: the held bytes go on (a pong among them gets a
    // fresh timeout, since it could not be read while reading was paused).
    if (pong_deadline_ms_ != INT64_MAX) pong_deadline_ms_ = session_.now_ms() + context_.config.ping_timeout_ms;
    feed_held();
  }
  flush();
  if (!session_.closed()) session_.update();
}

void protocol::on_app_done(exchange::exchange* x) {
  if (x != x_) return;
  app_done_ = true;
  if (!started_) return;  // start() sees it
  take_app_output();
  // An app that returns without closing: the server closes for it.
  if (state_ == state::open) begin_close(close_code::normal);
  flush();
  if (!session_.closed()) session_.update();
}

// --- time -----------------------------------------------------------------------

protocol::plan protocol::current_plan() const {
  plan p;
  if (state_ == state::ended || x_ == nullptr) return p;
  bool paused = x_->reading_paused() && state_ == state::open;
  p.read = !paused && session_.output().buffered_bytes() <= context_.config.output_high_water;
  if (state_ == state::open) {
    // While reading is paused no pong can be read: its timeout waits.
    p.deadline = paused || next_ping_ms_ < pong_deadline_ms_ ? next_ping_ms_ : pong_deadline_ms_;
  } else {
    p.deadline = close_deadline_ms_;
  }
  return p;
}

void protocol::on_deadline() {
  int64_t now = session_.now_ms();
  if (state_ == state::closing && now >= close_deadline_ms_) {
    log::write(log::level::info, "a WebSocket client at %s did not finish the close handshake in time",
               session_.peer_for_log());
    session_.close_now();
    return;
  }
  if (state_ != state::open) return;
  if (now >= pong_deadline_ms_ && !x_->reading_paused()) {
    log::write(log::level::info, "a WebSocket client at %s did not answer a ping in time; closing with 1011",
               session_.peer_for_log());
    send_close(close_code::internal_error, "keepalive ping timeout");
    close_code_ = close_code::internal_error;
    tell_app_closed(close_code::internal_error, "keepalive ping timeout");
    end();
    flush();
    return;
  }
  if (now >= next_ping_ms_) {
    ++ping_count_;
    uint32_t count = ping_count_;
    send_control(opcode::ping, reinterpret_cast<const char*>(&count), sizeof count);
    if (pong_deadline_ms_ == INT64_MAX && context_.config.ping_timeout_ms > 0) {
      pong_deadline_ms_ = now + context_.config.ping_timeout_ms;
    }
    next_ping_ms_ = now + context_.config.ping_interval_ms;
    flush();
  }
}

// --- lifetime ---------------------------------------------------------------------

void protocol::drain() {
  begin_close(context_.drain_code);
  flush();
}

void protocol::on_close() {
  if (state_ != state::ended && !app_told_) tell_app_closed(close_code::abnormal, {});
  let_go_of_exchange();
}

void protocol::let_go_of_exchange() {
  if (x_ == nullptr) return;
  exchange::exchange* x = x_;
  x_ = nullptr;
  x->sink = nullptr;
  if (!app_told_) x->cancel();
  context_.server.websocket_closed(*x, {bytes_in_, bytes_out_, close_code_});
  x->release();
}

size_t protocol::release_idle_memory() {
  if (reader_.in_message()) return 0;
  size_t freed = reader_.held();
  reader_.release_memory();
  if (session_.output().empty()) freed += session_.output().release_memory();
  if (x_ == nullptr) return freed;
  freed += x_->release_channel_memory();
  // Quiet for a whole trim interval: the app side is asked, once in each
  // quiet spell, to give back its own buffers (it does on the wake).
  uint64_t traffic = bytes_in_ + bytes_out_;
  if (traffic != traffic_at_trim_) {
    traffic_at_trim_ = traffic;
    app_asked_ = false;
  } else if (!app_asked_) {
    x_->ask_app_to_release_memory();
    app_asked_ = true;
  }
  return freed;
}

// --- the app's frames ---------------------------------------------------------------

void wire::write_message(exchange::message_kind kind, const char* data, size_t length,
                         const exchange::upgrade_offer& offer, byte_buffer& out) const {
  uint8_t op = static_cast<uint8_t>(kind);
  if (kind != exchange::message_kind::close && offer.deflate && length >= deflate_.min_size) {
    thread_local deflater compressor;
    thread_local byte_buffer compressed;
    compressed.clear();
    if (compressor.compress(deflate_, offer.deflate_window_bits, data, length, compressed)) {
      append_frame(out, op, true, true, compressed.data(), compressed.size());
      if (compressed.capacity() > size_t{1} << 20) compressed = byte_buffer();
      return;
    }
  }
  append_frame(out, op, true, false, data, length);
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
  offer.accept = std::move(o.accept);
  offer.extensions = std::move(o.extensions);
  offer.deflate = o.deflate.enabled;
  offer.deflate_window_bits = o.deflate.server_window_bits;
  v.result = session::upgrade_verdict::kind::offered;
  return v;
}

}  // namespace baton::ws
