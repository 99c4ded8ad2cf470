#include "core/http1/connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/util/log.h"

namespace baton::http1 {
namespace {

constexpr size_t read_chunk = 16384;
constexpr size_t body_read_chunk = 65536;
constexpr std::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

int64_t monotonic_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

bool parse_length(std::string_view s, int64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

bool contains_close_token(std::string_view value) {
  while (!value.empty()) {
    size_t comma = value.find(',');
    std::string_view token = value.substr(0, comma);
    while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.remove_prefix(1);
    while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
    if (equals_ignore_case(token, "close")) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

connection::connection(connection_context& context, int fd, const sockaddr_storage& peer, socklen_t peer_length)
    : context_(context),
      fd_(fd),
      header_storage_(context.settings.request_limits.max_headers),
      peer_(peer),
      peer_length_(peer_length) {}

connection::~connection() {
  if (state_ != state::closed) close_now();
}

void connection::start() {
  head_started_ms_ = context_.loop.now_ms();
  context_.loop.add(fd_, loop::event_loop::readable, this);
  update_timer();
}

void connection::on_io(uint32_t events) {
  if (state_ == state::closed) return;
  if ((events & EPOLLERR) != 0) {
    close_now();
    return;
  }
  if (state_ == state::writing && (events & (EPOLLOUT | EPOLLHUP)) != 0) {
    write_progress_ms_ = context_.loop.now_ms();
    flush_and_settle();
    if (state_ == state::reading && !close_after_flush_ && !in_.empty()) process_input();
    return;
  }
  if ((events & (EPOLLIN | EPOLLHUP)) != 0) on_readable();
}

void connection::on_readable() {
  if (state_ == state::lingering) {
    char discard[4096];
    ssize_t n = ::recv(fd_, discard, sizeof discard, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_now();
    return;
  }
  bool was_empty = in_.empty();
  char* p = in_.prepare(read_chunk);
  ssize_t n = ::recv(fd_, p, in_.writable(), 0);
  if (n > 0) {
    if (was_empty) head_started_ms_ = context_.loop.now_ms();
    in_.commit(static_cast<size_t>(n));
    process_input();
    return;
  }
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
    close_now();
    return;
  }
  eof_ = true;
  if (in_.empty()) {
    close_now();
    return;
  }
  process_input();
}

// Parses and serves every complete request in the buffer, in order, then
// sends the answers with one write. Stops early when the output queue is
// over its high-water mark, so a client that pipelines without reading
// cannot make the server buffer without bound.
void connection::process_input() {
  while (state_ == state::reading && !close_after_flush_ && !broken_ && !in_.empty()) {
    if (out_.buffered_bytes() > context_.settings.output_high_water) {
      net::output_queue::flush_result sent = out_.flush(fd_);
      if (sent == net::output_queue::flush_result::failed) broken_ = true;
      if (sent != net::output_queue::flush_result::done) break;  // flush_and_settle waits for writable
    }
    parse_result r = parse_request(in_.data(), in_.size(), cursor_, context_.settings.request_limits,
                                   header_storage_.data(), request_);
    if (r.status == parse_status::incomplete) {
      if (eof_) reject(400, "connection closed inside a request head");
      break;
    }
    if (r.status == parse_status::error) {
      reject(r.http_status, r.reason);
      break;
    }
    run_exchange();
    if (broken_) {
      close_now();
      return;
    }
    ++requests_served_;
    head_started_ms_ = context_.loop.now_ms();
  }
  if (eof_ && in_.empty() && !close_after_flush_) close_after_flush_ = true;
  flush_and_settle();
}

// A chunked body that has already arrived in full (or in part) is checked
// before the app is called, so a malformed or oversized one is refused
// without the app ever seeing the request. Bytes still on the wire are
// checked as the app reads them.
bool connection::chunked_prefix_is_valid() {
  uint64_t received = 0;
  chunked_decoder::step_result r = scan_buffered_chunks(chunked_decoder{}, 0, received);
  if (r.state == chunked_decoder::status::error) {
    reject(400, r.reason);
    return false;
  }
  uint64_t max_body = context_.settings.request_limits.max_body;
  if (max_body != 0 && received > max_body) {
    reject(413, "chunked body too large");
    return false;
  }
  return true;
}

// Runs a copy of a chunked decoder over the buffered bytes from `pos`,
// consuming nothing, until it needs more, ends or fails; `received` counts
// the body bytes it passed.
chunked_decoder::step_result connection::scan_buffered_chunks(chunked_decoder probe, size_t pos,
                                                              uint64_t& received) const {
  while (true) {
    chunked_decoder::step_result r = probe.step(in_.data() + pos, in_.size() - pos);
    pos += r.consumed;
    if (r.state != chunked_decoder::status::data) return r;
    received += r.data_length;
  }
}

void connection::run_exchange() {
  in_.consume(request_.head_length);
  if (request_.framing == body_framing::chunked && !chunked_prefix_is_valid()) return;
  switch (request_.framing) {
    case body_framing::none:
      body_done_ = true;
      break;
    case body_framing::length:
      body_done_ = false;
      body_remaining_ = request_.content_length;
      break;
    case body_framing::chunked:
      body_done_ = false;
      chunked_.reset();
      chunk_run_ = 0;
      body_received_ = 0;
      break;
  }
  body_error_ = 0;
  continue_sent_ = false;
  committed_ = false;
  response_length_ = -1;
  response_sent_ = 0;
  response_chunked_ = false;
  response_no_body_ = false;
  app_wants_close_ = false;

  in_exchange_ = true;
  finished_ = false;
  context_.handler.handle(*this);
  in_exchange_ = false;
  // The app may have run for seconds: deadlines set from here on must not
  // start from the time the pass began.
  context_.loop.refresh_clock();
  if (!committed_ && !broken_) {
    // (The head's views may be gone by now, so the log names no target.)
    log::write(log::level::error, "the request handler produced no response");
    fail(500);
  }
  finish_exchange();
}

void connection::finish_exchange() {
  // Unread body bytes must go before the next request can be parsed. What
  // is already buffered is dropped here; a body still on the wire means the
  // connection cannot be reused.
  if (!body_complete_without_waiting()) close_after_flush_ = true;
  if (!request_.keep_alive || context_.draining) close_after_flush_ = true;
}

bool connection::body_complete_without_waiting() {
  if (body_done_) return true;
  if (body_error_ != 0) return false;
  if (request_.framing == body_framing::length) {
    size_t n = in_.size() < body_remaining_ ? in_.size() : static_cast<size_t>(body_remaining_);
    in_.consume(n);
    body_remaining_ -= n;
    body_done_ = body_remaining_ == 0;
    return body_done_;
  }
  in_.consume(chunk_run_);
  chunk_run_ = 0;
  while (true) {
    chunked_decoder::step_result r = chunked_.step(in_.data(), in_.size());
    in_.consume(r.consumed);
    if (r.state == chunked_decoder::status::done) {
      body_done_ = true;
      return true;
    }
    if (r.state != chunked_decoder::status::data) return false;
  }
}

// Whether the rest of the body is already in the buffer, without consuming
// anything: the app may still read it after the response head is committed.
bool connection::body_buffered_whole() const {
  if (body_done_) return true;
  if (body_error_ != 0) return false;
  if (request_.framing == body_framing::length) return in_.size() >= body_remaining_;
  uint64_t received = 0;
  return scan_buffered_chunks(chunked_, chunk_run_, received).state == chunked_decoder::status::done;
}

void connection::reject(int status, const char* reason) {
  log::write(log::level::info, "rejected a request from %s: %s (%d)",
             peer().address.empty() ? "unix socket" : std::string(peer().address).c_str(), reason, status);
  append_simple_response(out_.bytes(), status, context_.dates.line(time(nullptr)), "text/plain; charset=utf-8",
                         status_reason(status), true);
  close_after_flush_ = true;
}

void connection::flush_and_settle() {
  if (broken_) {
    close_now();
    return;
  }
  switch (out_.flush(fd_)) {
    case net::output_queue::flush_result::failed:
      close_now();
      return;
    case net::output_queue::flush_result::blocked:
      if (state_ != state::writing) write_progress_ms_ = context_.loop.now_ms();
      state_ = state::writing;
      if (!watching_writable_) {
        context_.loop.modify(fd_, loop::event_loop::writable, this);
        watching_writable_ = true;
      }
      update_timer();
      return;
    case net::output_queue::flush_result::done:
      break;
  }
  if (watching_writable_) {
    context_.loop.modify(fd_, loop::event_loop::readable, this);
    watching_writable_ = false;
  }
  state_ = state::reading;
  if (!close_after_flush_ && context_.draining && in_.empty()) close_after_flush_ = true;
  if (close_after_flush_) {
    start_lingering();
    return;
  }
  if (in_.empty()) in_.shrink_if_idle(65536);
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
  ::shutdown(fd_, SHUT_WR);
  state_ = state::lingering;
  linger_started_ms_ = context_.loop.now_ms();
  in_.clear();
  update_timer();
}

int64_t connection::current_deadline() const {
  const connection_settings& s = context_.settings;
  switch (state_) {
    case state::reading:
      if (in_.empty() && requests_served_ > 0) return head_started_ms_ + s.keep_alive_timeout_ms;
      return head_started_ms_ + s.header_read_timeout_ms;
    case state::writing:
      return write_progress_ms_ + s.write_timeout_ms;
    case state::lingering:
      return linger_started_ms_ + s.linger_ms;
    case state::closed:
      break;
  }
  return INT64_MAX;
}

void connection::update_timer() {
  int64_t deadline = current_deadline();
  if (timer_ != 0 && timer_deadline_ <= deadline) return;  // fires early, re-arms then
  if (timer_ != 0) context_.loop.cancel_timer(timer_);
  timer_ = context_.loop.add_timer(deadline, this);
  timer_deadline_ = deadline;
}

void connection::on_timer() {
  timer_ = 0;
  if (state_ == state::closed) return;
  int64_t deadline = current_deadline();
  if (context_.loop.now_ms() < deadline) {
    update_timer();
    return;
  }
  switch (state_) {
    case state::reading:
      if (in_.empty()) {
        log::write(log::level::debug, "closing an idle connection");
        close_now();
      } else {
        reject(408, "header read timeout");
        flush_and_settle();
      }
      return;
    case state::writing:
      log::write(log::level::info, "closing a connection whose client stopped reading (write timeout)");
      close_now();
      return;
    case state::lingering:
    case state::closed:
      close_now();
      return;
  }
}

void connection::drain() {
  if (state_ == state::reading && in_.empty() && !in_exchange_) {
    close_now();
  }
}

void connection::close_now() {
  if (state_ == state::closed) return;
  state_ = state::closed;
  if (timer_ != 0) context_.loop.cancel_timer(timer_);
  timer_ = 0;
  context_.loop.remove(fd_);
  ::close(fd_);
  out_.clear();
  if (context_.on_closed != nullptr) context_.on_closed(context_.owner, this);
}

// --- blocking I/O inside an exchange (the inline shape runs the app on the
// loop thread, so a body still arriving is waited for right here, as a
// synchronous worker would) ---

// Waits for the socket inside an exchange. A stop requested meanwhile (the
// signal interrupts poll) bounds the wait by the graceful budget, since the
// loop cannot run its drain deadline while this thread is in here.
int connection::wait_for(short events, int timeout_ms) {
  int64_t deadline = monotonic_ms() + timeout_ms;
  while (true) {
    if (context_.stopping()) {
      int64_t budget = monotonic_ms() + context_.settings.graceful_timeout_ms;
      if (budget < deadline) deadline = budget;
    }
    int64_t left = deadline - monotonic_ms();
    if (left <= 0) return 0;
    pollfd pfd{fd_, events, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    return ready;
  }
}

bool connection::read_more(int timeout_ms, int& error_status) {
  if (request_.expect_continue && !continue_sent_) {
    continue_sent_ = true;
    if (!committed_) {
      out_.bytes().append(continue_line);
      if (!flush_blocking()) {
        error_status = 400;
        return false;
      }
    }
  }
  char* p = in_.prepare(body_read_chunk);
  while (true) {
    int ready = wait_for(POLLIN, timeout_ms);
    if (ready == 0) {
      error_status = 408;
      return false;
    }
    ssize_t n = ::recv(fd_, p, in_.writable(), 0);
    if (n > 0) {
      in_.commit(static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n == 0) eof_ = true;
    else broken_ = true;
    error_status = 400;
    return false;
  }
}

bool connection::flush_blocking() {
  while (true) {
    switch (out_.flush(fd_)) {
      case net::output_queue::flush_result::done:
        return true;
      case net::output_queue::flush_result::failed:
        broken_ = true;
        return false;
      case net::output_queue::flush_result::blocked:
        break;
    }
    int ready = wait_for(POLLOUT, context_.settings.write_timeout_ms);
    if (ready == 0) {
      log::write(log::level::info, "client stopped reading a response (write timeout)");
      broken_ = true;
      return false;
    }
  }
}

peer_info connection::peer() {
  if (peer_text_.empty()) {
    char text[INET6_ADDRSTRLEN] = {};
    if (peer_.ss_family == AF_INET) {
      auto* a = reinterpret_cast<const sockaddr_in*>(&peer_);
      inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
      peer_port_ = ntohs(a->sin_port);
    } else if (peer_.ss_family == AF_INET6) {
      auto* a = reinterpret_cast<const sockaddr_in6*>(&peer_);
      inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
      peer_port_ = ntohs(a->sin6_port);
    }
    peer_text_ = text;
  }
  return {peer_text_, peer_port_};
}

exchange::body_state connection::peek_body(std::string_view& out) {
  while (true) {
    if (body_error_ != 0) return body_state::error;
    if (body_done_) return body_state::end;
    if (request_.framing == body_framing::length) {
      size_t available = in_.size() < body_remaining_ ? in_.size() : static_cast<size_t>(body_remaining_);
      if (available > 0) {
        out = {in_.data(), available};
        return body_state::data;
      }
    } else {
      if (chunk_run_ > 0) {
        out = {in_.data(), chunk_run_};
        return body_state::data;
      }
      chunked_decoder::step_result r = chunked_.step(in_.data(), in_.size());
      switch (r.state) {
        case chunked_decoder::status::data: {
          in_.consume(r.consumed - r.data_length);
          chunk_run_ = r.data_length;
          body_received_ += r.data_length;
          uint64_t max_body = context_.settings.request_limits.max_body;
          if (max_body != 0 && body_received_ > max_body) {
            log::write(log::level::info, "chunked request body over the limit of %llu bytes",
                       static_cast<unsigned long long>(max_body));
            body_error_ = 413;
            return body_state::error;
          }
          continue;
        }
        case chunked_decoder::status::done:
          in_.consume(r.consumed);
          body_done_ = true;
          return body_state::end;
        case chunked_decoder::status::error:
          log::write(log::level::info, "bad chunked request body: %s", r.reason);
          body_error_ = 400;
          return body_state::error;
        case chunked_decoder::status::need_more:
          in_.consume(r.consumed);
          break;
      }
    }
    if (eof_) {
      body_error_ = 400;
      return body_state::error;
    }
    int status = 0;
    if (!read_more(context_.settings.body_read_timeout_ms, status)) {
      body_error_ = status;
      return body_state::error;
    }
  }
}

void connection::consume_body(size_t n) {
  in_.consume(n);
  if (request_.framing == body_framing::length) {
    body_remaining_ -= n;
    if (body_remaining_ == 0) body_done_ = true;
  } else {
    chunk_run_ -= n;
  }
}

void connection::begin_response(int status_code, std::string_view status_text) {
  response_head_.clear();
  response_length_ = -1;
  response_head_.append("HTTP/1.1 ", 9);
  response_head_.append(status_text);
  response_head_.append("\r\n", 2);
  response_status_ = status_code;
  response_length_ = -1;
  app_wants_close_ = false;
}

bool connection::add_header(std::string_view name, std::string_view value) {
  if (!valid_header_name(name) || !valid_header_value(value)) return false;
  switch (name.size()) {
    case 10:
      if (equals_ignore_case(name, "connection")) {
        if (contains_close_token(value)) app_wants_close_ = true;
        return true;  // the server writes its own
      }
      if (equals_ignore_case(name, "keep-alive")) return true;
      break;
    case 14:
      if (equals_ignore_case(name, "content-length")) {
        int64_t length = 0;
        if (!parse_length(value, length)) return false;
        if (response_length_ >= 0) return response_length_ == length;  // a repeat is dropped, a conflict refused
        response_length_ = length;
      }
      break;
    case 17:
      if (equals_ignore_case(name, "transfer-encoding")) return true;  // the server frames the body
      break;
    default:
      break;
  }
  char* p = response_head_.prepare(name.size() + value.size() + 4);
  std::memcpy(p, name.data(), name.size());
  p += name.size();
  *p++ = ':';
  *p++ = ' ';
  std::memcpy(p, value.data(), value.size());
  p += value.size();
  *p++ = '\r';
  *p++ = '\n';
  response_head_.commit(name.size() + value.size() + 4);
  return true;
}

void connection::commit(bool body_is_empty) {
  committed_ = true;
  int s = response_status_;
  response_no_body_ = request_.is_head || s < 200 || s == 204 || s == 304;
  bool keep = request_.keep_alive && !context_.stopping() && !app_wants_close_ && body_buffered_whole();
  if (response_length_ < 0 && !response_no_body_) {
    if (body_is_empty) {
      response_head_.append("content-length: 0\r\n");
      response_length_ = 0;
    } else if (request_.version_minor == 1) {
      response_head_.append("transfer-encoding: chunked\r\n");
      response_chunked_ = true;
    } else {
      keep = false;  // an HTTP/1.0 body without a length ends when the connection does
    }
  }
  if (!keep) {
    response_head_.append("connection: close\r\n");
    close_after_flush_ = true;
  } else if (request_.version_minor == 0) {
    response_head_.append("connection: keep-alive\r\n");
  }
  response_head_.append(context_.dates.line(time(nullptr)));
  response_head_.append("\r\n", 2);
  out_.bytes().append(response_head_.view());
}

bool connection::after_output_appended() {
  if (out_.buffered_bytes() > context_.settings.output_high_water) return flush_blocking();
  return true;
}

// Called after the response ended (a WSGI close() that writes): the bytes
// would be read as the start of the next response, so the connection closes.
bool connection::refuse_after_finish() {
  log::write(log::level::error, "the application wrote after its response ended; closing the connection");
  close_after_flush_ = true;
  return false;
}

bool connection::write_body(const char* data, size_t length) {
  if (broken_) return false;
  if (finished_) return refuse_after_finish();
  if (!committed_) commit(false);
  if (response_no_body_ || length == 0) return true;
  if (response_length_ >= 0) {
    uint64_t allowed = static_cast<uint64_t>(response_length_) - response_sent_;
    if (length > allowed) {
      log::write(log::level::error, "the application sent more than its Content-Length; the excess was dropped");
      length = static_cast<size_t>(allowed);
      close_after_flush_ = true;
    }
  }
  byte_buffer& out = out_.bytes();
  if (response_chunked_) append_chunk_header(out, length);
  out.append(data, length);
  if (response_chunked_) out.append("\r\n", 2);
  response_sent_ += length;
  return after_output_appended();
}

bool connection::send_file(int fd, off_t offset, uint64_t length) {
  if (broken_ || finished_) {
    ::close(fd);
    return broken_ ? false : refuse_after_finish();
  }
  if (!committed_) commit(length == 0);
  if (response_no_body_ || length == 0) {
    ::close(fd);
    return true;
  }
  if (response_length_ >= 0) {
    uint64_t allowed = static_cast<uint64_t>(response_length_) - response_sent_;
    if (length > allowed) length = allowed;
  }
  if (response_chunked_) append_chunk_header(out_.bytes(), static_cast<size_t>(length));
  out_.push_file(fd, offset, length);
  if (response_chunked_) out_.bytes().append("\r\n", 2);
  response_sent_ += length;
  return after_output_appended();
}

bool connection::flush() {
  if (broken_) return false;
  if (out_.buffered_bytes() > context_.settings.output_high_water) return flush_blocking();
  if (out_.flush(fd_) == net::output_queue::flush_result::failed) broken_ = true;
  return !broken_;
}

void connection::finish() {
  if (broken_ || finished_) return;
  finished_ = true;
  if (!committed_) commit(true);
  if (response_chunked_) {
    out_.bytes().append(last_chunk);
  } else if (response_length_ >= 0 && !response_no_body_ &&
             response_sent_ < static_cast<uint64_t>(response_length_)) {
    log::write(log::level::error, "the application sent less than its Content-Length; closing the connection");
    close_after_flush_ = true;
  }
}

void connection::fail(int status) {
  if (broken_) return;
  finished_ = true;
  if (!committed_) {
    committed_ = true;
    bool keep = request_.keep_alive && !context_.stopping() && body_error_ == 0 && body_complete_without_waiting();
    append_simple_response(out_.bytes(), status, context_.dates.line(time(nullptr)), "text/plain; charset=utf-8",
                           status_reason(status), !keep, request_.is_head);
    if (!keep) close_after_flush_ = true;
    return;
  }
  // Part of the answer is out: the only honest signal left is to close.
  close_after_flush_ = true;
}

}  // namespace baton::http1
