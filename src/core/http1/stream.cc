#include "core/http1/stream.h"

#include <unistd.h>

#include <cstring>
#include <utility>

#include "core/http1/response.h"
#include "core/loop/event_loop.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::http1 {
namespace {

// Buffers that grew past this for one request are freed when the stream is
// recycled, so one large upload does not pin memory in the stream pool.
constexpr size_t keep_capacity = size_t{64} * 1024;

}  // namespace

void (*stream::before_register_for_tests)(stream&) = nullptr;

stream::stream(stream_owner& owner, loop::event_loop& loop, const stream_settings& settings)
    : owner_(owner), loop_(loop), settings_(settings) {
  done_notice_.owner = this;
  done_notice_.notice_kind = k_done_notice;
}

stream::~stream() = default;

void stream::release() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) owner_.recycle(this);
}

// ------------------------------------------------------------------ loop side

void stream::reset_for(const request& parsed, const char* raw, const peer_info& peer, const proxy_settings* proxy) {
  ++generation;
  state_.store(0, std::memory_order_relaxed);
  waker_.store(nullptr, std::memory_order_relaxed);
  direct_ = false;
  conn = nullptr;
  fifo_next = nullptr;
  pool_order = 0;

  // One copy of the raw head; every view is re-pointed by the same offset.
  head_bytes_.clear();
  if (head_bytes_.capacity() > keep_capacity) head_bytes_ = byte_buffer();
  head_bytes_.append(raw, parsed.head_length);
  const char* base = head_bytes_.data();
  auto rebase = [&](std::string_view v) -> std::string_view {
    if (v.data() == nullptr || v.empty()) return v.empty() ? std::string_view() : v;
    if (v.data() < raw || v.data() >= raw + parsed.head_length) return v;  // a constant, not in the head
    return {base + (v.data() - raw), v.size()};
  };
  head_ = parsed;
  head_.method = rebase(parsed.method);
  head_.target = rebase(parsed.target);
  head_.path = rebase(parsed.path);
  head_.query = rebase(parsed.query);
  head_.authority = rebase(parsed.authority);
  headers_.resize(parsed.header_count);
  for (size_t i = 0; i < parsed.header_count; ++i) {
    headers_[i].name = rebase(parsed.headers[i].name);
    headers_[i].value = rebase(parsed.headers[i].value);
  }
  head_.headers = headers_.data();
  peer_info client = peer;
  https_ = false;
  forwarded_port_length_ = 0;
  if (proxy != nullptr) {
    forwarded_facts facts;
    read_forwarded(head_, *proxy, facts);
    if (!facts.client.empty()) client = {facts.client, facts.client_port};
    https_ = util::ascii_equals_ignore_case(facts.proto, "https") || util::ascii_equals_ignore_case(facts.proto, "wss");
    forwarded_port_length_ = facts.port.size() <= sizeof forwarded_port_ ? facts.port.size() : 0;
    util::copy_bytes(forwarded_port_, facts.port, forwarded_port_length_);
  }
  size_t n = client.address.size() < sizeof peer_address_ ? client.address.size() : sizeof peer_address_ - 1;
  util::copy_bytes(peer_address_, client.address, n);
  peer_address_length_ = n;
  peer_port_ = client.port;
  listener_ = client.listener;

  // Body and output start empty (keeping modest storage for reuse).
  shared_in_.clear();
  app_in_.clear();
  loop_in_.clear();
  if (shared_in_.capacity() > keep_capacity) shared_in_ = byte_buffer();
  if (app_in_.capacity() > keep_capacity) app_in_ = byte_buffer();
  if (loop_in_.capacity() > keep_capacity) loop_in_ = byte_buffer();
  shared_out_.clear();
  app_out_.clear();
  in_buffered_.store(0, std::memory_order_relaxed);
  app_reading_.store(false, std::memory_order_relaxed);
  body_error_status_.store(0, std::memory_order_relaxed);
  target_ = nullptr;
  target_size_ = 0;
  target_filled_.store(0, std::memory_order_relaxed);
  target_active_.store(false, std::memory_order_relaxed);
  continue_asked_ = false;
  published_.store(0, std::memory_order_relaxed);
  backlog_.store(0, std::memory_order_relaxed);
  external_unsent_.store(0, std::memory_order_relaxed);
  close_after_.store(false, std::memory_order_relaxed);

  response_head_.clear();
  response_status_ = 0;
  response_length_ = -1;
  response_sent_ = 0;
  response_chunked_ = false;
  response_no_body_ = false;
  committed_ = false;
  finished_ = false;
  app_wants_close_ = false;
  app_date_ = false;
  app_server_ = false;
  replaced_ = false;
  refs_.store(1, std::memory_order_relaxed);  // the connection's
}

