#include "core/exchange/body_in.h"

#include <cstring>
#include <utility>

#include "core/exchange/storage.h"

namespace baton::exchange {

void (*body_in::before_register_for_tests)() = nullptr;

// ------------------------------------------------------------------ loop side

void body_in::deliver(const char* data, size_t length, bool last) {
  bytes_received_ += length;
  {
    meeting::guard guard(m_);
    length = fill_target(data, length, last);
    if (length > 0) {
      buffered_.fetch_add(length, std::memory_order_acq_rel);
      shared_in_.append(data, length);
    }
    if (last) m_.raise(meeting::body_end);
  }
  if (last) release_target();
  m_.wake_app();
}

void body_in::deliver_unit(const char* header, size_t header_size, const char* data, size_t length) {
  {
    meeting::guard guard(m_);
    buffered_.fetch_add(header_size + length, std::memory_order_acq_rel);
    units_waiting_.fetch_add(1, std::memory_order_acq_rel);
    shared_in_.append(header, header_size);
    shared_in_.append(data, length);
  }
  m_.wake_app();
}

void body_in::deliver_unit(byte_buffer& unit) {
  {
    meeting::guard guard(m_);
    buffered_.fetch_add(unit.size(), std::memory_order_acq_rel);
    units_waiting_.fetch_add(1, std::memory_order_acq_rel);
    if (shared_in_.empty()) {
      std::swap(shared_in_, unit);  // the app has taken everything before: no copy
    } else {
      shared_in_.append(unit.data(), unit.size());
    }
  }
  unit.clear();
  m_.wake_app();
}

void body_in::received(size_t length, bool last) {
  bytes_received_ += length;
  loop_in_.commit(length);
  {
    meeting::guard guard(m_);
    // A destination registered while this read was under way takes the
    // bytes first (a copy, but a rare one).
    const char* data = loop_in_.data();
    size_t left = fill_target(data, loop_in_.size(), last);
    loop_in_.consume(loop_in_.size() - left);
    if (left > 0) {
      buffered_.fetch_add(left, std::memory_order_acq_rel);
      if (shared_in_.empty()) {
        std::swap(shared_in_, loop_in_);
      } else {
        shared_in_.append(loop_in_.view());
        loop_in_.clear();
      }
    }
    if (last) m_.raise(meeting::body_end);
  }
  if (last) release_target();
  m_.wake_app();
}

char* body_in::target_space(size_t& room) {
  if (!target_active_.load(std::memory_order_acquire)) return nullptr;
  size_t filled = target_filled_.load(std::memory_order_relaxed);
  room = target_size_ - filled;
  return target_ + filled;
}

void body_in::target_received(size_t length, bool last) {
  bytes_received_ += length;
  advance_target(length, last);
}

// Bytes counted already (by whoever received them) are in the destination.
void body_in::advance_target(size_t length, bool last) {
  size_t filled = target_filled_.load(std::memory_order_relaxed) + length;
  target_filled_.store(filled, std::memory_order_relaxed);
  if (last) m_.raise(meeting::body_end);
  if (filled == target_size_ || last) release_target();
}

// Loop side, under the lock: bytes that arrive while a destination is
// registered go there first (it was registered only when nothing was
// buffered, so this keeps their order); returns what did not fit.
size_t body_in::fill_target(const char*& data, size_t length, bool last) {
  size_t room = 0;
  char* target = target_space(room);
  if (target == nullptr || length == 0) return length;
  size_t take = length < room ? length : room;
  std::memcpy(target, data, take);
  data += take;
  advance_target(take, last && take == length);  // counted by the caller: deliver() or received()
  return length - take;
}

// Loop side: the destination is the app's again (full, or nothing more is
// coming); the release pairs with the app's acquire of target_active_.
void body_in::release_target() {
  if (!target_active_.load(std::memory_order_relaxed)) return;
  target_active_.store(false, std::memory_order_release);
  m_.wake_app();
}

void body_in::deliver_end() {
  m_.raise(meeting::body_end);
  release_target();
  m_.wake_app();
}

void body_in::deliver_error(int status) {
  if (ended()) return;
  m_.body_error_status.store(status, std::memory_order_relaxed);
  m_.raise(meeting::body_error);
  release_target();
  m_.wake_app();
}

bool body_in::pause_reading(size_t window, uint32_t units) {
  unit_limit_.store(units, std::memory_order_release);
  m_.state.fetch_or(meeting::read_paused, std::memory_order_seq_cst);
  // The app may have consumed between the loop's check and the flag: if it
  // did, it saw no flag and will not resume us, so look again.
  if (buffered_.load(std::memory_order_seq_cst) < window / 2 &&
      units_waiting_.load(std::memory_order_seq_cst) <= units / 2) {
    m_.lower(meeting::read_paused);
    return false;
  }
  return true;
}

size_t body_in::release_loop_memory() {
  size_t freed = 0;
  if (loop_in_.empty()) {
    freed += loop_in_.capacity();
    loop_in_ = byte_buffer();
  }
  meeting::guard guard(m_);
  if (shared_in_.empty()) {
    freed += shared_in_.capacity();
    shared_in_ = byte_buffer();
  }
  return freed;
}

// ------------------------------------------------------------------- app side

read_status body_in::try_read(std::string_view& out) {
  if (app_in_.empty()) {
    uint32_t flags;
    {
      meeting::guard guard(m_);
      if (!shared_in_.empty()) std::swap(app_in_, shared_in_);
      flags = m_.state.load(std::memory_order_acquire);
    }
    if (app_in_.empty()) {
      if ((flags & meeting::body_error) != 0) return read_status::error;
      if ((flags & meeting::body_end) != 0) return read_status::end;
      if ((flags & meeting::cancelled) != 0) return read_status::error;
      if (expects_continue_ && !continue_asked_) {
        continue_asked_ = true;
        m_.raise(meeting::wants_continue);
        m_.notify_loop(true);
      }
      mark_app_reading();
      return read_status::pending;
    }
  }
  out = app_in_.view();
  return read_status::data;
}

void body_in::consume(size_t n) {
  if (consume_and_resume(n)) m_.notify_loop(true);
}

void body_in::consume_unit(size_t n) {
  units_waiting_.fetch_sub(1, std::memory_order_seq_cst);  // before the bytes: consume() looks at both
  consume(n);
}

void body_in::trim_after_message(size_t kept) {
  if (app_in_.empty() && app_in_.capacity() > kept) app_in_ = byte_buffer();
}

// True when this took the read-paused flag down: the loop must be told.
bool body_in::consume_and_resume(size_t n) {
  mark_app_reading();
  app_in_.consume(n);
  size_t left = buffered_.fetch_sub(n, std::memory_order_seq_cst) - n;
  // The flag first: the limit stored before it is then the one to use.
  if ((m_.state.load(std::memory_order_seq_cst) & meeting::read_paused) == 0 ||
      left >= m_.settings.body_window / 2) {
    return false;
  }
  if (units_waiting_.load(std::memory_order_seq_cst) > unit_limit_.load(std::memory_order_acquire) / 2) {
    return false;
  }
  return (m_.state.fetch_and(~meeting::read_paused, std::memory_order_acq_rel) & meeting::read_paused) != 0;
}

bool body_in::read_into(char* destination, size_t length) {
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
    if (before_register_for_tests != nullptr) before_register_for_tests();
    meeting::guard guard(m_);
    // Bytes that arrived since the last look must be taken first: the
    // destination is registered only with nothing buffered before it.
    if (!shared_in_.empty()) continue;
    if (ended() || m_.has(meeting::cancelled)) break;
    target_ = destination;
    target_size_ = length;
    target_active_.store(true, std::memory_order_release);
    registered = true;
    break;
  }
  if (registered || resumed) m_.notify_loop(true);  // not under the lock: a direct owner calls back into us
  return registered;
}

size_t body_in::release_app_memory() {
  if (!app_in_.empty()) return 0;
  size_t freed = app_in_.capacity();
  app_in_ = byte_buffer();
  return freed;
}

}  // namespace baton::exchange
