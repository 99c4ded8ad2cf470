#include "core/net/output_queue.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace baton::net {
namespace {
// Byte runs up to this size are copied when queues are joined; larger ones
// are moved (a pointer swap) rather than copied.
constexpr size_t copy_limit = 16384;
constexpr size_t max_gather = 64;
}  // namespace

output_queue::segment& output_queue::back() {
  if (segments_.capacity() == 0 && spares_ != nullptr && !spares_->parked_.empty()) {
    segments_ = std::move(spares_->parked_.back());
    spares_->parked_.pop_back();
    first_ = 0;
  }
  if (live() == 0 || segments_.back().fd >= 0 || segments_.back().external != nullptr) return append_segment();
  return segments_.back();
}

// Every segment is added here. The spent ones before `first_` are dropped
// first once they are at least as many as the live ones: a queue that never
// empties (an HTTP/2 connection's output, each DATA frame's payload a
// segment of its own, flushed while the next is added) would otherwise keep
// one spent segment for every segment it ever held. Dropping them only past
// that share keeps the moves of the live ones amortised to one a segment.
output_queue::segment& output_queue::append_segment() {
  if (first_ > 0 && first_ >= live()) {
    segments_.erase(segments_.begin(), segments_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
  return segments_.emplace_back();
}

void output_queue::push_file(int fd, off_t offset, uint64_t length) {
  segment& s = append_segment();
  s.fd = fd;
  s.offset = offset;
  s.remaining = length;
}

void output_queue::push_external(const char* data, size_t length, std::atomic<uint64_t>* unsent) {
  if (length == 0) return;
  unsent->fetch_add(length, std::memory_order_acq_rel);
  segment& s = append_segment();
  s.external = data;
  s.external_size = length;
  s.external_unsent = unsent;
}

void output_queue::take_from(output_queue& other, bool copy_small) {
  if (copy_small && other.segments_.size() == 1 && other.first_ == 0) {
    // The common case (a small response): one byte run, copied; `other`
    // is then as the general case leaves it, its one buffer kept.
    segment& s = other.segments_[0];
    if (s.fd < 0 && s.external == nullptr && s.bytes.size() <= copy_limit) {
      if (!s.bytes.empty()) {
        bytes().append(s.bytes.view());
        s.bytes.clear();
      }
      return;
    }
  }
  for (size_t i = other.first_; i < other.segments_.size(); ++i) {
    segment& s = other.segments_[i];
    if (s.fd >= 0) {
      push_file(std::exchange(s.fd, -1), s.offset, s.remaining);
      continue;
    }
    if (s.external != nullptr) {
      // Moved as it is: the count of unsent bytes travels with it.
      segment& moved = append_segment();
      moved.external = std::exchange(s.external, nullptr);
      moved.external_size = std::exchange(s.external_size, 0);
      moved.external_unsent = std::exchange(s.external_unsent, nullptr);
      continue;
    }
    if (s.bytes.empty()) continue;
    if (copy_small && s.bytes.size() <= copy_limit) {
      bytes().append(s.bytes.view());
      s.bytes.clear();
      continue;
    }
    append_segment().bytes = std::move(s.bytes);
  }
  // `other` keeps its first buffer's storage for the next response.
  if (other.live() > 0) {
    byte_buffer keep = std::move(other.segments_[other.first_].bytes);
    keep.clear();
    other.segments_.clear();
    other.first_ = 0;
    other.segments_.emplace_back().bytes = std::move(keep);
  }
}

bool output_queue::all_empty() const {
  for (size_t i = first_; i < segments_.size(); ++i) {
    if (!segment_empty(segments_[i])) return false;
  }
  return true;
}

uint64_t output_queue::move_front(output_queue& dest, uint64_t n) {
  uint64_t moved = 0;
  while (moved < n && live() > 0) {
    segment& s = segments_[first_];
    uint64_t want = n - moved;
    if (s.fd >= 0) {
      if (s.remaining <= want) {
        moved += s.remaining;
        dest.push_file(std::exchange(s.fd, -1), s.offset, std::exchange(s.remaining, 0));
        pop_front();
        continue;
      }
      // Part of the range: read into memory (a descriptor for each part
      // would hold one per frame in flight).
      byte_buffer& into = dest.bytes();
      char* space = into.prepare(static_cast<size_t>(want));
      ssize_t got = ::pread(s.fd, space, static_cast<size_t>(want), s.offset);
      if (got <= 0) break;
      into.commit(static_cast<size_t>(got));
      s.offset += got;
      s.remaining -= static_cast<uint64_t>(got);
      moved += static_cast<uint64_t>(got);
      continue;
    }
    if (s.external != nullptr) {
      // Copied, and its owner told at once: an app waits for its memory to
      // be let go, and nothing would tell it once the moved part is sent.
      size_t take = s.external_size <= want ? s.external_size : static_cast<size_t>(want);
      dest.bytes().append(s.external, take);
      s.external += take;
      s.external_size -= take;
      s.external_unsent->fetch_sub(take, std::memory_order_seq_cst);
      moved += take;
      if (s.external_size == 0) pop_front();
      continue;
    }
    if (s.bytes.empty()) {
      if (first_ + 1 == segments_.size()) break;
      pop_front();
      continue;
    }
    if (s.bytes.size() <= want && s.bytes.size() > copy_limit) {
      moved += s.bytes.size();
      dest.append_segment().bytes = std::move(s.bytes);
      s.bytes = byte_buffer();
      pop_front();
      continue;
    }
    size_t take = s.bytes.size() <= want ? s.bytes.size() : static_cast<size_t>(want);
    dest.bytes().append(s.bytes.data(), take);
    s.bytes.consume(take);
    moved += take;
  }
  return moved;
}

uint64_t output_queue::queued_bytes() const {
  uint64_t total = 0;
  for (size_t i = first_; i < segments_.size(); ++i) {
    total += segments_[i].bytes.size() + segments_[i].external_size + segments_[i].remaining;
  }
  return total;
}

uint64_t output_queue::sum_buffered() const {
  uint64_t total = 0;
  for (size_t i = first_; i < segments_.size(); ++i) total += segments_[i].bytes.size() + segments_[i].external_size;
  return total;
}

void output_queue::pop_front() {
  segment& s = segments_[first_];
  if (s.fd >= 0) ::close(std::exchange(s.fd, -1));
  release_external(s);
  if (first_ + 1 == segments_.size()) {
    // Keep the last buffer's storage: the next response reuses it.
    s.bytes.clear();
    return;
  }
  s.bytes = byte_buffer();
  ++first_;
}

void output_queue::release_external(segment& s) {
  if (s.external_unsent != nullptr && s.external_size > 0) {
    s.external_unsent->fetch_sub(s.external_size, std::memory_order_seq_cst);
  }
  s.external = nullptr;
  s.external_size = 0;
  s.external_unsent = nullptr;
}

void output_queue::clear() {
  // Common case: one spent byte run that keeps its storage.
  if (segments_.size() == 1 && first_ == 0 && segments_[0].fd < 0 && segments_[0].external_size == 0) {
    segments_[0].bytes.clear();
    return;
  }
  for (size_t i = first_; i < segments_.size(); ++i) {
    if (segments_[i].fd >= 0) ::close(segments_[i].fd);
    segments_[i].fd = -1;
    release_external(segments_[i]);
  }
  if (!segments_.empty()) {
    byte_buffer keep = std::move(segments_[first_ < segments_.size() ? first_ : 0].bytes);
    keep.clear();
    segments_.clear();
    segments_.emplace_back().bytes = std::move(keep);
  }
  first_ = 0;
}

void output_queue::park_storage() {
  clear();
  // After clear(): at most one segment, spent, holding the buffer it keeps.
  if (spares_ != nullptr && spares_->parked_.size() < spares::limit && segments_.size() == 1 &&
      segments_.capacity() <= spares::most_segments && segments_[0].bytes.capacity() <= spares::largest) {
    spares_->parked_.push_back(std::exchange(segments_, std::vector<segment>()));
    first_ = 0;
    return;
  }
  release_memory();
}

size_t output_queue::spares::release() {
  size_t freed = 0;
  for (const std::vector<segment>& storage : parked_) {
    freed += storage.capacity() * sizeof(segment);
    for (const segment& s : storage) freed += s.bytes.capacity();
  }
  std::vector<std::vector<segment>>().swap(parked_);
  return freed;
}

size_t output_queue::storage_bytes() const {
  size_t bytes = segments_.capacity() * sizeof(segment);
  for (const segment& s : segments_) bytes += s.bytes.capacity();
  return bytes;
}

size_t output_queue::release_memory() {
  clear();
  size_t freed = storage_bytes();
  std::vector<segment>().swap(segments_);
  first_ = 0;
  return freed;
}

output_queue::flush_result output_queue::flush(transport& out) {
  size_t capacity = 0;
  if (char* stage = out.record_stage(capacity)) return flush_staged(out, stage, capacity);
  while (first_ < segments_.size()) {
    segment& front = segments_[first_];
    if (front.fd >= 0) {
      while (front.remaining > 0) {
        size_t chunk = front.remaining > (1u << 20) ? (1u << 20) : static_cast<size_t>(front.remaining);
        ssize_t n = out.send_file(front.fd, &front.offset, chunk);
        if (n > 0) {
          front.remaining -= static_cast<uint64_t>(n);
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return flush_result::blocked;
        // n == 0: the file shrank under us; the response cannot be completed.
        return flush_result::failed;
      }
      pop_front();
      continue;
    }
    // Gather consecutive runs (ours or external) into one sendmsg.
    iovec iov[max_gather];
    size_t count = 0;
    for (size_t i = first_; i < segments_.size() && segments_[i].fd < 0 && count < max_gather; ++i) {
      segment& g = segments_[i];
      if (g.external_size > 0) {
        iov[count].iov_base = const_cast<char*>(g.external);
        iov[count].iov_len = g.external_size;
        ++count;
        continue;
      }
      if (g.bytes.empty()) continue;
      iov[count].iov_base = g.bytes.data();
      iov[count].iov_len = g.bytes.size();
      ++count;
    }
    if (count == 0) {
      if (drop_empty_front()) return flush_result::done;
      continue;
    }
    ssize_t n = out.send_gather(iov, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return flush_result::blocked;
      return flush_result::failed;
    }
    consume_front(static_cast<size_t>(n));
    // All of it went (most flushes): the last run is spent and kept, and
    // gathering again would only find it so.
    if (first_ + 1 == segments_.size() && segment_empty(segments_[first_])) return flush_result::done;
  }
  return flush_result::done;
}

// Drops spent segments at the front (empty runs, file ranges sent). True
// when nothing at all is left.
bool output_queue::drop_empty_front() {
  while (first_ < segments_.size()) {
    const segment& s = segments_[first_];
    bool spent = s.fd >= 0 ? s.remaining == 0 : s.bytes.empty() && s.external_size == 0;
    if (!spent) return false;
    bool last = first_ + 1 == segments_.size();
    pop_front();  // closes a file; the last keeps its buffer
    if (last) return true;
  }
  return true;
}

// Each record filled from the runs in order, file ranges read into it too;
// a run as large as a record goes out from where it is. A record the
// transport could not take whole is staged again from the same place, so a
// repeated write passes the same first bytes (OpenSSL's rule), or more.
output_queue::flush_result output_queue::flush_staged(transport& out, char* stage, size_t capacity) {
  while (first_ < segments_.size()) {
    const segment& front = segments_[first_];
    if (front.fd < 0 && (front.external_size >= capacity || front.bytes.size() >= capacity)) {
      iovec one{const_cast<char*>(front.external_size > 0 ? front.external : front.bytes.data()),
                front.external_size > 0 ? front.external_size : front.bytes.size()};
      ssize_t n = out.send_gather(&one, 1);
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK ? flush_result::blocked : flush_result::failed;
      }
      consume_front(static_cast<size_t>(n));
      continue;
    }
    size_t staged = 0;
    bool unreadable = false;
    for (size_t i = first_; i < segments_.size() && staged < capacity; ++i) {
      const segment& s = segments_[i];
      size_t room = capacity - staged;
      if (s.fd >= 0) {
        size_t want = s.remaining < room ? static_cast<size_t>(s.remaining) : room;
        if (want == 0) continue;
        ssize_t n = ::pread(s.fd, stage + staged, want, s.offset);
        if (n < 0 && errno == EINTR) n = ::pread(s.fd, stage + staged, want, s.offset);
        if (n <= 0) {
          unreadable = true;  // shrank under us, or unreadable: the response cannot be completed
          break;
        }
        staged += static_cast<size_t>(n);
        if (static_cast<size_t>(n) < want) break;
        continue;
      }
      const char* data = s.external_size > 0 ? s.external : s.bytes.data();
      size_t size = s.external_size > 0 ? s.external_size : s.bytes.size();
      size_t take = size < room ? size : room;
      if (take > 0) std::memcpy(stage + staged, data, take);
      staged += take;
    }
    if (staged == 0) {
      if (unreadable) return flush_result::failed;
      if (drop_empty_front()) return flush_result::done;
      continue;
    }
    ssize_t n = out.send_staged(staged);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? flush_result::blocked : flush_result::failed;
    }
    consume_front(static_cast<size_t>(n));
  }
  return flush_result::done;
}

// The first `written` bytes queued are sent: runs consumed, file ranges
// advanced, someone else's memory counted off as it goes.
void output_queue::consume_front(size_t written) {
  while (written > 0 && first_ < segments_.size()) {
    segment& s = segments_[first_];
    if (s.fd >= 0) {
      size_t take = written < s.remaining ? written : static_cast<size_t>(s.remaining);
      s.offset += static_cast<off_t>(take);
      s.remaining -= take;
      written -= take;
      if (s.remaining == 0) pop_front();
      continue;
    }
    if (s.external_size > 0) {
      size_t take = written < s.external_size ? written : s.external_size;
      s.external += take;
      s.external_size -= take;
      s.external_unsent->fetch_sub(take, std::memory_order_seq_cst);
      written -= take;
      if (s.external_size == 0) pop_front();
      continue;
    }
    size_t take = written < s.bytes.size() ? written : s.bytes.size();
    if (take == 0 && first_ + 1 == segments_.size()) break;  // cannot be: more written than queued
    s.bytes.consume(take);
    written -= take;
    if (s.bytes.empty()) pop_front();
  }
}

}  // namespace baton::net
