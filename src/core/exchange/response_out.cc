#include "core/exchange/response_out.h"

#include <unistd.h>

#include <cstdio>

#include "core/exchange/fields.h"
#include "core/exchange/storage.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::exchange {

// ------------------------------------------------------------------ loop side

uint64_t response_out::take_output(net::output_queue& dest) {
  uint64_t moved = published_.exchange(0, std::memory_order_acq_rel);
  meeting::guard guard(m_);
  dest.take_from(shared_out_);
  return moved;
}

void response_out::set_backlog(uint64_t bytes) {
  backlog_.store(bytes, std::memory_order_seq_cst);
  uint32_t flags = m_.state.load(std::memory_order_seq_cst);
  if (bytes < m_.settings.output_window / 2 && (flags & meeting::wants_credit) != 0) {
    m_.lower(meeting::wants_credit);
    m_.wake_app();
  }
  if ((flags & meeting::wants_external) != 0 && external_unsent_.load(std::memory_order_seq_cst) == 0) {
    m_.lower(meeting::wants_external);
    m_.wake_app();
  }
}

size_t response_out::release_loop_memory() {
  meeting::guard guard(m_);
  return shared_out_.empty() ? shared_out_.release_memory() : 0;
}

// ------------------------------------------------------------------- app side

void response_out::begin(int status_code, std::string_view status_line) {
  r_.status = status_code;
  r_.status_line.assign(status_line);
  r_.fields.clear();
  r_.length = -1;
  r_.app_wants_close = false;
  r_.app_date = false;
  r_.app_server = false;
  r_.app_alt_svc = false;
}

bool response_out::add_header(std::string_view name, std::string_view value) {
  return valid_field_name(name) && valid_field_value(value) && add_valid_header(name, value);
}

bool response_out::add_valid_header(std::string_view name, std::string_view value) {
  // Once committed the head is the loop's to read (HTTP/2 encodes it from
  // here) and already on its way: a length found later (a WSGI app that
  // wrote, then returned the rest) is too late for it, and is dropped.
  if (r_.committed) return false;
  switch (name.size()) {
    case 4:
      if (util::equals_ignore_case(name, "date")) r_.app_date = true;
      break;
    case 6:
      if (util::equals_ignore_case(name, "server")) r_.app_server = true;
      break;
    case 7:
      if (util::equals_ignore_case(name, "alt-svc")) r_.app_alt_svc = true;
      break;
    case 10:
      // The connection's own fields (RFC 9110 section 7.6.1) are the
      // protocol's to write: HTTP/1 frames and keeps connections itself,
      // and HTTP/2 forbids them.
      if (util::equals_ignore_case(name, "connection")) {
        if (util::has_list_token(value, "close")) r_.app_wants_close = true;
        return true;
      }
      if (util::equals_ignore_case(name, "keep-alive")) return true;
      break;
    case 14:
      if (util::token_equals_lowercase(name, "content-length")) {
        uint64_t length = 0;
        if (!util::parse_decimal(value, length)) return false;
        if (r_.length >= 0) return r_.length == static_cast<int64_t>(length);  // a repeat is dropped
        r_.length = static_cast<int64_t>(length);
      }
      break;
    case 17:
      if (util::token_equals_lowercase(name, "transfer-encoding")) return true;  // the protocol frames the body
      break;
    default:
      break;
  }
  r_.fields.add(name, value);
  return true;
}

bool response_out::add_trailer(std::string_view name, std::string_view value) {
  if (!valid_field_name(name) || !valid_field_value(value) || forbidden_in_trailer(name) ||
      util::equals_ignore_case(name, "keep-alive") || util::equals_ignore_case(name, "upgrade") ||
      util::equals_ignore_case(name, "proxy-connection")) {
    return false;
  }
  r_.trailers.add(name, value);
  return true;
}

bool response_out::add_interim_field(std::string_view name, std::string_view value) {
  if (!valid_interim_field(name, value)) return false;
  interim_.add(name, value);
  return true;
}

// Goes out now, like a flushed piece: HTTP/1's bytes published, HTTP/2's
// data queued, and the loop told either way.
bool response_out::send_interim(int status) {
  // 100 and 101 are the protocols' own (Expect, a switch).
  if (status < 102 || status > 199 || cancelled() || r_.committed || r_.finished) return false;
  interim_result how = wire_->write_interim(status, interim_.building(), *request_, app_out_.bytes());
  if (how == interim_result::keep_as_data) {
    char code[4];
    std::snprintf(code, sizeof code, "%03d", status);
    interim_.queue(m_, std::string_view(code, 3));
  }
  interim_.sent();
  if (how == interim_result::not_sent) return false;
  flush();
  return true;
}

