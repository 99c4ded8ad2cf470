#include "core/http1/protocol.h"

#include <cstring>
#include <ctime>

#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::http1 {
namespace {

constexpr size_t shared_read_size = 65536;
constexpr size_t own_read_size = 16384;
constexpr size_t direct_read_size = size_t{1024} * 1024;

}  // namespace

exchange::exchange* protocol::request_state::detach() {
  exchange::exchange* left = x;
  if (left != nullptr) left->links.sink = nullptr;
  *this = request_state();
  return left;
}

protocol::protocol(context& ctx, session::session& s)
    : context_(ctx), session_(s), wire_(ctx.wire_for(s.peer().listener)), peer_trusted_(ctx.gate.trusts_peer(s)) {}

protocol::~protocol() {
  if (exchange::exchange* x = current_.detach()) {
    x->cancel();
    x->release();
  }
}

void protocol::start() {
  head_started_ms_ = session_.now_ms();
  // Started after a drain began (a TLS handshake finished in it): the
  // client gets the idle grace to send its request, as at drain().
  if (gate().is_draining()) drain();
  // Bytes a handoff brought (or a restart left) are served at once.
  if (!session_.input().empty()) process(session_.input());
}

// --- input ------------------------------------------------------------------

// A length-framed body with nothing else waiting in front of it is read
// straight into the exchange: the bytes are copied once in user space on
// their way in (into the app's bytes object), not also out of a receive
// buffer.
bool protocol::receive_body_directly() {
  exchange::exchange* x = current_.x;
  // Where the app has asked for the bytes to go, straight there (no copy at
  // all in user space); otherwise into the exchange's buffer, within the window.
  size_t target_room = 0;
  char* target = x->target_space(target_room);
  size_t want = current_.body_remaining < direct_read_size ? static_cast<size_t>(current_.body_remaining)
                                                           : direct_read_size;
  if (target != nullptr) {
    if (want > target_room) want = target_room;
  } else {
    size_t buffered = x->body_buffered();
    size_t window = body_window_for(*x);
    size_t room = buffered < window ? window - buffered : 0;
    if (want > room) want = room > 0 ? room : 1;  // a full window still reads one byte: pause_reading decides
  }
  session::received r = session_.receive(target != nullptr ? target : x->body_space(want), want);
  switch (r.status) {
    case session::receive_status::data:
      current_.body_remaining -= r.bytes;
      current_.body_done = current_.body_remaining == 0;
      if (target != nullptr) x->target_received(r.bytes, current_.body_done);
      else x->body_received(r.bytes, current_.body_done);
      pause_if_window_full();
      return true;
    case session::receive_status::end:
      session_.set_eof();
      return true;
    case session::receive_status::again:
      return false;
    case session::receive_status::failed:
      break;
  }
  session_.close_now();
  return false;
}

void protocol::on_readable() {
  if (handed_off_) return;  // the next protocol reads from here on
  if (current_.x != nullptr && !current_.body_done && session_.input().empty() &&
      current_.x->head().length_known() && !current_.x->reading_paused()) {
    if (receive_body_directly() && !in_process_ && !session_.closed()) process(session_.input());
    if (in_process_ && session_.eof() && !current_.body_done) body_failed(400, "connection closed inside a request body");
    return;
  }
  read_into_input();
}

// With nothing waiting in the session's own buffer, reads into the loop's
// shared one: an idle connection then owns no input memory at all.
void protocol::read_into_input() {
  byte_buffer& own = session_.input();
  session::receive_lease lease = session_.lend_receive_buffer(own, own.empty() && !in_process_);
  byte_buffer& input = lease.bytes();
  size_t want = lease.shared() ? shared_read_size : own_read_size;
  char* p = input.prepare(want);
  session::received r = session_.receive(p, input.writable());
  switch (r.status) {
    case session::receive_status::data:
      if (state_ == state::reading && own.empty() && current_.x == nullptr) head_started_ms_ = session_.now_ms();
      input.commit(r.bytes);
      break;
    case session::receive_status::end:
      session_.set_eof();
      if (current_.x != nullptr && current_.body_done) current_.x->mark_client_finished();
      break;
    case session::receive_status::again:
      if (!session_.eof()) return;
      break;
    case session::receive_status::failed:
      session_.close_now();
      return;
  }
  if (in_process_) {
    // Re-entered while an inline app waits for this very request's body:
    // feed it (or fail it, at the end of input); the outer frame resumes
    // everything else.
    if (current_.x != nullptr && !current_.body_done) feed_body(input);
    if (session_.eof() && current_.x != nullptr && !current_.body_done && input.empty()) {
      body_failed(400, "connection closed inside a request body");
    }
  } else {
    process(input);
  }
  // What is left (a partial head, a pipelined request) must outlive the
  // shared buffer.
  if (!session_.closed()) lease.keep_unread(own);
}

