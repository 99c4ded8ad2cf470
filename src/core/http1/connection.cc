#include "core/http1/connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/http1/response.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::http1 {
namespace {

constexpr size_t shared_read_size = 65536;
constexpr size_t own_read_size = 16384;
constexpr size_t direct_read_size = size_t{1024} * 1024;
constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

}  // namespace

connection::connection(connection_context& context, int fd, const sockaddr_storage& peer, uint16_t listener)
    : context_(context), socket_(fd), io_(&socket_), listener_(listener) {
  if (peer.ss_family == AF_INET) {
    auto* a = reinterpret_cast<const sockaddr_in*>(&peer);
    inet_ntop(AF_INET, &a->sin_addr, peer_text_, sizeof peer_text_);
    peer_port_ = ntohs(a->sin_port);
  } else if (peer.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<const sockaddr_in6*>(&peer);
    inet_ntop(AF_INET6, &a->sin6_addr, peer_text_, sizeof peer_text_);
    peer_port_ = ntohs(a->sin6_port);
  }
  peer_text_length_ = static_cast<uint8_t>(strnlen(peer_text_, sizeof peer_text_));
  out_.set_spares(context_.output_spares);
  decide_trust();
}

connection::connection(connection_context& context, net::transport& io, const peer_info& peer)
    : context_(context), socket_(-1), io_(&io) {
  out_.set_spares(context_.output_spares);
  set_peer(peer);
  decide_trust();
}

// Once per connection: whether its peer is a proxy whose forwarding headers
// count (the allow list, or a Unix socket).
void connection::decide_trust() {
  const proxy_settings& proxy = context_.settings.proxy;
  if (!proxy.enabled) return;
  peer_trusted_ = peer_text_length_ == 0 ? proxy.trust_unix : proxy.trusted.contains(peer().address);
}

void connection::set_peer(const peer_info& peer) {
  size_t n = peer.address.size() < sizeof peer_text_ - 1 ? peer.address.size() : sizeof peer_text_ - 1;
  util::copy_bytes(peer_text_, peer.address, n);
  peer_text_[n] = '\0';
  peer_text_length_ = static_cast<uint8_t>(n);
  peer_port_ = peer.port;
  listener_ = peer.listener;
}

connection::~connection() {
  if (state_ != state::closed) close_now();
}

void connection::start() {
  head_started_ms_ = context_.loop.now_ms();
  interest_ = loop::event_loop::readable;
  if (io_->fd() >= 0) context_.loop.add(io_->fd(), interest_, this);
  update_timer();
}

void connection::on_io(uint32_t events) {
  if (state_ == state::closed) return;
  if ((events & EPOLLERR) != 0) {
    close_now();
    return;
  }
  if ((events & EPOLLOUT) != 0 && write_blocked_) on_writable();
  if (state_ == state::closed) return;
  if ((events & EPOLLIN) != 0) {
    on_readable();
  } else if ((events & EPOLLHUP) != 0) {
    // Both directions are shut (a reset, or our own half-close answered):
    // nothing more can be sent or received.
    close_now();
  }
}

// --- input ------------------------------------------------------------------

// A length-framed body with nothing else waiting in front of it is read
// straight into the stream: the bytes are copied once in user space on their
// way in (into the app's bytes object), not also out of a receive buffer.
bool connection::receive_body_directly() {
  stream* s = current_;
  // Where the app has asked for the bytes to go, straight there (no copy at
  // all in user space); otherwise into the stream's buffer, within the window.
  size_t target_room = 0;
  char* target = s->target_space(target_room);
  size_t want = body_remaining_ < direct_read_size ? static_cast<size_t>(body_remaining_) : direct_read_size;
  if (target != nullptr) {
    if (want > target_room) want = target_room;
  } else {
    size_t buffered = s->body_buffered();
    size_t window = body_window_for(*s);
    size_t room = buffered < window ? window - buffered : 0;
    if (want > room) want = room > 0 ? room : 1;  // a full window still reads one byte: pause_reading decides
  }
  ssize_t n = io_->receive(target != nullptr ? target : s->body_space(want), want);
  if (n > 0) {
    body_remaining_ -= static_cast<uint64_t>(n);
    body_done_ = body_remaining_ == 0;
    if (target != nullptr) s->target_received(static_cast<size_t>(n), body_done_);
    else s->body_received(static_cast<size_t>(n), body_done_);
    size_t window = body_window_for(*s);
    if (!body_done_ && s->body_buffered() >= window && s->pause_reading(window)) {
      body_budget_left_ms_ = body_deadline_ms_ - context_.loop.now_ms();
    }
    return true;
  }
  if (n == 0) {
    eof_ = true;
    return true;
  }
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return false;
  close_now();
  return false;
}

