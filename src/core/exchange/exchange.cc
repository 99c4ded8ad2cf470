#include "core/exchange/exchange.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <utility>

#include "core/loop/event_loop.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::exchange {
namespace {

// Buffers that grew past this for one request are freed when the stream is
// recycled, so one large upload does not pin memory in the stream pool.
constexpr size_t keep_capacity = size_t{64} * 1024;
// A WebSocket keeps no buffer of a message larger than this after it: the
// next message takes storage the allocator has just had back, warm in the
// cache, where hundreds of connections each keeping its own 16 KiB buffers
// run through more memory than the cache holds (the 16 KiB echo at 512
// connections carried about a tenth more with this than with 64 KiB).
constexpr size_t message_storage_kept = 4096;

}  // namespace

void (*exchange::before_register_for_tests)(exchange&) = nullptr;

exchange::exchange(exchange_owner& owner, loop::event_loop& loop, const exchange_settings& settings)
    : owner_(owner), loop_(loop), settings_(settings) {
  done_notice_.owner = this;
  done_notice_.notice_kind = k_done_notice;
}

exchange::~exchange() = default;

void exchange::release() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) owner_.recycle(this);
}

// ------------------------------------------------------------------ loop side

void exchange::reset_for(const request_head& parsed, const char* raw, size_t raw_length, const peer_info& peer,
                         const response_wire& wire, const proxy_settings* proxy) {
  ++generation;
  state_.store(0, std::memory_order_relaxed);
  waker_.store(nullptr, std::memory_order_relaxed);
  direct_ = false;
  sink = nullptr;
  fifo_next = nullptr;
  pool_order = 0;
  wire_ = &wire;
  bytes_received = raw_length;
  copy_head(parsed, raw, raw_length);
  set_client(peer, proxy);
  reset_channels();
  response_.reset();
  if (response_.fields.capacity() > keep_capacity) response_.fields.release();
  if (upgrade_.websocket()) upgrade_.reset();  // only an offer leaves anything to clear
  message_taken_ = 0;
  refs_.store(1, std::memory_order_relaxed);  // the protocol's
}

// One copy of the raw head; every view is re-pointed by the same offset.
void exchange::copy_head(const request_head& parsed, const char* raw, size_t raw_length) {
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
  fields_.resize(parsed.field_count);
  for (size_t i = 0; i < parsed.field_count; ++i) {
    fields_[i].name = rebase(parsed.fields[i].name);
    fields_[i].value = rebase(parsed.fields[i].value);
  }
  head_.fields = fields_.data();
}

upgrade_offer& exchange::offer_upgrade() {
  if (head_bytes_.capacity() > head_bytes_.size()) {
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
    for (field& f : fields_) {
      rebase(f.name);
      rebase(f.value);
    }
    head_bytes_ = std::move(exact);
  }
  return upgrade_;
}

size_t exchange::release_channel_memory() {
  size_t freed = 0;
  if (loop_in_.empty()) {
    freed += loop_in_.capacity();
    loop_in_ = byte_buffer();
  }
  shared_guard guard(*this);
  if (shared_in_.empty()) {
    freed += shared_in_.capacity();
    shared_in_ = byte_buffer();
  }
  if (shared_out_.empty()) freed += shared_out_.release_memory();
  return freed;
}

void exchange::ask_app_to_release_memory() {
  state_.fetch_or(k_release_asked, std::memory_order_acq_rel);
  wake_app();
}

size_t exchange::release_app_memory_if_asked() {
  if ((state_.load(std::memory_order_acquire) & k_release_asked) == 0) return 0;
  state_.fetch_and(~k_release_asked, std::memory_order_acq_rel);
  size_t freed = 0;
  if (app_in_.empty()) {
    freed += app_in_.capacity();
    app_in_ = byte_buffer();
  }
  if (app_out_.empty()) freed += app_out_.release_memory();
  return freed;
}

size_t exchange::storage_bytes() const {
  return head_bytes_.capacity() + fields_.capacity() * sizeof(field) + shared_in_.capacity() + app_in_.capacity() +
         loop_in_.capacity() + shared_out_.storage_bytes() + app_out_.storage_bytes() + response_.fields.capacity() +
         response_.status_line.capacity() + upgrade_.accept.capacity() + upgrade_.extensions.capacity();
}

void exchange::set_client(const peer_info& peer, const proxy_settings* proxy) {
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
}