// Serves every complete request in `input`, in order, as far as it can
// without waiting: a request whose app is still running stops the walk
// (its successors wait in the session's input), and so does output over
// the high-water mark.
void protocol::process(byte_buffer& input_buffer) {
  byte_buffer* input = &input_buffer;
  bool head_incomplete = false;
  in_process_ = true;
  while (!session_.closed() && !session_.lingering() && !upgrade_ && !handed_off_) {
    if (current_.x == nullptr) {
      if (close_after_flush_ || input->empty()) break;
      if (discard_left_ > 0) {
        size_t take = input->size() < discard_left_ ? input->size() : static_cast<size_t>(discard_left_);
        input->consume(take);
        discard_left_ -= take;
        // The next head's time starts once the rest is gone.
        if (discard_left_ == 0) head_started_ms_ = session_.now_ms();
        continue;
      }
      if (session_.output().buffered_bytes() > context_.config.output_high_water) break;  // resumes when drained
      if (requests_served_ == 0 && prior_knowledge(input)) break;
      parse_status parsed = start_exchange(*input);
      if (parsed != parse_status::complete) {
        head_incomplete = parsed == parse_status::incomplete;
        break;
      }
      if (answer_locally()) {
        finish_exchange();
        continue;
      }
      if (h2c_upgrade(input)) break;
      if (!offer_upgrade()) continue;  // refused
    }
    if (!current_.body_done) feed_body(*input);
    if (current_.x == nullptr || session_.closed()) continue;  // refused, or closed meanwhile
    if (current_.app == app_phase::before) {
      if (!ready_to_dispatch()) break;
      dispatch(input);
      if (session_.closed()) break;
    }
    if (current_.app != app_phase::done) break;  // the app is running; its done notice resumes us
    finish_exchange();
  }
  in_process_ = false;
  if (session_.closed()) return;
  if (session_.eof()) end_of_input_in_process(head_incomplete, *input);
  flush_output();
}

// RFC 9113 3.3: a client that knows the server speaks HTTP/2 begins with
// its preface. The part before "SM" would parse as an HTTP/1 request (PRI
// *), so a prefix of it waits for the rest.
bool protocol::prior_knowledge(byte_buffer*& input) {
  constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  size_t n = input->size() < preface.size() ? input->size() : preface.size();
  if (std::string_view(input->data(), n) != preface.substr(0, n)) return false;
  std::unique_ptr<session::protocol> next = gate().host.http2_for(session_);
  if (!next) return false;  // HTTP/2 is not served: an HTTP/1 answer (505)
  if (n < preface.size()) return true;
  hand_off_to_http2(input, std::move(next));
  return true;
}

// The bytes read after the switch (the client's preface, its first
// frames) go with the session, out of the loop's shared buffer.
void protocol::hand_off_to_http2(byte_buffer*& input, std::unique_ptr<session::protocol> next) {
  session_.keep_unread(input);
  handed_off_ = true;
  session_.hand_to(std::move(next));
}

namespace {

// RFC 4648's base64url (the HTTP2-Settings field's token68), padding
// optional. False on any other character.
bool decode_base64url(std::string_view text, std::string& out) {
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z' ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '-' ? 62
            : c == '_' ? 63
            : c == '=' ? -2
                       : -1;
    if (v == -1) return false;
    if (v == -2) break;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return true;
}

}  // namespace