void connection::on_readable() {
  if (state_ == state::lingering) {
    char discard[4096];
    ssize_t n = io_->receive(discard, sizeof discard);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_now();
    return;
  }
  if (current_ != nullptr && !body_done_ && in_.empty() && current_->head().framing == body_framing::length &&
      !current_->reading_paused()) {
    if (receive_body_directly() && !in_process_) process(in_);
    if (in_process_ && eof_ && !body_done_) body_failed(400, "connection closed inside a request body");
    update_interest();
    update_timer();
    return;
  }
  // With nothing waiting in our own buffer, read into the loop's shared
  // one: an idle connection then owns no input memory at all.
  receive_buffer& shared = context_.shared_input;
  bool use_shared = in_.empty() && !shared.lent && !in_process_;
  byte_buffer& input = use_shared ? shared.bytes : in_;
  if (use_shared) {
    shared.bytes.clear();
    shared.lent = true;
  }
  size_t want = use_shared ? shared_read_size : own_read_size;
  char* p = input.prepare(want);
  ssize_t n = io_->receive(p, input.writable());
  if (n > 0) {
    if (state_ == state::reading && in_.empty() && current_ == nullptr) head_started_ms_ = context_.loop.now_ms();
    input.commit(static_cast<size_t>(n));
  } else if (n == 0) {
    eof_ = true;
    if (current_ != nullptr && body_done_) current_->mark_client_finished();
  } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
    if (use_shared) shared.lent = false;
    close_now();
    return;
  }
  if (n < 0 && !eof_) {
    if (use_shared) shared.lent = false;
    return;
  }
  if (in_process_) {
    // Re-entered while an inline app waits for this very request's body:
    // feed it; the outer frame resumes everything else.
    if (current_ != nullptr && !body_done_) feed_body(input);
  } else {
    process(input);
  }
  if (use_shared) {
    // What is left (a partial head, a pipelined request) must outlive the
    // shared buffer.
    if (!shared.bytes.empty() && state_ != state::closed) in_.append(shared.bytes.view());
    shared.bytes.clear();
    shared.lent = false;
  }
  update_interest();
  update_timer();
}

// Serves every complete request in `input`, in order, as far as it can
// without waiting: a request whose app is still running stops the walk
// (its successors wait in in_), and so does output over the high-water mark.
void connection::process(byte_buffer& input_buffer) {
  byte_buffer* input = &input_buffer;
  bool head_incomplete = false;
  in_process_ = true;
  while (state_ == state::reading || state_ == state::active) {
    if (current_ == nullptr) {
      if (close_after_flush_ || input->empty()) break;
      if (discard_left_ > 0) {
        size_t take = input->size() < discard_left_ ? input->size() : static_cast<size_t>(discard_left_);
        input->consume(take);
        discard_left_ -= take;
        // The next head's time starts once the rest is gone.
        if (discard_left_ == 0) head_started_ms_ = context_.loop.now_ms();
        continue;
      }
      if (out_.buffered_bytes() > context_.settings.output_high_water) break;  // resumes when drained
      parse_status parsed = start_stream(*input);
      if (parsed != parse_status::complete) {
        head_incomplete = parsed == parse_status::incomplete;
        break;
      }
      if (answer_locally()) {
        finish_stream();
        continue;
      }
    }
    if (!body_done_) feed_body(*input);
    if (current_ == nullptr || state_ == state::closed) continue;  // refused, or closed meanwhile
    if (!dispatched_) {
      if (!ready_to_dispatch()) break;
      dispatch(input);
      if (state_ == state::closed) break;
    }
    if (!app_done_) break;  // the app is running; its done notice resumes us
    finish_stream();
  }
  in_process_ = false;
  if (state_ == state::closed) return;
  if (eof_) {
    if (current_ == nullptr && head_incomplete && !close_after_flush_) {
      reject(400, "connection closed inside a request head");
    } else if (current_ == nullptr && input->empty()) {
      close_after_flush_ = true;
    } else if (current_ != nullptr && !body_done_ && input->empty() && !current_->reading_paused()) {
      body_failed(400, "connection closed inside a request body");
    }
  }
  flush_output();
}

