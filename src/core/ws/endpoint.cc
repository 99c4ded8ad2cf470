#include "core/ws/endpoint.h"

#include <cstring>
#include <string>

#include "core/util/log.h"

namespace baton::ws {

endpoint::endpoint(context& ctx, session::byte_stream& stream, exchange::exchange& x)
    : context_(ctx),
      stream_(stream),
      x_(&x),
      reader_(ctx.config.max_message, x.upgrade().deflate ? &ctx.inflate : nullptr) {
  x_->add_ref();
  x_->links.sink = this;
}

endpoint::~endpoint() { let_go_of_exchange(); }

void endpoint::start(const char* early, size_t length, bool peer_gone) {
  started_ = true;
  int64_t now = stream_.now_ms();
  if (context_.config.ping_interval_ms > 0) next_ping_ms_ = now + context_.config.ping_interval_ms;
  take_app_output();
  // The switch's answer went through the exchange's channels: an open
  // WebSocket keeps no storage there until its first message.
  x_->release_channel_memory();
  if (peer_gone) {
    // The client finished sending before the answer went out: it will send no frame.
    tell_app_closed(close_code::abnormal, {});
    stream_.abort();
    return;
  }
  // What the client sent after its opening request (it may not wait for the answer).
  if (length > 0) {
    bytes_in_ += length;
    held_.append(early, length);
    feed_held();
  }
  if (app_done_ && state_ == state::open) begin_close(close_code::normal);
  // A WebSocket that opens during a drain closes at once, as the open ones did.
  if (context_.drain_begun) begin_close(context_.drain_code);
  flush();
}

void endpoint::feed(const char* data, size_t length) {
  bytes_in_ += length;
  // A client that is sending is alive: its pong may wait behind a frame
  // it has not finished (a control frame cannot interrupt one), so the
  // ping timeout measures its silence.
  if (pong_deadline_ms_ != INT64_MAX) pong_deadline_ms_ = stream_.now_ms() + context_.config.ping_timeout_ms;
  // While the app's queue is full, what comes is held undecoded (a carrier
  // that cannot stop reading, an HTTP/2 stream, holds its window instead).
  if (!held_.empty() || paused()) {
    held_.append(data, length);
    if (!paused()) feed_held();
    return;
  }
  decode(data, length);
}

// Decodes what it can; when the app's queue fills, the rest is held until
// the app has taken enough.
void endpoint::decode(const char* data, size_t length) {
  if (state_ == state::ended) return;
  size_t used = reader_.feed(data, length, *this);
  if (used < length && !reader_.done() && state_ != state::ended) held_.append(data + used, length - used);
}

void endpoint::feed_held() {
  byte_buffer held;
  std::swap(held, held_);
  if (!held.empty()) decode(held.data(), held.size());
}

void endpoint::resume() {
  if (!held_.empty() && !paused()) feed_held();
}

void endpoint::peer_gone() {
  // The client went without finishing a close handshake.
  if (state_ == state::ended) return;
  if (state_ == state::open) {
    log::write(log::level::debug, "a WebSocket client at %s went without a close", stream_.peer_for_log());
  }
  tell_app_closed(close_code::abnormal, {});
  end();
}

// --- the reader's hooks -----------------------------------------------------------

bool endpoint::on_message(bool text, bool ascii, byte_buffer& payload) {
  if (state_ != state::open || app_told_) return true;  // closing: data is dropped
  x_->deliver_message(text ? exchange::message_kind::text : exchange::message_kind::binary, payload, ascii);
  pause_if_queue_full();
  return !x_->reading_paused();  // paused: the rest of the read waits
}

void endpoint::on_ping(const char* data, size_t n) {
  if (state_ == state::open) send_control(opcode::pong, data, n);
}

void endpoint::on_pong(const char* data, size_t n) {
  // Only the answer to our latest ping counts (an unsolicited pong is a heartbeat with no reply wanted).
  uint32_t count = ping_count_;
  if (n == sizeof count && std::memcmp(data, &count, sizeof count) == 0) pong_deadline_ms_ = INT64_MAX;
}

void endpoint::on_close(uint16_t code, std::string_view reason) {
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

void endpoint::on_error(uint16_t code, const char* reason) {
  const exchange::request_head& h = x_->head();
  log::write(log::level::info, "WebSocket %.*s from %s: %s; closing with %u", static_cast<int>(h.path.size()),
             h.path.data(), stream_.peer_for_log(), reason, static_cast<unsigned>(code));
  if (state_ == state::open) send_close(code);
  close_code_ = code;
  tell_app_closed(code, {});
  end();
}

// --- output ---------------------------------------------------------------------

void endpoint::send_control(opcode op, const char* data, size_t length) {
  byte_buffer& out = stream_.output().bytes();
  size_t before = out.size();
  append_frame(out, static_cast<uint8_t>(op), true, false, data, length);
  bytes_out_ += out.size() - before;
}

void endpoint::send_close(uint16_t code, std::string_view reason) {
  std::string payload = exchange::close_payload(code, reason);
  send_control(opcode::close, payload.data(), payload.size());
}

void endpoint::begin_close(uint16_t code, std::string_view reason) {
  if (state_ != state::open) return;
  take_app_output();  // what the app sent before goes first
  if (state_ != state::open) return;  // it was the app's own close
  send_close(code, reason);
  close_code_ = code;
  state_ = state::closing;
  close_deadline_ms_ = stream_.now_ms() + context_.config.close_timeout_ms;
  tell_app_closed(code, reason);
}

// The app's receive() returns the messages already delivered, then the
// close; its send() fails from now on.
void endpoint::tell_app_closed(uint16_t code, std::string_view reason) {
  if (app_told_ || x_ == nullptr) return;
  app_told_ = true;
  if (code != close_code::abnormal) {
    std::string payload = exchange::close_payload(code, reason);
    x_->deliver_message(exchange::message_kind::close, payload.data(), payload.size());
    x_->deliver_body_end();
  }
  x_->cancel();
}

void endpoint::take_app_output() {
  if (x_ == nullptr) return;
  if (state_ != state::open) {
    // Nothing may follow a close frame: what the app sent after it is dropped.
    net::output_queue dropped;
    x_->take_output(dropped);
    return;
  }
  bool closed = x_->app_closed();  // before the output: the close is then in it
  uint64_t moved = x_->take_output(stream_.output());
  bytes_out_ += moved;
  if (closed && state_ == state::open) {
    // The app closed first: the client's close is awaited.
    state_ = state::closing;
    close_deadline_ms_ = stream_.now_ms() + context_.config.close_timeout_ms;
  }
}

void endpoint::end() {
  state_ = state::ended;
  next_ping_ms_ = pong_deadline_ms_ = close_deadline_ms_ = INT64_MAX;
}

void endpoint::flush() {
  if (!stream_.push()) return;
  if (x_ != nullptr) x_->set_backlog(stream_.backlog());
  if (state_ == state::ended) stream_.finish();
}

void endpoint::pause_if_queue_full() {
  size_t window = context_.config.max_message < size_t{1} << 20 ? context_.config.max_message : size_t{1} << 20;
  if (x_->messages_waiting() >= context_.config.max_queue || x_->body_buffered() >= window) {
    x_->pause_reading(window, context_.config.max_queue);
  }
}

// --- the app's side ---------------------------------------------------------------

void endpoint::on_exchange_news(exchange::exchange* x) {
  if (x != x_ || !started_ || stream_.gone()) return;
  take_app_output();
  if (!paused() && !held_.empty()) {
    // The app took enough: the held bytes go on (a pong among them gets a
    // fresh timeout, since it could not be read while reading was paused).
    if (pong_deadline_ms_ != INT64_MAX) pong_deadline_ms_ = stream_.now_ms() + context_.config.ping_timeout_ms;
    feed_held();
  }
  flush();
  if (!stream_.gone()) stream_.replan();
}

void endpoint::on_app_done(exchange::exchange* x) {
  if (x != x_) return;
  app_done_ = true;
  if (!started_) return;  // start() sees it
  take_app_output();
  // An app that returns without closing: the server closes for it.
  if (state_ == state::open) begin_close(close_code::normal);
  flush();
  if (!stream_.gone()) stream_.replan();
}

// --- time -----------------------------------------------------------------------

bool endpoint::wants_input() const {
  if (state_ == state::ended || x_ == nullptr) return false;
  return !paused() && stream_.backlog() <= context_.config.output_high_water;
}

int64_t endpoint::deadline() const {
  if (state_ == state::ended || x_ == nullptr) return INT64_MAX;
  if (state_ != state::open) return close_deadline_ms_;
  // While reading is paused no pong can be read: its timeout waits.
  bool paused = x_->reading_paused();
  return paused || next_ping_ms_ < pong_deadline_ms_ ? next_ping_ms_ : pong_deadline_ms_;
}

void endpoint::on_deadline() {
  int64_t now = stream_.now_ms();
  if (state_ == state::closing && now >= close_deadline_ms_) {
    log::write(log::level::info, "a WebSocket client at %s did not finish the close handshake in time",
               stream_.peer_for_log());
    stream_.abort();
    return;
  }
  if (state_ != state::open) return;
  if (now >= pong_deadline_ms_ && !x_->reading_paused()) {
    log::write(log::level::info, "a WebSocket client at %s did not answer a ping in time; closing with 1011",
               stream_.peer_for_log());
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

void endpoint::drain() {
  begin_close(context_.drain_code);
  flush();
}

void endpoint::on_close() {
  if (state_ != state::ended && !app_told_) tell_app_closed(close_code::abnormal, {});
  let_go_of_exchange();
}

void endpoint::let_go_of_exchange() {
  if (x_ == nullptr) return;
  exchange::exchange* x = x_;
  x_ = nullptr;
  x->links.sink = nullptr;
  if (!app_told_) x->cancel();
  context_.server.websocket_closed(*x, {bytes_in_, bytes_out_, close_code_});
  x->release();
}

size_t endpoint::release_idle_memory() {
  if (reader_.in_message() || !held_.empty()) return 0;
  size_t freed = reader_.held() + held_.capacity();
  reader_.release_memory();
  held_ = byte_buffer();
  if (stream_.output().empty()) freed += stream_.output().release_memory();
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

}  // namespace baton::ws