// A body over the size limit found while the app ran: whatever the app
// answers (often a 500 of its own, from the read that failed), the client
// gets the 413 while nothing has gone out yet. Returns true when it did.
bool response_out::replace_with_body_error() {
  if (!m_.has(meeting::body_error) || m_.body_error_status.load(std::memory_order_acquire) != 413) return false;
  fail(413, true);
  r_.replaced = true;
  return true;
}

// The head goes out: the protocol writes it and decides the framing.
void response_out::commit(bool body_is_empty) {
  r_.committed = true;
  bool stopping = m_.settings.stopping != nullptr && m_.settings.stopping->load(std::memory_order_relaxed);
  commit_facts facts{*request_, m_.has(meeting::body_end), stopping, m_.settings.body_window, body_is_empty};
  if (wire_->write_head(r_, facts, app_out_.bytes())) close_after_.store(true, std::memory_order_release);
  // Release: the head's fields are seen by a loop that sees the flag.
  m_.state.fetch_or(meeting::head_ready, std::memory_order_release);
}

bool response_out::output_ready() const {
  if (cancelled()) return true;
  uint64_t queued = app_out_.buffered_bytes() + published_.load(std::memory_order_acquire) +
                    backlog_.load(std::memory_order_acquire);
  return queued < m_.settings.output_window;
}

bool response_out::credit_or_wake_me() {
  if (output_ready()) return true;
  // Hand what is queued to the loop before waiting for it to drain. The flag
  // goes up before the second look: set_backlog() stores the backlog, then
  // reads the flag, so either it sees the flag and wakes us, or we see the
  // room it made.
  m_.state.fetch_or(meeting::wants_credit, std::memory_order_seq_cst);
  // output_ready() loads with acquire; the flag/backlog pair needs the
  // store-load order a full fence gives (set_backlog's side is seq_cst).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  publish();
  if (!output_ready()) {
    m_.notify_loop(true);
    return false;
  }
  m_.lower(meeting::wants_credit);
  return true;
}

// Called after the response ended (a WSGI close() that writes): the bytes
// would be read as the start of the next response, so the connection closes.
bool response_out::refuse_after_finish() {
  log::write(log::level::error, "the application wrote after its response ended; closing the connection");
  close_after_.store(true, std::memory_order_release);
  m_.notify_loop(false);
  return false;
}

void response_out::drop_if_cancelled() {
  if (!cancelled()) return;
  // The connection dropped its own queue before cancelling.
  app_out_.clear();
  meeting::guard guard(m_);
  shared_out_.clear();
}

bool response_out::external_sent() {
  if (external_unsent_.load(std::memory_order_seq_cst) == 0) return true;
  drop_if_cancelled();
  m_.state.fetch_or(meeting::wants_external, std::memory_order_seq_cst);
  if (external_unsent_.load(std::memory_order_seq_cst) == 0) {
    m_.lower(meeting::wants_external);
    return true;
  }
  publish();
  m_.notify_loop(true);
  return false;
}

uint64_t response_out::clip_to_length(uint64_t length) {
  if (r_.length < 0) return length;
  uint64_t allowed = static_cast<uint64_t>(r_.length) - r_.sent;
  return length > allowed ? allowed : length;
}

send_status response_out::send_body(const char* data, size_t length, bool external, bool past_window) {
  if (cancelled()) return send_status::gone;
  if (r_.replaced) return send_status::accepted;  // the error answer stands; the app's body goes nowhere
  if (r_.finished) {
    refuse_after_finish();
    return send_status::gone;
  }
  if (!past_window && !credit_or_wake_me()) return send_status::pending;
  if (!r_.committed && replace_with_body_error()) return send_status::accepted;
  if (r_.replaced) return send_status::accepted;
  if (!r_.committed) commit(false);
  if (r_.no_body || length == 0) return send_status::accepted;
  size_t allowed = static_cast<size_t>(clip_to_length(length));
  if (allowed < length) {
    log::write(log::level::error, "the application sent more than its Content-Length; the excess was dropped");
    length = allowed;
    close_after_.store(true, std::memory_order_release);
  }
  byte_buffer& out = app_out_.bytes();
  if (r_.chunked) wire_->begin_piece(length, out);
  if (external) {
    app_out_.push_external(data, length, &external_unsent_);
  } else {
    app_out_.bytes().append(data, length);
  }
  if (r_.chunked) wire_->end_piece(app_out_.bytes());
  r_.sent += length;
  // Large bodies go to the loop as they are produced, not all at the end.
  if (app_out_.buffered_bytes() >= 65536) {
    publish();
    m_.notify_loop(true);
  }
  return send_status::accepted;
}