// Parses the next head from `input`; on success makes it the current stream.
parse_status connection::start_stream(byte_buffer& input) {
  request parsed;
  parse_result r = parse_request(input.data(), input.size(), cursor_, context_.settings.request_limits,
                                 context_.header_scratch, parsed);
  if (r.status == parse_status::incomplete) return r.status;
  if (r.status == parse_status::error) {
    reject(r.http_status, r.reason);
    return r.status;
  }
  stream* s = context_.host.new_stream();
  s->reset_for(parsed, input.data(), peer(), peer_trusted_ ? &context_.settings.proxy : nullptr);
  input.consume(parsed.head_length);
  s->conn = this;
  current_ = s;
  state_ = state::active;
  dispatched_ = false;
  app_done_ = false;
  continue_sent_ = false;
  response_started_ = false;
  switch (parsed.framing) {
    case body_framing::none:
      body_done_ = true;
      s->deliver_body_end();
      break;
    case body_framing::length:
      body_done_ = parsed.content_length == 0;
      body_remaining_ = parsed.content_length;
      if (body_done_) s->deliver_body_end();
      break;
    case body_framing::chunked:
      body_done_ = false;
      chunked_.reset();
      body_received_ = 0;
      break;
  }
  if (!body_done_) body_deadline_ms_ = context_.loop.now_ms() + context_.settings.body_read_timeout_ms;
  if (context_.timing) {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    s->started_ns = static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  }
  return parse_status::complete;
}

// The health path, a static file, or (draining with the listeners open) a
// 503: answered here, without the app. A body the request carries is not
// read; the connection closes after the answer instead.
bool connection::answer_locally() {
  bool draining = context_.draining.load(std::memory_order_relaxed);
  bool refusing = draining && context_.refusing != nullptr && *context_.refusing;
  if (context_.local == nullptr && !refusing) return false;
  stream* s = current_;
  bool keep = s->head().keep_alive && body_done_ && !draining;
  local_routes::answer a;
  if (context_.local == nullptr || !context_.local->try_answer(s->head(), keep, draining, out_, a)) {
    if (!refusing) return false;
    local_routes::refuse_draining(s->head(), out_, a);
  }
  s->set_local_answer(a.status, a.body_bytes);
  if (a.close || !body_done_) close_after_flush_ = true;
  body_done_ = true;
  dispatched_ = true;
  app_done_ = true;
  response_started_ = true;
  return true;
}

void connection::feed_body(byte_buffer& input) {
  stream* s = current_;
  if (s->reading_paused()) return;
  if (s->head().framing == body_framing::length) {
    size_t take = input.size() < body_remaining_ ? input.size() : static_cast<size_t>(body_remaining_);
    body_remaining_ -= take;
    body_done_ = body_remaining_ == 0;
    if (take > 0 || body_done_) s->deliver_body(input.data(), take, body_done_);
    input.consume(take);
  } else {
    while (!body_done_) {
      chunked_decoder::step_result r = chunked_.step(input.data(), input.size());
      if (r.state == chunked_decoder::status::error) {
        body_failed(400, r.reason);
        return;
      }
      if (r.state == chunked_decoder::status::data) {
        body_received_ += r.data_length;
        uint64_t max_body = context_.settings.request_limits.max_body;
        if (max_body != 0 && body_received_ > max_body) {
          body_failed(413, "chunked request body over the size limit");
          return;
        }
        s->deliver_body(r.data, r.data_length);
      }
      input.consume(r.consumed);
      if (r.state == chunked_decoder::status::done) {
        body_done_ = true;
        s->deliver_body_end();
      }
      if (r.state == chunked_decoder::status::need_more) break;
    }
  }
  // The window is full: stop reading until the app has consumed half. The
  // body's time budget stops running meanwhile (the wait is ours, not the
  // client's).
  size_t window = body_window_for(*s);
  if (!body_done_ && s->body_buffered() >= window && s->pause_reading(window)) {
    body_budget_left_ms_ = body_deadline_ms_ - context_.loop.now_ms();
  }
}