// Body and output start empty (keeping modest storage for reuse).
void exchange::reset_channels() {
  shared_in_.clear();
  app_in_.clear();
  loop_in_.clear();
  if (shared_in_.capacity() > keep_capacity) shared_in_ = byte_buffer();
  if (app_in_.capacity() > keep_capacity) app_in_ = byte_buffer();
  if (loop_in_.capacity() > keep_capacity) loop_in_ = byte_buffer();
  shared_out_.clear();
  app_out_.clear();
  in_buffered_.store(0, std::memory_order_relaxed);
  messages_waiting_.store(0, std::memory_order_relaxed);
  message_limit_.store(0, std::memory_order_relaxed);
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
}

void exchange::wake_app() {
  app_waker* w = waker_.load(std::memory_order_acquire);
  if (w != nullptr) w->wake();
}

void exchange::deliver_body(const char* data, size_t length, bool last) {
  bytes_received += length;
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

namespace {
void write_message_header(char* header, message_kind kind, size_t length) {
  header[0] = static_cast<char>(kind);
  for (size_t i = 0; i < 4; ++i) header[1 + i] = static_cast<char>((length >> (8 * i)) & 0xff);
}
}  // namespace

void exchange::deliver_message(message_kind kind, const char* data, size_t length) {
  char header[message_header_size];
  write_message_header(header, kind, length);
  {
    shared_guard guard(*this);
    in_buffered_.fetch_add(message_header_size + length, std::memory_order_acq_rel);
    messages_waiting_.fetch_add(1, std::memory_order_acq_rel);
    shared_in_.append(header, message_header_size);
    shared_in_.append(data, length);
  }
  wake_app();
}

void exchange::deliver_message(message_kind kind, byte_buffer& payload) {
  if (payload.front_room() < message_header_size) {
    deliver_message(kind, payload.data(), payload.size());
    payload.clear();
    return;
  }
  size_t length = payload.size();
  payload.claim_front(message_header_size);
  write_message_header(payload.data(), kind, length);
  {
    shared_guard guard(*this);
    in_buffered_.fetch_add(message_header_size + length, std::memory_order_acq_rel);
    messages_waiting_.fetch_add(1, std::memory_order_acq_rel);
    if (shared_in_.empty()) {
      std::swap(shared_in_, payload);  // the app has taken everything before: no copy
    } else {
      shared_in_.append(payload.data(), payload.size());
    }
  }
  payload.clear();
  wake_app();
}

void exchange::body_received(size_t length, bool last) {
  bytes_received += length;
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

char* exchange::target_space(size_t& room) {
  if (!target_active_.load(std::memory_order_acquire)) return nullptr;
  size_t filled = target_filled_.load(std::memory_order_relaxed);
  room = target_size_ - filled;
  return target_ + filled;
}

void exchange::target_received(size_t length, bool last) {
  bytes_received += length;
  size_t filled = target_filled_.load(std::memory_order_relaxed) + length;
  target_filled_.store(filled, std::memory_order_relaxed);
  if (last) state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  if (filled == target_size_ || last) release_target();
}

// Loop side, under the lock: bytes that arrive while a destination is
// registered go there first (it was registered only when nothing was
// buffered, so this keeps their order); returns what did not fit.
size_t exchange::fill_target(const char*& data, size_t length, bool last) {
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
void exchange::release_target() {
  if (!target_active_.load(std::memory_order_relaxed)) return;
  target_active_.store(false, std::memory_order_release);
  wake_app();
}

bool exchange::read_into(char* destination, size_t length) {
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

void exchange::deliver_body_end() {
  state_.fetch_or(k_body_end, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

void exchange::deliver_body_error(int status) {
  if (body_ended()) return;
  body_error_status_.store(status, std::memory_order_relaxed);
  state_.fetch_or(k_body_error, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

bool exchange::pause_reading(size_t window, uint32_t messages) {
  message_limit_.store(messages, std::memory_order_release);
  state_.fetch_or(k_read_paused, std::memory_order_seq_cst);
  // The app may have consumed between the loop's check and the flag: if it
  // did, it saw no flag and will not resume us, so look again.
  if (in_buffered_.load(std::memory_order_seq_cst) < window / 2 &&
      messages_waiting_.load(std::memory_order_seq_cst) <= messages / 2) {
    state_.fetch_and(~k_read_paused, std::memory_order_acq_rel);
    return false;
  }
  return true;
}

uint64_t exchange::take_output(net::output_queue& dest) {
  uint64_t moved = published_.exchange(0, std::memory_order_acq_rel);
  shared_guard guard(*this);
  dest.take_from(shared_out_);
  return moved;
}

void exchange::set_backlog(uint64_t bytes) {
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

bool exchange::take_continue_request() {
  if ((state_.load(std::memory_order_acquire) & k_wants_continue) == 0) return false;
  state_.fetch_and(~k_wants_continue, std::memory_order_acq_rel);
  return true;
}

void exchange::mark_client_finished() {
  state_.fetch_or(k_client_eof, std::memory_order_acq_rel);
  wake_app();
}

void exchange::cancel() {
  state_.fetch_or(k_cancelled, std::memory_order_acq_rel);
  release_target();
  wake_app();
}

// ------------------------------------------------------------------- app side

void exchange::notify_loop(bool urgent) {
  if (direct_) {
    if (urgent) owner_.exchange_news(this);
    return;
  }
  if ((state_.fetch_or(k_queued, std::memory_order_acq_rel) & k_queued) != 0) return;
  add_ref();  // the inbox's reference, dropped by the loop when it takes the notice
  loop_.post(this);
}

exchange::read_status exchange::try_read(std::string_view& out) {
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

void exchange::consume(size_t n) {
  if (consume_and_resume(n)) notify_loop(true);
}

exchange::read_status exchange::try_read_message(message_kind& kind, std::string_view& payload) {
  std::string_view view;
  read_status r = try_read(view);
  if (r != read_status::data) return r;
  if (view.size() < message_header_size) return read_status::error;  // never: messages arrive whole
  size_t length = 0;
  for (size_t i = 0; i < 4; ++i) length |= static_cast<size_t>(static_cast<unsigned char>(view[1 + i])) << (8 * i);
  if (view.size() < message_header_size + length) return read_status::error;
  kind = static_cast<message_kind>(view[0]);
  payload = view.substr(message_header_size, length);
  message_taken_ = message_header_size + length;
  return read_status::data;
}

void exchange::consume_message() {
  size_t n = message_taken_;
  message_taken_ = 0;
  if (n == 0) return;
  messages_waiting_.fetch_sub(1, std::memory_order_seq_cst);  // before the bytes: consume() looks at both
  consume(n);
  // No buffer of a large message is kept after it (see message_storage_kept).
  if (app_in_.empty() && app_in_.capacity() > message_storage_kept) app_in_ = byte_buffer();
}

exchange::send_status exchange::send_message(message_kind kind, const char* data, size_t length) {
  uint32_t flags = state_.load(std::memory_order_acquire);
  if ((flags & (k_cancelled | k_app_closed)) != 0 || (flags & k_switched) == 0) return send_status::gone;
  upgrade_.wire->write_message(kind, data, length, upgrade_, app_out_.bytes());
  response_.sent += length;
  publish();
  // After the publish: the loop that sees the flag finds the close queued.
  if (kind == message_kind::close) state_.fetch_or(k_app_closed, std::memory_order_acq_rel);
  notify_loop(true);
  return send_status::accepted;
}

// True when this took the read-paused flag down: the loop must be told.
bool exchange::consume_and_resume(size_t n) {
  mark_app_reading();
  app_in_.consume(n);
  size_t left = in_buffered_.fetch_sub(n, std::memory_order_seq_cst) - n;
  // The flag first: the limit stored before it is then the one to use.
  if ((state_.load(std::memory_order_seq_cst) & k_read_paused) == 0 || left >= settings_.body_window / 2) return false;
  if (messages_waiting_.load(std::memory_order_seq_cst) > message_limit_.load(std::memory_order_acquire) / 2) {
    return false;
  }
  return (state_.fetch_and(~k_read_paused, std::memory_order_acq_rel) & k_read_paused) != 0;
}

void exchange::begin_switch_response() {
  begin_response(101, "101 Switching Protocols");
  response_.fields.add("upgrade", "websocket");
  response_.fields.add("sec-websocket-accept", upgrade_.accept);
  if (!upgrade_.extensions.empty()) response_.fields.add("sec-websocket-extensions", upgrade_.extensions);
}

void exchange::begin_response(int status_code, std::string_view status_line) {
  response_.status = status_code;
  response_.status_line.assign(status_line);
  response_.fields.clear();
  response_.length = -1;
  response_.app_wants_close = false;
  response_.app_date = false;
  response_.app_server = false;
}

bool exchange::add_header(std::string_view name, std::string_view value) {
  // Once committed the head is the loop's to read (HTTP/2 encodes it from
  // here) and already on its way: a length found later (a WSGI app that
  // wrote, then returned the rest) is too late for it, and is dropped.
  if (response_.committed) return false;
  if (!valid_field_name(name) || !valid_field_value(value)) return false;
  switch (name.size()) {
    case 4:
      if (util::equals_ignore_case(name, "date")) response_.app_date = true;
      break;
    case 6:
      if (util::equals_ignore_case(name, "server")) response_.app_server = true;
      break;
    case 10:
      // The connection's own fields (RFC 9110 section 7.6.1) are the
      // protocol's to write: HTTP/1 frames and keeps connections itself,
      // and HTTP/2 forbids them.
      if (util::equals_ignore_case(name, "connection")) {
        if (util::has_list_token(value, "close")) response_.app_wants_close = true;
        return true;
      }
      if (util::equals_ignore_case(name, "keep-alive")) return true;
      break;
    case 14:
      if (util::equals_ignore_case(name, "content-length")) {
        uint64_t length = 0;
        if (!util::parse_decimal(value, length)) return false;
        if (response_.length >= 0) return response_.length == static_cast<int64_t>(length);  // a repeat is dropped
        response_.length = static_cast<int64_t>(length);
      }
      break;
    case 17:
      if (util::equals_ignore_case(name, "transfer-encoding")) return true;  // the protocol frames the body
      break;
    default:
      break;
  }
  response_.fields.add(name, value);
  return true;
}

bool exchange::add_trailer(std::string_view name, std::string_view value) {
  if (!valid_field_name(name) || !valid_field_value(value) || forbidden_in_trailer(name) ||
      util::equals_ignore_case(name, "keep-alive") || util::equals_ignore_case(name, "upgrade") ||
      util::equals_ignore_case(name, "proxy-connection")) {
    return false;
  }
  response_.trailers.add(name, value);
  return true;
}

// A body over the size limit found while the app ran: whatever the app
// answers (often a 500 of its own, from the read that failed), the client
// gets the 413 while nothing has gone out yet. Returns true when it did.
bool exchange::replace_with_body_error() {
  if ((state_.load(std::memory_order_acquire) & k_body_error) == 0 || body_error_status() != 413) return false;
  fail(413, true);
  response_.replaced = true;
  return true;
}

// The head goes out: the protocol writes it and decides the framing.
void exchange::commit(bool body_is_empty) {
  response_.committed = true;
  bool stopping = settings_.stopping != nullptr && settings_.stopping->load(std::memory_order_relaxed);
  commit_facts facts{head_, body_complete(), stopping, settings_.body_window, body_is_empty};
  if (wire_->write_head(response_, facts, app_out_.bytes())) close_after_.store(true, std::memory_order_release);
  // Release: the head's fields are seen by a loop that sees the flag.
  state_.fetch_or(k_head_ready, std::memory_order_release);
}

bool exchange::output_ready() const {
  if (cancelled()) return true;
  uint64_t queued = app_out_.buffered_bytes() + published_.load(std::memory_order_acquire) +
                    backlog_.load(std::memory_order_acquire);
  return queued < settings_.output_window;
}

bool exchange::credit_or_wake_me() {
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
bool exchange::refuse_after_finish() {
  log::write(log::level::error, "the application wrote after its response ended; closing the connection");
  close_after_.store(true, std::memory_order_release);
  notify_loop(false);
  return false;
}

exchange::send_status exchange::try_send(const char* data, size_t length) { return send_body(data, length, false); }

exchange::send_status exchange::try_send_external(const char* data, size_t length) {
  return send_body(data, length, true);
}

exchange::send_status exchange::send_past_window(const char* data, size_t length) {
  return send_body(data, length, false, true);
}

bool exchange::external_sent() {
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

uint64_t exchange::clip_to_length(uint64_t length) {
  if (response_.length < 0) return length;
  uint64_t allowed = static_cast<uint64_t>(response_.length) - response_.sent;
  return length > allowed ? allowed : length;
}

exchange::send_status exchange::send_body(const char* data, size_t length, bool external, bool past_window) {
  if (cancelled()) return send_status::gone;
  if (response_.replaced) return send_status::accepted;  // the error answer stands; the app's body goes nowhere
  if (response_.finished) {
    refuse_after_finish();
    return send_status::gone;
  }
  if (!past_window && !credit_or_wake_me()) return send_status::pending;
  if (!response_.committed && replace_with_body_error()) return send_status::accepted;
  if (response_.replaced) return send_status::accepted;
  if (!response_.committed) commit(false);
  if (response_.no_body || length == 0) return send_status::accepted;
  size_t allowed = static_cast<size_t>(clip_to_length(length));
  if (allowed < length) {
    log::write(log::level::error, "the application sent more than its Content-Length; the excess was dropped");
    length = allowed;
    close_after_.store(true, std::memory_order_release);
  }
  byte_buffer& out = app_out_.bytes();
  if (response_.chunked) wire_->begin_piece(length, out);
  if (external) {
    app_out_.push_external(data, length, &external_unsent_);
  } else {
    app_out_.bytes().append(data, length);
  }
  if (response_.chunked) wire_->end_piece(app_out_.bytes());
  response_.sent += length;
  // Large bodies go to the loop as they are produced, not all at the end.
  if (app_out_.buffered_bytes() >= 65536) {
    publish();
    notify_loop(true);
  }
  return send_status::accepted;
}

exchange::send_status exchange::send_file(int fd, off_t offset, uint64_t length) {
  if (cancelled() || response_.finished) {
    ::close(fd);
    if (!cancelled() && !response_.replaced) refuse_after_finish();
    return send_status::gone;
  }
  if (!response_.committed && replace_with_body_error()) {
    ::close(fd);
    return send_status::accepted;
  }
  if (!response_.committed) commit(length == 0);
  if (response_.no_body || length == 0) {
    ::close(fd);
    return send_status::accepted;
  }
  length = clip_to_length(length);
  if (response_.chunked) wire_->begin_piece(static_cast<size_t>(length), app_out_.bytes());
  app_out_.push_file(fd, offset, length);
  if (response_.chunked) wire_->end_piece(app_out_.bytes());
  response_.sent += length;
  return send_status::accepted;
}

void exchange::publish() {
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

void exchange::flush() {
  if (cancelled()) return;
  publish();
  state_.fetch_or(k_flush, std::memory_order_relaxed);
  notify_loop(true);
}

void exchange::finish() {
  if (cancelled() || response_.finished) return;
  if (!response_.committed && replace_with_body_error()) return;
  response_.finished = true;
  // With trailers to carry, an empty body is still framed in pieces (HTTP/1
  // has no place for trailers after Content-Length: 0).
  if (!response_.committed) commit(response_.trailers.empty());
  if (response_.chunked) {
    wire_->end_body(response_, app_out_.bytes());
  } else if (response_.length >= 0 && !response_.no_body && response_.sent < static_cast<uint64_t>(response_.length)) {
    log::write(log::level::error, "the application sent less than its Content-Length; closing the connection");
    close_after_.store(true, std::memory_order_release);
  }
  publish();
  if (response_.status == 101 && upgrade_.websocket()) {
    // The app switched: its 101 is queued, messages flow from now on, and
    // the protocol must hand its session on now (the app is not done). The
    // request's (empty) body has ended; the messages have not.
    state_.fetch_and(~k_body_end, std::memory_order_acq_rel);
    // What the 101 needed is not kept for the WebSocket's life: its fields
    // (for the access log) in storage of their size, and no output storage
    // until the first message.
    response_.fields.shrink_to_fit();
    app_out_.release_memory();
    state_.fetch_or(k_switched, std::memory_order_acq_rel);
    notify_loop(true);
    return;
  }
  notify_loop(false);
}

void exchange::fail(int status, bool close) {
  if (cancelled()) return;
  if (response_.committed) {
    // Part of the answer is out: the only honest signal left is to close.
    response_.finished = true;
    close_after_.store(true, std::memory_order_release);
    publish();
    notify_loop(false);
    return;
  }
  app_out_.clear();
  answer(status, "text/plain; charset=utf-8", status_reason(status), {}, close);
}

void exchange::answer(int status, std::string_view content_type, std::string_view body,
                      std::initializer_list<std::string_view> extra_fields, bool close) {
  if (cancelled() || response_.committed) return;
  char line[64];
  int n = std::snprintf(line, sizeof line, "%d %s", status, status_reason(status));
  begin_response(status, std::string_view(line, static_cast<size_t>(n)));
  response_.strict_keep_alive = true;
  response_.app_wants_close = close;
  response_.fields.add("content-type", content_type);
  char length[24];
  n = std::snprintf(length, sizeof length, "%zu", body.size());
  response_.fields.add("content-length", std::string_view(length, static_cast<size_t>(n)));
  response_.length = static_cast<int64_t>(body.size());
  for (auto it = extra_fields.begin(); it != extra_fields.end() && it + 1 != extra_fields.end(); it += 2) {
    response_.fields.add(*it, *(it + 1));
  }
  commit(body.empty());
  if (!response_.no_body && !body.empty()) app_out_.bytes().append(body);
  response_.sent = response_.no_body ? 0 : body.size();
  response_.finished = true;
  publish();
  notify_loop(false);
}

void exchange::app_done() {
  if (!response_.finished && !cancelled()) {
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

}  // namespace baton::exchange