// RFC 7540 3.2: `Upgrade: h2c` with an HTTP2-Settings field, on a plain
// connection, switches to HTTP/2 with a 101 when the request has no body
// (one with a body, or a malformed settings field, is served as HTTP/1.1,
// as the RFC lets a server do). The request is then stream 1's.
bool protocol::h2c_upgrade(byte_buffer*& input) {
  const exchange::request_head& h = current_.x->head();
  if (!h.upgrade || !h.upgrade_field || h.has_body() || session_.tls() != nullptr) return false;
  if (!util::has_list_token(h.find("upgrade"), "h2c")) return false;
  if (!util::has_list_token(h.find("connection"), "http2-settings")) return false;
  std::string settings;
  if (!h.has("http2-settings") || !decode_base64url(h.find("http2-settings"), settings)) return false;
  std::unique_ptr<session::protocol> next = gate().host.http2_upgrade(session_, settings, h);
  if (!next) return false;
  session_.output().bytes().append(
      std::string_view("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"));
  current_.detach()->release();  // the HTTP/2 protocol keeps its own copy of the request
  state_ = state::reading;
  hand_off_to_http2(input, std::move(next));
  return true;
}

void protocol::end_of_input_in_process(bool head_incomplete, const byte_buffer& input) {
  if (current_.x == nullptr && head_incomplete && !close_after_flush_) {
    reject(400, "connection closed inside a request head");
  } else if (current_.x == nullptr && input.empty()) {
    close_after_flush_ = true;
  } else if (current_.x != nullptr && !current_.body_done && input.empty() && !current_.x->reading_paused()) {
    body_failed(400, "connection closed inside a request body");
  }
}

// Parses the next head from `input`; on success makes it the current exchange.
parse_status protocol::start_exchange(byte_buffer& input) {
  request parsed;
  parse_result r = parse_request(input.data(), input.size(), cursor_, gate().http.request_limits,
                                 context_.header_scratch, parsed);
  if (r.status == parse_status::incomplete) return r.status;
  if (r.status == parse_status::error) {
    reject(r.http_status, r.reason);
    return r.status;
  }
  exchange::exchange* x = gate().host.new_exchange();
  x->reset_for(parsed, input.data(), r.head_length, session_.peer(), wire_, gate().forwarding(peer_trusted_));
  input.consume(r.head_length);
  x->links.sink = this;
  current_.x = x;
  state_ = state::active;
  begin_body(parsed);
  gate().stamp(*x);
  return parse_status::complete;
}

void protocol::begin_body(const request& parsed) {
  exchange::exchange* x = current_.x;
  switch (framing_of(parsed)) {
    case body_framing::none:
      current_.body_done = true;
      x->deliver_body_end();
      break;
    case body_framing::length:
      current_.body_done = parsed.content_length == 0;
      current_.body_remaining = static_cast<uint64_t>(parsed.content_length);
      if (current_.body_done) x->deliver_body_end();
      break;
    case body_framing::chunked:
      current_.body_done = false;
      current_.chunked.reset();
      current_.body_received = 0;
      break;
  }
  if (!current_.body_done) current_.body_deadline_ms = session_.now_ms() + gate().http.body_read_timeout_ms;
}

// The health path, a static file, or (draining with the listeners open) a
// 503: answered here, without the app, by the exchange's own API on this
// thread. A body the request carries is not read; the connection closes
// after the answer instead.
bool protocol::answer_locally() {
  if (!gate().answer_locally(*current_.x)) return false;
  if (!current_.body_done) close_after_flush_ = true;
  current_.body_done = true;
  current_.app = app_phase::done;
  take_output(false);
  return true;
}

void protocol::feed_body(byte_buffer& input) {
  exchange::exchange* x = current_.x;
  if (x->reading_paused()) return;
  if (x->head().length_known()) {
    size_t take = input.size() < current_.body_remaining ? input.size() : static_cast<size_t>(current_.body_remaining);
    current_.body_remaining -= take;
    current_.body_done = current_.body_remaining == 0;
    if (take > 0 || current_.body_done) x->deliver_body(input.data(), take, current_.body_done);
    input.consume(take);
  } else {
    feed_chunked(input);
    if (current_.x == nullptr) return;  // refused
  }
  pause_if_window_full();
}

void protocol::feed_chunked(byte_buffer& input) {
  exchange::exchange* x = current_.x;
  while (!current_.body_done) {
    chunked_decoder::step_result r = current_.chunked.step(input.data(), input.size());
    if (r.state == chunked_decoder::status::error) {
      body_failed(400, r.reason);
      return;
    }
    if (r.state == chunked_decoder::status::data) {
      current_.body_received += r.data_length;
      uint64_t max_body = gate().http.request_limits.max_body;
      if (max_body != 0 && current_.body_received > max_body) {
        body_failed(413, "chunked request body over the size limit");
        return;
      }
      x->deliver_body(r.data, r.data_length);
    }
    input.consume(r.consumed);
    if (r.state == chunked_decoder::status::done) {
      current_.body_done = true;
      x->deliver_body_end();
    }
    if (r.state == chunked_decoder::status::need_more) break;
  }
}