// A body that cannot be read: before the app runs, the request is refused
// and never reaches it; after, the app's next read fails with the status.
void connection::body_failed(int status, const char* reason) {
  log::write(log::level::info, "request body from %s: %s (%d)", peer_text_length_ ? peer_text_ : "unix socket",
             reason, status);
  body_done_ = true;
  close_after_flush_ = true;
  if (!dispatched_) {
    stream* s = current_;
    current_ = nullptr;
    s->conn = nullptr;
    s->release();
    state_ = state::reading;
    reject(status, reason);
    return;
  }
  current_->deliver_body_error(status);
}

// Body bytes read ahead of the app: a large body's first read_whole_body
// bytes until the app asks for any (the rest stays in the socket, and a
// read into the app's own buffer then takes it with no copy in user space:
// on the 1 MiB echo the copies were a quarter of the CPU), the whole window
// once it reads.
size_t connection::body_window_for(const stream& s) const {
  return s.app_reading() ? context_.settings.body_window() : context_.settings.read_whole_body;
}

bool connection::ready_to_dispatch() const {
  if (body_done_) return true;
  const request& h = current_->head();
  if (h.expect_continue) return true;  // the client waits for the app to ask
  size_t whole = context_.settings.read_whole_body;
  if (h.framing == body_framing::length) return h.content_length > whole;
  return body_received_ > whole || current_->reading_paused();
}

void connection::dispatch(byte_buffer*& input) {
  // An inline app may run loop passes while it waits; the shared buffer
  // must be free for them, so what is left moves to our own buffer first.
  if (input != &in_ && !input->empty()) {
    in_.append(input->view());
    input->clear();
  }
  if (input != &in_) {
    context_.shared_input.lent = false;
    input = &in_;
  }
  dispatched_ = true;
  dispatch_ms_ = context_.loop.now_ms();
  context_.host.submit(current_);
}

// --- output ------------------------------------------------------------------

void connection::on_stream_news(stream* s) {
  if (s != current_ || state_ == state::closed) return;
  if (s->take_continue_request()) send_continue();
  // News from the app side means it wants its output on the wire now (a
  // flushed piece, or it is about to wait for the window or for a body).
  s->take_flush_request();
  take_output(true);
  if (state_ == state::closed) return;
  // The app consumed enough body: read again, and feed what already waits.
  if (!body_done_ && !s->reading_paused() && body_budget_left_ms_ > 0) {
    body_deadline_ms_ = context_.loop.now_ms() + body_budget_left_ms_;
    body_budget_left_ms_ = 0;
    if (!in_process_ && !in_.empty()) process(in_);
  }
  update_interest();
  update_timer();
}

void connection::on_app_done(stream* s) {
  if (s != current_ || state_ == state::closed) return;
  take_output(false);
  app_done_ = true;
  if (!in_process_) advance();
}

void connection::take_output(bool flush_now) {
  if (current_->take_output(out_) > 0) response_started_ = true;
  if (flush_now) flush_output();
  else if (current_ != nullptr) current_->set_backlog(out_.buffered_bytes());
}

void connection::send_continue() {
  if (continue_sent_ || response_started_) return;
  continue_sent_ = true;
  out_.bytes().append(continue_line);
  flush_output();
}

// The current stream's app side is done and its output is in out_: the
// connection is free for the next request.
void connection::finish_stream() {
  stream* s = current_;
  if (!body_done_) {
    // Unread body still on the wire. An answer that kept the connection
    // (stream::commit allows it for a length-framed rest within the window)
    // is followed by reading that rest and dropping it; otherwise the
    // connection closes after the answer.
    if (!s->close_after() && s->head().framing == body_framing::length) {
      discard_left_ = body_remaining_;
      if (body_budget_left_ms_ > 0) body_deadline_ms_ = context_.loop.now_ms() + body_budget_left_ms_;
    } else {
      close_after_flush_ = true;
    }
  }
  // A response that said close is the connection's last. One that said
  // keep-alive (its head went out before a drain began) is not: the client
  // may send its next request at once, and half-closing under it would
  // fail that request. A drain gives such a connection the idle grace.
  if (s->close_after() || !s->head().keep_alive) close_after_flush_ = true;
  context_.host.request_done(s);
  current_ = nullptr;
  s->conn = nullptr;
  s->release();
  state_ = state::reading;
  dispatched_ = false;
  app_done_ = false;
  response_started_ = false;
  body_done_ = true;
  body_budget_left_ms_ = 0;
  ++requests_served_;
  head_started_ms_ = context_.loop.now_ms();
}