send_status response_out::send_file(int fd, off_t offset, uint64_t length) {
  if (cancelled() || r_.finished) {
    ::close(fd);
    if (!cancelled() && !r_.replaced) refuse_after_finish();
    return send_status::gone;
  }
  if (!r_.committed && replace_with_body_error()) {
    ::close(fd);
    return send_status::accepted;
  }
  if (!r_.committed) commit(length == 0);
  if (r_.no_body || length == 0) {
    ::close(fd);
    return send_status::accepted;
  }
  length = clip_to_length(length);
  if (r_.chunked) wire_->begin_piece(static_cast<size_t>(length), app_out_.bytes());
  app_out_.push_file(fd, offset, length);
  if (r_.chunked) wire_->end_piece(app_out_.bytes());
  r_.sent += length;
  return send_status::accepted;
}

void response_out::publish() {
  if (app_out_.empty()) return;
  uint64_t bytes = app_out_.buffered_bytes();
  if (cancelled()) {
    app_out_.clear();
    return;
  }
  {
    meeting::guard guard(m_);
    shared_out_.take_from(app_out_);
  }
  published_.fetch_add(bytes, std::memory_order_acq_rel);
}

void response_out::flush() {
  if (cancelled()) return;
  publish();
  m_.state.fetch_or(meeting::flush, std::memory_order_relaxed);
  m_.notify_loop(true);
}

void response_out::finish(bool switches) {
  if (cancelled() || r_.finished) return;
  if (!r_.committed && replace_with_body_error()) return;
  r_.finished = true;
  // With trailers to carry, an empty body is still framed in pieces (HTTP/1
  // has no place for trailers after Content-Length: 0).
  if (!r_.committed) commit(r_.trailers.empty());
  if (r_.chunked) {
    wire_->end_body(r_, app_out_.bytes());
  } else if (r_.length >= 0 && !r_.no_body && r_.sent < static_cast<uint64_t>(r_.length)) {
    log::write(log::level::error, "the application sent less than its Content-Length; closing the connection");
    close_after_.store(true, std::memory_order_release);
  }
  publish();
  if (switches) {
    // The app switched: its answer is queued, messages flow from now on, and
    // the protocol must hand its session on now (the app is not done). The
    // request's (empty) body has ended; the messages have not.
    m_.lower(meeting::body_end);
    // What the answer needed is not kept for the WebSocket's life: its fields
    // (for the access log) in storage of their size, and no output storage
    // until the first message.
    r_.fields.shrink_to_fit();
    app_out_.release_memory();
    m_.raise(meeting::switched);
    m_.notify_loop(true);
    return;
  }
  m_.raise(meeting::whole);
  m_.notify_loop(false);
}

void response_out::fail(int status, bool close) {
  if (cancelled()) return;
  if (r_.committed) {
    // Part of the answer is out: the only honest signal left is to close.
    r_.finished = true;
    close_after_.store(true, std::memory_order_release);
    publish();
    m_.raise(meeting::whole);
    m_.notify_loop(false);
    return;
  }
  app_out_.clear();
  answer(status, "text/plain; charset=utf-8", status_reason(status), {}, close);
}

void response_out::answer(int status, std::string_view content_type, std::string_view body,
                          std::initializer_list<std::string_view> extra_fields, bool close) {
  if (cancelled() || r_.committed) return;
  char line[64];
  int n = std::snprintf(line, sizeof line, "%d %s", status, status_reason(status));
  begin(status, std::string_view(line, static_cast<size_t>(n)));
  r_.strict_keep_alive = true;
  r_.app_wants_close = close;
  r_.fields.add("content-type", content_type);
  char length[24];
  n = std::snprintf(length, sizeof length, "%zu", body.size());
  r_.fields.add("content-length", std::string_view(length, static_cast<size_t>(n)));
  r_.length = static_cast<int64_t>(body.size());
  for (auto it = extra_fields.begin(); it != extra_fields.end() && it + 1 != extra_fields.end(); it += 2) {
    r_.fields.add(*it, *(it + 1));
  }
  commit(body.empty());
  if (!r_.no_body && !body.empty()) app_out_.bytes().append(body);
  r_.sent = r_.no_body ? 0 : body.size();
  r_.finished = true;
  publish();
  m_.raise(meeting::whole);
  m_.notify_loop(false);
}

}  // namespace baton::exchange