// The window is full: stop reading until the app has consumed half. The
// body's time budget stops running meanwhile (the wait is ours, not the
// client's).
void protocol::pause_if_window_full() {
  exchange::exchange* x = current_.x;
  if (x == nullptr || current_.body_done) return;
  size_t window = body_window_for(*x);
  if (x->body_buffered() >= window && x->pause_reading(window)) {
    current_.body_budget_left_ms = current_.body_deadline_ms - session_.now_ms();
  }
}

// A body that cannot be read: before the app runs, the request is refused
// and never reaches it; after, the app's next read fails with the status.
void protocol::body_failed(int status, const char* reason) {
  log::write(log::level::info, "request body from %s: %s (%d)", session_.peer_for_log(), reason, status);
  current_.body_done = true;
  close_after_flush_ = true;
  if (current_.app == app_phase::before) {
    current_.detach()->release();
    state_ = state::reading;
    reject(status, reason);  // counted there
    return;
  }
  metrics::refused(gate().metrics, status);
  current_.x->deliver_body_error(status);
}

// A request that asks to switch protocols (a WebSocket opening): the
// server says whether the switch is offered to the app (the exchange then
// carries what its 101 needs) or refused as malformed, answered here
// without the app. False when refused (the exchange is gone).
bool protocol::offer_upgrade() {
  if (!current_.x->head().upgrade_field) return true;
  session::upgrade_verdict v = gate().host.offer_upgrade(*current_.x);
  if (v.result != session::upgrade_verdict::kind::refused) return true;
  current_.detach()->release();
  state_ = state::reading;
  reject(v.status, v.reason, v.extra_fields);
  return false;
}

// The app finished a 101 for the WebSocket on offer and goes on: the
// exchange goes to the protocol switched to, which takes the session once
// the 101 is out.
void protocol::switch_protocols() {
  exchange::exchange* x = current_.detach();
  upgrade_ = gate().host.upgrade(session_, *x);
  if (!upgrade_) {
    x->cancel();
    close_after_flush_ = true;
  }
  x->release();
  state_ = state::reading;
  ++requests_served_;
  flush_output();
}

// Body bytes read ahead of the app: a large body's first read_whole_body
// bytes until the app asks for any (the rest stays in the socket, and a
// read into the app's own buffer then takes it with no copy in user space:
// on the 1 MiB echo the copies were a quarter of the CPU), the whole window
// once it reads.
size_t protocol::body_window_for(const exchange::exchange& x) const {
  return x.app_reading() ? gate().http.exchanges.body_window : context_.config.read_whole_body;
}

bool protocol::ready_to_dispatch() const {
  if (current_.body_done) return true;
  const exchange::request_head& h = current_.x->head();
  if (h.expect_continue) return true;  // the client waits for the app to ask
  size_t whole = context_.config.read_whole_body;
  if (h.length_known()) return static_cast<uint64_t>(h.content_length) > whole;
  return current_.body_received > whole || current_.x->reading_paused();
}

void protocol::dispatch(byte_buffer*& input) {
  // An inline app may run loop passes while it waits; the shared buffer
  // must be free for them, so what is left moves to the session's own first.
  session_.keep_unread(input);
  current_.app = app_phase::inside;
  current_.dispatch_ms = session_.now_ms();
  gate().host.submit(current_.x);
}

// --- output ------------------------------------------------------------------

void protocol::on_exchange_news(exchange::exchange* x) {
  if (x != current_.x || session_.closed()) return;
  if (x->switched()) {
    // Asked first: the 101 was queued before the flag went up.
    take_output(false);
    switch_protocols();
    if (!session_.closed()) session_.update();
    return;
  }
  if (x->take_continue_request()) send_continue();
  // News from the app side means it wants its output on the wire now (a
  // flushed piece, or it is about to wait for the window or for a body).
  x->take_flush_request();
  take_output(true);
  if (session_.closed()) return;
  // The app consumed enough body: read again, and feed what already waits.
  if (!current_.body_done && !x->reading_paused() && current_.body_budget_left_ms > 0) {
    current_.body_deadline_ms = session_.now_ms() + current_.body_budget_left_ms;
    current_.body_budget_left_ms = 0;
    if (!in_process_ && !session_.input().empty()) process(session_.input());
  }
  session_.update();
}