// Continues after the app finished or the socket drained: the next
// pipelined request, then the output.
void connection::advance() {
  if (current_ != nullptr && app_done_) finish_stream();
  if (state_ == state::closed) return;
  process(in_);
  update_interest();
  update_timer();
}

void connection::on_writable() {
  write_progress_ms_ = context_.loop.now_ms();
  flush_output();
  if (state_ == state::closed || write_blocked_ || in_process_) return;
  if (current_ == nullptr && !in_.empty()) advance();
}

void connection::reject(int status, const char* reason) {
  log::write(log::level::info, "rejected a request from %s: %s (%d)", peer_text_length_ ? peer_text_ : "unix socket",
             reason, status);
  append_simple_response(out_.bytes(), status, current_date_line(), "text/plain; charset=utf-8",
                         status_reason(status), true);
  close_after_flush_ = true;
}

void connection::flush_output() {
  if (state_ == state::closed) return;
  if (!out_.empty()) {
    switch (out_.flush(*io_)) {
      case net::output_queue::flush_result::failed:
        close_now();
        return;
      case net::output_queue::flush_result::blocked:
        if (!write_blocked_) write_progress_ms_ = context_.loop.now_ms();
        write_blocked_ = true;
        break;
      case net::output_queue::flush_result::done:
        write_blocked_ = false;
        break;
    }
  } else {
    write_blocked_ = false;
  }
  if (current_ != nullptr) current_->set_backlog(out_.buffered_bytes());
  if (!write_blocked_ && current_ == nullptr) {
    if (!close_after_flush_ && context_.draining.load(std::memory_order_relaxed) && in_.empty() &&
        drain_close_ms_ == 0) {
      drain_close_ms_ = context_.loop.now_ms() + context_.settings.drain_idle_grace_ms;
    }
    if (close_after_flush_ && state_ != state::lingering) {
      start_lingering();
      return;
    }
    // Between requests a connection owns no buffers, so thousands of idle
    // keep-alive connections cost only their own few hundred bytes. Its
    // output storage goes to the loop's spares, where the next response on
    // any connection takes it back without a malloc or a free.
    if (in_.empty()) in_ = byte_buffer();
    out_.park_storage();
  }
  update_interest();
  update_timer();
}

// Half-closes and reads until the client closes too (or a short deadline):
// closing with unread input would make the kernel send a reset, and the
// client could lose the answer it has not read yet.
void connection::start_lingering() {
  if (eof_) {
    close_now();
    return;
  }
  io_->shutdown_write();
  state_ = state::lingering;
  linger_started_ms_ = context_.loop.now_ms();
  in_ = byte_buffer();
  out_.release_memory();
  update_interest();
  update_timer();
  context_.host.connection_lingering(this);
}

size_t connection::release_idle_memory() {
  if (state_ != state::reading || current_ != nullptr || write_blocked_) return 0;
  size_t freed = 0;
  if (in_.empty()) {
    freed += in_.capacity();
    in_ = byte_buffer();
  }
  if (out_.empty()) freed += out_.release_memory();
  return freed;
}

// --- interest and deadlines ----------------------------------------------------

void connection::update_interest() {
  if (state_ == state::closed) return;
  bool read = false;
  switch (state_) {
    case state::reading:
      read = !close_after_flush_ && out_.buffered_bytes() <= context_.settings.output_high_water;
      break;
    case state::active:
      if (!body_done_) read = !current_->reading_paused();
      else read = !close_after_flush_ && in_.size() < context_.settings.read_ahead;
      break;
    case state::lingering:
      read = true;
      break;
    case state::closed:
      break;
  }
  // At end of input a level-triggered EPOLLIN would fire forever.
  if (eof_ && state_ != state::lingering) read = false;
  uint32_t want = (read ? loop::event_loop::readable : 0u) | (write_blocked_ ? loop::event_loop::writable : 0u);
  if (want != interest_) {
    if (io_->fd() >= 0) context_.loop.modify(io_->fd(), want, this);
    interest_ = want;
  }
}