void stream::wake_app() {
  app_waker* w = waker_.load(std::memory_order_acquire);
  if (w != nullptr) w->wake();
}

void stream::deliver_body(const char* data, size_t length, bool last) {
  {
    shared_guard guard(*this);
    length = fill_target(data, length, last);
    if (length > 0) {
      in_buffered_.fetch_add(length, std::memory_order_acq_rel);
      shared_in_.append(data, length);
    }
    if (last) state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  }
  if (last) release_target();
  wake_app();
}

void stream::body_received(size_t length, bool last) {
  loop_in_.commit(length);
  {
    shared_guard guard(*this);
    // A destination registered while this read was under way takes the
    // bytes first (a copy, but a rare one).
    const char* data = loop_in_.data();
    size_t left = fill_target(data, loop_in_.size(), last);
    loop_in_.consume(loop_in_.size() - left);
    if (left > 0) {
      in_buffered_.fetch_add(left, std::memory_order_acq_rel);
      if (shared_in_.empty()) {
        std::swap(shared_in_, loop_in_);
      } else {
        shared_in_.append(loop_in_.view());
        loop_in_.clear();
      }
    }
    if (last) state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  }
  if (last) release_target();
  wake_app();
}

char* stream::target_space(size_t& room) {
  if (!target_active_.load(std::memory_order_acquire)) return nullptr;
  size_t filled = target_filled_.load(std::memory_order_relaxed);
  room = target_size_ - filled;
  return target_ + filled;
}

void stream::target_received(size_t length, bool last) {
  size_t filled = target_filled_.load(std::memory_order_relaxed) + length;
  target_filled_.store(filled, std::memory_order_relaxed);
  if (last) state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  if (filled == target_size_ || last) release_target();
}

// Loop side, under the lock: bytes that arrive while a destination is
// registered go there first (it was registered only when nothing was
// buffered, so this keeps their order); returns what did not fit.
size_t stream::fill_target(const char*& data, size_t length, bool last) {
  size_t room = 0;
  char* target = target_space(room);
  if (target == nullptr || length == 0) return length;
  size_t take = length < room ? length : room;
  std::memcpy(target, data, take);
  data += take;
  target_received(take, last && take == length);
  return length - take;
}

// Loop side: the destination is the app's again (full, or nothing more is
// coming); the release pairs with the app's acquire of target_active_.
void stream::release_target() {
  if (!target_active_.load(std::memory_order_relaxed)) return;
  target_active_.store(false, std::memory_order_release);
  wake_app();
}

bool stream::read_into(char* destination, size_t length) {
  mark_app_reading();
  size_t copied = 0;
  // Reading paused (a full window) and resumed by the copies below is told
  // to the loop only once the destination is registered: told at once, the
  // loop could read the rest into the stream's buffer first, to be copied.
  bool resumed = false;
  bool registered = false;
  while (true) {
    while (copied < length) {
      std::string_view view;
      if (try_read(view) != read_status::data) break;
      size_t take = view.size() < length - copied ? view.size() : length - copied;
      std::memcpy(destination + copied, view.data(), take);
      resumed |= consume_and_resume(take);
      copied += take;
    }
    target_filled_.store(copied, std::memory_order_relaxed);
    if (copied == length) break;
    if (before_register_for_tests != nullptr) before_register_for_tests(*this);
    shared_guard guard(*this);
    // Bytes that arrived since the last look must be taken first: the
    // destination is registered only with nothing buffered before it.
    if (!shared_in_.empty()) continue;
    if (body_ended() || cancelled()) break;
    target_ = destination;
    target_size_ = length;
    target_active_.store(true, std::memory_order_release);
    registered = true;
    break;
  }
  if (registered || resumed) notify_loop(true);  // not under the lock: a direct owner calls back into us
  return registered;
}