void protocol::on_app_done(exchange::exchange* x) {
  if (x != current_.x || session_.closed()) return;
  take_output(false);
  current_.app = app_phase::done;
  if (!in_process_) advance();
}

void protocol::take_output(bool flush_now) {
  // Bytes before the head can only be interim responses (103 Early Hints):
  // after those a 100 Continue may still go, and a 504 still answer.
  if (current_.x->take_output(session_.output()) > 0 && current_.x->head_ready()) current_.response_started = true;
  if (flush_now) flush_output();
  else if (current_.x != nullptr) current_.x->set_backlog(session_.output().buffered_bytes());
}

void protocol::send_continue() {
  if (current_.continue_sent || current_.response_started) return;
  current_.continue_sent = true;
  session_.output().bytes().append(continue_line);
  flush_output();
}

// The current exchange's app side is done and its output is queued: the
// connection is free for the next request (or, after a 101, for the
// protocol the app switched to).
void protocol::finish_exchange() {
  exchange::exchange* x = current_.x;
  if (!current_.body_done) {
    // Unread body still on the wire. An answer that kept the connection
    // (the encoder allows it for a length-framed rest within the window)
    // is followed by reading that rest and dropping it; otherwise the
    // connection closes after the answer.
    if (!x->close_after() && x->head().length_known()) {
      discard_left_ = current_.body_remaining;
      // The rest is bound by what is left of the body's time.
      discard_deadline_ms_ = current_.body_budget_left_ms > 0 ? session_.now_ms() + current_.body_budget_left_ms
                                                              : current_.body_deadline_ms;
    } else {
      close_after_flush_ = true;
    }
  }
  // A response that said close is the connection's last. One that said
  // keep-alive (its head went out before a drain began) is not: the client
  // may send its next request at once, and half-closing under it would
  // fail that request. A drain gives such a connection the idle grace.
  if (x->close_after() || !x->head().persistent) close_after_flush_ = true;
  if (x->response_status() == 101 && x->head().upgrade && !x->cancelled()) {
    upgrade_ = gate().host.upgrade(session_, *x);
    if (!upgrade_) close_after_flush_ = true;
  }
  gate().host.request_done(x);
  current_.detach()->release();
  state_ = state::reading;
  ++requests_served_;
  head_started_ms_ = session_.now_ms();
}

// Continues after the app finished or the socket drained: the next
// pipelined request, then the output.
void protocol::advance() {
  if (current_.x != nullptr && current_.app == app_phase::done) finish_exchange();
  if (session_.closed()) return;
  process(session_.input());
  session_.update();
}

void protocol::on_writable() {
  flush_output();
  if (session_.closed() || session_.write_blocked() || in_process_ || handed_off_) return;
  if (current_.x == nullptr && !session_.input().empty()) advance();
}

void protocol::reject(int status, const char* reason, std::string_view extra_fields) {
  gate().refused(session_, status, reason);
  append_simple_response(session_.output().bytes(), status, util::current_date_line(), "text/plain; charset=utf-8",
                         exchange::status_reason(status), true, false, {extra_fields});
  close_after_flush_ = true;
}

void protocol::flush_output() {
  if (!session_.flush()) return;
  if (current_.x != nullptr) current_.x->set_backlog(session_.output().buffered_bytes());
  if (!session_.write_blocked() && current_.x == nullptr) after_last_answer();
}

// Everything answered is out and no request is in flight.
void protocol::after_last_answer() {
  if (upgrade_) {
    // The 101 is out: the session goes on in the app's protocol, with
    // whatever the client sent after the request still in its input,
    // which this protocol must not read as HTTP from now on.
    handed_off_ = true;
    session_.hand_to(std::move(upgrade_));
    return;
  }
  if (!close_after_flush_ && gate().is_draining() && session_.input().empty() &&
      drain_close_ms_ == 0) {
    drain_close_ms_ = session_.now_ms() + gate().http.drain_idle_grace_ms;
  }
  if (close_after_flush_) {
    session_.start_lingering();
    return;
  }
  // Between requests a connection owns no buffers, so thousands of idle
  // keep-alive connections cost only their own few hundred bytes. Its
  // output storage goes to the loop's spares, where the next response on
  // any connection takes it back without a malloc or a free.
  if (session_.input().empty()) session_.input() = byte_buffer();
  session_.output().park_storage();
}