int64_t connection::current_deadline() const {
  const connection_settings& s = context_.settings;
  int64_t deadline = INT64_MAX;
  switch (state_) {
    case state::reading:
      if (discard_left_ > 0) deadline = body_deadline_ms_;
      else if (in_.empty() && requests_served_ > 0) deadline = head_started_ms_ + s.keep_alive_timeout_ms;
      else deadline = head_started_ms_ + s.header_read_timeout_ms;
      if (drain_close_ms_ > 0 && in_.empty() && drain_close_ms_ < deadline) deadline = drain_close_ms_;
      break;
    case state::active:
      if (!body_done_ && !current_->reading_paused()) deadline = body_deadline_ms_;
      break;
    case state::lingering:
      deadline = linger_started_ms_ + s.linger_ms;
      break;
    case state::closed:
      return INT64_MAX;
  }
  if (write_blocked_) {
    int64_t w = write_progress_ms_ + s.write_timeout_ms;
    if (w < deadline) deadline = w;
  }
  return deadline;
}

void connection::update_timer() {
  if (state_ == state::closed) return;
  int64_t deadline = current_deadline();
  if (deadline == INT64_MAX) {
    context_.loop.disarm(timer_);
    return;
  }
  if (!timer_.armed() || timer_.deadline != deadline) context_.loop.arm(timer_, deadline);
}

void connection::on_timer() {
  if (state_ == state::closed) return;
  int64_t now = context_.loop.now_ms();
  const connection_settings& s = context_.settings;
  if (write_blocked_ && now >= write_progress_ms_ + s.write_timeout_ms) {
    log::write(log::level::info, "closing a connection from %s whose client stopped reading (write timeout)",
               peer_text_length_ ? peer_text_ : "unix socket");
    close_now();
    return;
  }
  if (now < current_deadline()) {
    update_timer();
    return;
  }
  switch (state_) {
    case state::reading:
      if (discard_left_ > 0) {
        log::write(log::level::info, "request body from %s: the unread rest did not arrive in time; closing",
                   peer_text_length_ ? peer_text_ : "unix socket");
        close_now();
      } else if (in_.empty()) {
        log::write(log::level::debug, "closing an idle connection");
        close_now();
      } else {
        reject(408, "header read timeout");
        flush_output();
      }
      return;
    case state::active:
      body_failed(408, "request body timeout");
      flush_output();
      return;
    case state::lingering:
    case state::closed:
      close_now();
      return;
  }
}

// --- lifetime ----------------------------------------------------------------

void connection::abandon_app() {
  if (current_ == nullptr || !dispatched_ || app_done_) return;
  stream* s = current_;
  const request& h = s->head();
  log::write(log::level::error, "%.*s %.*s from %s has been inside the application past the timeout; %s",
             static_cast<int>(h.method.size()), h.method.data(), static_cast<int>(std::min<size_t>(h.target.size(), 200)),
             h.target.data(), peer_text_length_ ? peer_text_ : "unix socket",
             response_started_ ? "closing the connection" : "answering 504");
  if (response_started_) {
    close_now();
    return;
  }
  bool head_only = h.is_head;
  current_ = nullptr;
  s->conn = nullptr;
  s->cancel();
  s->release();
  state_ = state::reading;
  dispatched_ = false;
  app_done_ = false;
  body_done_ = true;
  append_simple_response(out_.bytes(), 504, current_date_line(), "text/plain; charset=utf-8", status_reason(504),
                         true, head_only);
  close_after_flush_ = true;
  flush_output();
}

// An idle connection is not closed at once: its client may be sending a
// request right now (the next on a keep-alive connection, or the first on
// one just accepted), and closing under it would fail that request. It gets
// a short grace to send one (answered with Connection: close); past it, it
// closes.
void connection::drain() {
  if (state_ == state::reading && current_ == nullptr && in_.empty() && !write_blocked_) {
    drain_close_ms_ = context_.loop.now_ms() + context_.settings.drain_idle_grace_ms;
    update_timer();
  }
}

void connection::close_now() {
  if (state_ == state::closed) return;
  bool was_lingering = state_ == state::lingering;
  state_ = state::closed;
  context_.loop.disarm(timer_);
  if (io_->fd() >= 0) context_.loop.remove(io_->fd());
  io_->close();
  out_.release_memory();
  in_ = byte_buffer();
  if (current_ != nullptr) {
    stream* s = current_;
    current_ = nullptr;
    s->conn = nullptr;
    s->cancel();
    s->release();
  }
  context_.host.connection_closed(this, was_lingering);
}

}  // namespace baton::http1