void stream::deliver_body_end() {
  state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

void stream::deliver_body_error(int status) {
  if (body_ended()) return;
  body_error_status_.store(status, std::memory_order_relaxed);
  state_.fetch_or(k_body_error, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

bool stream::pause_reading(size_t window) {
  state_.fetch_or(k_read_paused, std::memory_order_seq_cst);
  // The app may have consumed between the loop's check and the flag: if it
  // did, it saw no flag and will not resume us, so look again.
  if (in_buffered_.load(std::memory_order_seq_cst) < window / 2) {
    state_.fetch_and(~k_read_paused, std::memory_order_acq_rel);
    return false;
  }
  return true;
}

uint64_t stream::take_output(net::output_queue& dest) {
  uint64_t moved = published_.exchange(0, std::memory_order_acq_rel);
  shared_guard guard(*this);
  dest.take_from(shared_out_);
  return moved;
}

void stream::set_backlog(uint64_t bytes) {
  backlog_.store(bytes, std::memory_order_seq_cst);
  uint32_t flags = state_.load(std::memory_order_seq_cst);
  if (bytes < settings_.output_window / 2 && (flags & k_wants_credit) != 0) {
    state_.fetch_and(~k_wants_credit, std::memory_order_acq_rel);
    wake_app();
  }
  if ((flags & k_wants_external) != 0 && external_unsent_.load(std::memory_order_seq_cst) == 0) {
    state_.fetch_and(~k_wants_external, std::memory_order_acq_rel);
    wake_app();
  }
}

bool stream::take_continue_request() {
  if ((state_.load(std::memory_order_acquire) & k_wants_continue) == 0) return false;
  state_.fetch_and(~k_wants_continue, std::memory_order_acq_rel);
  return true;
}

void stream::mark_client_finished() {
  state_.fetch_or(k_client_eof, std::memory_order_acq_rel);
  wake_app();
}

void stream::cancel() {
  state_.fetch_or(k_cancelled, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

// ------------------------------------------------------------------- app side

void stream::notify_loop(bool urgent) {
  if (direct_) {
    if (urgent) owner_.stream_news(this);
    return;
  }
  if ((state_.fetch_or(k_queued, std::memory_order_acq_rel) & k_queued) != 0) return;
  add_ref();  // the inbox's reference, dropped by the loop when it takes the notice
  loop_.post(this);
}

stream::read_status stream::try_read(std::string_view& out) {
  if (app_in_.empty()) {
    uint32_t flags;
    {
      shared_guard guard(*this);
      if (!shared_in_.empty()) std::swap(app_in_, shared_in_);
      flags = state_.load(std::memory_order_acquire);
    }
    if (app_in_.empty()) {
      if ((flags & k_body_error) != 0) return read_status::error;
      if ((flags & k_body_end) != 0) return read_status::end;
      if ((flags & k_cancelled) != 0) return read_status::error;
      if (head_.expect_continue && !continue_asked_) {
        continue_asked_ = true;
        state_.fetch_or(k_wants_continue, std::memory_order_acq_rel);
        notify_loop(true);
      }
      mark_app_reading();
      return read_status::pending;
    }
  }
  out = app_in_.view();
  return read_status::data;
}

void stream::consume(size_t n) {
  if (consume_and_resume(n)) notify_loop(true);
}

// True when this took the read-paused flag down: the loop must be told.
bool stream::consume_and_resume(size_t n) {
  mark_app_reading();
  app_in_.consume(n);
  size_t left = in_buffered_.fetch_sub(n, std::memory_order_seq_cst) - n;
  if (left < settings_.body_window / 2 && (state_.load(std::memory_order_seq_cst) & k_read_paused) != 0) {
    return (state_.fetch_and(~k_read_paused, std::memory_order_acq_rel) & k_read_paused) != 0;
  }
  return false;
}

void stream::begin_response(int status_code, std::string_view status_line) {
  response_head_.clear();
  response_head_.append("HTTP/1.1 ", 9);
  response_head_.append(status_line);
  response_head_.append("\r\n", 2);
  response_status_ = status_code;
  response_length_ = -1;
  app_wants_close_ = false;
  app_date_ = false;
  app_server_ = false;
}

bool stream::add_header(std::string_view name, std::string_view value) {
  if (!valid_header_name(name) || !valid_header_value(value)) return false;
  switch (name.size()) {
    case 4:
      if (equals_ignore_case(name, "date")) app_date_ = true;
      break;
    case 6:
      if (equals_ignore_case(name, "server")) app_server_ = true;
      break;
    case 10:
      if (equals_ignore_case(name, "connection")) {
        if (util::has_list_token(value, "close")) app_wants_close_ = true;
        return true;  // the server writes its own
      }
      if (equals_ignore_case(name, "keep-alive")) return true;
      break;
    case 14:
      if (equals_ignore_case(name, "content-length")) {
        uint64_t length = 0;
        if (!util::parse_decimal(value, length)) return false;
        if (response_length_ >= 0) return response_length_ == static_cast<int64_t>(length);  // a repeat is dropped
        response_length_ = static_cast<int64_t>(length);
      }
      break;
    case 17:
      if (equals_ignore_case(name, "transfer-encoding")) return true;  // the server frames the body
      break;
    default:
      break;
  }
  char* p = response_head_.prepare(name.size() + value.size() + 4);
  util::copy_bytes(p, name, name.size());
  p += name.size();
  *p++ = ':';
  *p++ = ' ';
  util::copy_bytes(p, value, value.size());
  p += value.size();
  *p++ = '\r';
  *p++ = '\n';
  response_head_.commit(name.size() + value.size() + 4);
  return true;
}

// Writes the head into the output. Keep-alive needs the whole request body
// to have arrived: bytes still on the wire cannot be skipped reliably.
// A body over the size limit found while the app ran: whatever the app
// answers (often a 500 of its own, from the read that failed), the client
// gets the 413 while nothing has gone out yet. Returns true when it did.
bool stream::replace_with_body_error() {
  if ((state_.load(std::memory_order_acquire) & k_body_error) == 0 || body_error_status() != 413) return false;
  fail(413, true);
  replaced_ = true;
  return true;
}

void stream::commit(bool body_is_empty) {
  committed_ = true;
  int s = response_status_;
  response_no_body_ = head_.is_head || s < 200 || s == 204 || s == 304;
  bool stopping = settings_.stopping != nullptr && settings_.stopping->load(std::memory_order_relaxed);
  // The body has all arrived, or what the app leaves unread is a rest the
  // connection reads and drops before the next request (connection::
  // finish_stream): a length within the body window, from a client that is
  // not waiting for 100 Continue (it may never send a body it was not asked
  // for, and its next request would then be read as that body).
  bool rest_droppable = head_.framing == body_framing::length && head_.content_length <= settings_.body_window &&
                        !head_.expect_continue;
  bool keep = head_.keep_alive && !stopping && !app_wants_close_ &&
              ((state_.load(std::memory_order_acquire) & k_body_end) != 0 || rest_droppable);
  if (response_length_ < 0 && !response_no_body_) {
    if (body_is_empty) {
      response_head_.append("content-length: 0\r\n");
      response_length_ = 0;
    } else if (head_.version_minor == 1) {
      response_head_.append("transfer-encoding: chunked\r\n");
      response_chunked_ = true;
    } else {
      keep = false;  // an HTTP/1.0 body without a length ends when the connection does
    }
  }
  if (!keep) {
    response_head_.append("connection: close\r\n");
    close_after_.store(true, std::memory_order_release);
  } else if (head_.version_minor == 0) {
    response_head_.append("connection: keep-alive\r\n");
  }
  if (!app_date_) response_head_.append(current_date_line());
  if (!app_server_ && !settings_.server_header.empty()) response_head_.append(settings_.server_header);
  response_head_.append("\r\n", 2);
  app_out_.bytes().append(response_head_.view());
}

bool stream::output_ready() const {
  if (cancelled()) return true;
  uint64_t queued = app_out_.buffered_bytes() + published_.load(std::memory_order_acquire) +
                    backlog_.load(std::memory_order_acquire);
  return queued < settings_.output_window;
}

bool stream::credit_or_wake_me() {
  if (output_ready()) return true;
  // Hand what is queued to the loop before waiting for it to drain. The flag
  // goes up before the second look: set_backlog() stores the backlog, then
  // reads the flag, so either it sees the flag and wakes us, or we see the
  // room it made.
  state_.fetch_or(k_wants_credit, std::memory_order_seq_cst);
  // output_ready() loads with acquire; the flag/backlog pair needs the
  // store-load order a full fence gives (set_backlog's side is seq_cst).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  publish();
  if (!output_ready()) {
    notify_loop(true);
    return false;
  }
  state_.fetch_and(~k_wants_credit, std::memory_order_acq_rel);
  return true;
}

// Called after the response ended (a WSGI close() that writes): the bytes
// would be read as the start of the next response, so the connection closes.
bool stream::refuse_after_finish() {
  log::write(log::level::error, "the application wrote after its response ended; closing the connection");
  close_after_.store(true, std::memory_order_release);
  notify_loop(false);
  return false;
}

stream::send_status stream::try_send(const char* data, size_t length) { return send_body(data, length, false); }

stream::send_status stream::try_send_external(const char* data, size_t length) {
  return send_body(data, length, true);
}

stream::send_status stream::send_past_window(const char* data, size_t length) {
  return send_body(data, length, false, true);
}

bool stream::external_sent() {
  if (external_unsent_.load(std::memory_order_seq_cst) == 0) return true;
  if (cancelled()) {
    // The loop takes nothing more from a cancelled stream: what is still
    // queued on this side is dropped here (the connection dropped its own
    // queue before cancelling).
    app_out_.clear();
    shared_guard guard(*this);
    shared_out_.clear();
  }
  state_.fetch_or(k_wants_external, std::memory_order_seq_cst);
  if (external_unsent_.load(std::memory_order_seq_cst) == 0) {
    state_.fetch_and(~k_wants_external, std::memory_order_acq_rel);
    return true;
  }
  publish();
  notify_loop(true);
  return false;
}

stream::send_status stream::send_body(const char* data, size_t length, bool external, bool past_window) {
  if (cancelled()) return send_status::gone;
  if (replaced_) return send_status::accepted;  // the error answer stands; the app's body goes nowhere
  if (finished_) {
    refuse_after_finish();
    return send_status::gone;
  }
  if (!past_window && !credit_or_wake_me()) return send_status::pending;
  if (!committed_ && replace_with_body_error()) return send_status::accepted;
  if (replaced_) return send_status::accepted;
  if (!committed_) commit(false);
  if (response_no_body_ || length == 0) return send_status::accepted;
  if (response_length_ >= 0) {
    uint64_t allowed = static_cast<uint64_t>(response_length_) - response_sent_;
    if (length > allowed) {
      log::write(log::level::error, "the application sent more than its Content-Length; the excess was dropped");
      length = static_cast<size_t>(allowed);
      close_after_.store(true, std::memory_order_release);
    }
  }
  if (external) {
    if (response_chunked_) append_chunk_header(app_out_.bytes(), length);
    app_out_.push_external(data, length, &external_unsent_);
    if (response_chunked_) app_out_.bytes().append("\r\n", 2);
  } else {
    byte_buffer& out = app_out_.bytes();
    if (response_chunked_) append_chunk_header(out, length);
    out.append(data, length);
    if (response_chunked_) out.append("\r\n", 2);
  }
  response_sent_ += length;
  // Large bodies go to the loop as they are produced, not all at the end.
  if (app_out_.buffered_bytes() >= 65536) {
    publish();
    notify_loop(true);
  }
  return send_status::accepted;
}

stream::send_status stream::send_file(int fd, off_t offset, uint64_t length) {
  if (cancelled() || finished_) {
    ::close(fd);
    if (!cancelled() && !replaced_) refuse_after_finish();
    return send_status::gone;
  }
  if (!committed_ && replace_with_body_error()) {
    ::close(fd);
    return send_status::accepted;
  }
  if (!committed_) commit(length == 0);
  if (response_no_body_ || length == 0) {
    ::close(fd);
    return send_status::accepted;
  }
  if (response_length_ >= 0) {
    uint64_t allowed = static_cast<uint64_t>(response_length_) - response_sent_;
    if (length > allowed) length = allowed;
  }
  if (response_chunked_) append_chunk_header(app_out_.bytes(), static_cast<size_t>(length));
  app_out_.push_file(fd, offset, length);
  if (response_chunked_) app_out_.bytes().append("\r\n", 2);
  response_sent_ += length;
  return send_status::accepted;
}

void stream::publish() {
  if (app_out_.empty()) return;
  uint64_t bytes = app_out_.buffered_bytes();
  if (cancelled()) {
    app_out_.clear();
    return;
  }
  {
    shared_guard guard(*this);
    shared_out_.take_from(app_out_);
  }
  published_.fetch_add(bytes, std::memory_order_acq_rel);
}

void stream::flush() {
  if (cancelled()) return;
  publish();
  state_.fetch_or(k_flush, std::memory_order_relaxed);
  notify_loop(true);
}

void stream::finish() {
  if (cancelled() || finished_) return;
  if (!committed_ && replace_with_body_error()) return;
  finished_ = true;
  if (!committed_) commit(true);
  if (response_chunked_) {
    app_out_.bytes().append(last_chunk);
  } else if (response_length_ >= 0 && !response_no_body_ &&
             response_sent_ < static_cast<uint64_t>(response_length_)) {
    log::write(log::level::error, "the application sent less than its Content-Length; closing the connection");
    close_after_.store(true, std::memory_order_release);
  }
  publish();
  notify_loop(false);
}

void stream::fail(int status, bool close) {
  if (cancelled()) return;
  finished_ = true;
  if (!committed_) {
    committed_ = true;
    bool stopping = settings_.stopping != nullptr && settings_.stopping->load(std::memory_order_relaxed);
    bool keep = !close && head_.keep_alive && !stopping && (state_.load(std::memory_order_acquire) & k_body_end) != 0;
    app_out_.clear();
    append_simple_response(app_out_.bytes(), status, current_date_line(), "text/plain; charset=utf-8",
                           status_reason(status), !keep, head_.is_head);
    if (!keep) close_after_.store(true, std::memory_order_release);
    response_status_ = status;
    response_sent_ = head_.is_head ? 0 : std::strlen(status_reason(status));
    response_head_.clear();
  } else {
    // Part of the answer is out: the only honest signal left is to close.
    close_after_.store(true, std::memory_order_release);
  }
  publish();
  notify_loop(false);
}

void stream::app_done() {
  if (!finished_ && !cancelled()) {
    log::write(log::level::error, "the request handler produced no complete response");
    fail(500);
  }
  publish();
  waker_.store(nullptr, std::memory_order_release);
  state_.fetch_or(k_app_done, std::memory_order_acq_rel);
  // A direct stream's dispatcher, on the loop thread, takes it from here.
  // Otherwise the app side's reference travels to the loop in the done
  // notice; after post() this thread must not touch the stream.
  if (!direct_) loop_.post(&done_notice_);
}

}  // namespace baton::http1