size_t protocol::release_idle_memory() {
  if (state_ != state::reading || current_.x != nullptr) return 0;
  size_t freed = 0;
  byte_buffer& in = session_.input();
  if (in.empty()) {
    freed += in.capacity();
    in = byte_buffer();
  }
  if (session_.output().empty()) freed += session_.output().release_memory();
  return freed;
}

// --- what it waits for ----------------------------------------------------------

protocol::plan protocol::current_plan() const {
  const settings& s = context_.config;
  plan p;
  if (upgrade_ || handed_off_) return p;  // nothing more is read as HTTP/1
  switch (state_) {
    case state::reading:
      p.read = !close_after_flush_ && session_.output().buffered_bytes() <= s.output_high_water;
      if (discard_left_ > 0) {
        p.deadline = discard_deadline_ms_;
      } else if (session_.input().empty() && requests_served_ > 0) {
        p.deadline = head_started_ms_ + gate().http.keep_alive_timeout_ms;
      } else {
        p.deadline = head_started_ms_ + gate().http.header_read_timeout_ms;
      }
      if (drain_close_ms_ > 0 && session_.input().empty() && drain_close_ms_ < p.deadline) p.deadline = drain_close_ms_;
      break;
    case state::active:
      if (!current_.body_done) {
        p.read = !current_.x->reading_paused();
        if (p.read) p.deadline = current_.body_deadline_ms;
      } else {
        p.read = !close_after_flush_ && session_.input().size() < s.read_ahead;
        // An offered switch (a WebSocket opening) waits for its app's
        // accept (or refusal) this long.
        if (current_.x->upgrade().websocket() && current_.app != app_phase::before && !current_.response_started) {
          int timeout = gate().host.upgrade_answer_timeout_ms();
          if (timeout > 0) p.deadline = current_.dispatch_ms + timeout;
        }
      }
      break;
  }
  return p;
}

void protocol::on_deadline() {
  switch (state_) {
    case state::reading:
      if (discard_left_ > 0) {
        log::write(log::level::info, "request body from %s: the unread rest did not arrive in time; closing",
                   session_.peer_for_log());
        session_.close_now();
      } else if (session_.input().empty()) {
        log::write(log::level::debug, "closing an idle connection");
        session_.close_now();
      } else {
        reject(408, "header read timeout");
        flush_output();
      }
      return;
    case state::active:
      if (current_.body_done) {
        // A WebSocket opening its app neither accepted nor refused in time.
        abandon_app(INT64_MAX);
        return;
      }
      body_failed(408, "request body timeout");
      flush_output();
      return;
  }
}

// --- lifetime ----------------------------------------------------------------

void protocol::abandon_app(int64_t) {
  if (current_.x == nullptr || current_.app != app_phase::inside) return;
  const exchange::request_head& h = current_.x->head();
  gate().app_overran(session_, h, 0, current_.response_started ? "closing the connection" : "answering 504");
  if (current_.response_started) {
    session_.close_now();
    return;
  }
  bool head_only = h.is_head;
  exchange::exchange* x = current_.detach();
  x->cancel();
  x->release();
  state_ = state::reading;
  append_simple_response(session_.output().bytes(), 504, util::current_date_line(), "text/plain; charset=utf-8",
                         exchange::status_reason(504), true, head_only);
  close_after_flush_ = true;
  flush_output();
}

// An idle connection is not closed at once: its client may be sending a
// request right now (the next on a keep-alive connection, or the first on
// one just accepted), and closing under it would fail that request. It gets
// a short grace to send one (answered with Connection: close); past it, it
// closes.
void protocol::drain() {
  if (state_ == state::reading && current_.x == nullptr && session_.input().empty() && !session_.write_blocked()) {
    drain_close_ms_ = session_.now_ms() + gate().http.drain_idle_grace_ms;
  }
}

void protocol::on_close() {
  upgrade_.reset();
  if (exchange::exchange* x = current_.detach()) {
    x->cancel();
    x->release();
  }
}

}  // namespace baton::http1
