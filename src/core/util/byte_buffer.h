// A growable byte buffer with a consumed prefix, used for connection input
// and output. Bytes live in [data() , data() + size()); consume() advances
// the start, and compact() moves the live bytes to the front when the
// buffer needs room at its end.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

namespace baton {

class byte_buffer {
 public:
  byte_buffer() = default;
  byte_buffer(const byte_buffer&) = delete;
  byte_buffer& operator=(const byte_buffer&) = delete;
  byte_buffer(byte_buffer&& other) noexcept { swap(other); }
  byte_buffer& operator=(byte_buffer&& other) noexcept {
    swap(other);
    return *this;
  }
  ~byte_buffer() { std::free(storage_); }

  char* data() { return storage_ + begin_; }
  const char* data() const { return storage_ + begin_; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  size_t capacity() const { return capacity_; }
  std::string_view view() const { return {data(), size()}; }

  // Space after the live bytes, growing or compacting so at least `n` are free.
  char* prepare(size_t n) {
    if (capacity_ - end_ < n) make_room(n);
    return storage_ + end_;
  }
  size_t writable() const { return capacity_ - end_; }
  void commit(size_t n) { end_ += n; }

  void append(const char* p, size_t n) {
    if (n == 0) return;  // an empty view may carry a null pointer
    std::memcpy(prepare(n), p, n);
    end_ += n;
  }
  void append(std::string_view s) { append(s.data(), s.size()); }

  void consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }
  void clear() { begin_ = end_ = 0; }
  // Forgets the last n live bytes.
  void drop_back(size_t n) {
    end_ -= n < size() ? n : size();
    if (begin_ == end_) begin_ = end_ = 0;
  }

  // Front room: an empty buffer whose bytes will start `n` bytes into its
  // storage, leaving room for a header to be put in front of them later
  // without moving them. `expected` is the room to make after it. The room
  // lasts while the bytes are only appended to and the storage does not
  // grow (front_room() says what is left of it).
  void reset_with_front_room(size_t n, size_t expected) {
    begin_ = end_ = 0;
    prepare(n + expected);
    begin_ = end_ = n;
  }
  size_t front_room() const { return begin_; }
  // Takes `n` bytes of front room into the live bytes (the header the
  // caller then writes at data()).
  void claim_front(size_t n) { begin_ -= n; }

  // A copy of the live bytes in storage of their own size (none when
  // there are none): for bytes that will be read for a long time and not
  // added to.
  byte_buffer exact_copy() const {
    byte_buffer copy;
    size_t live = size();
    if (live == 0) return copy;
    copy.storage_ = static_cast<char*>(std::malloc(live));
    if (copy.storage_ == nullptr) throw std::bad_alloc();
    std::memcpy(copy.storage_, data(), live);
    copy.capacity_ = copy.end_ = live;
    return copy;
  }

  // Gives memory back when a burst made the buffer large.
  void shrink_if_idle(size_t keep) {
    if (empty() && capacity_ > keep) {
      std::free(storage_);
      storage_ = nullptr;
      capacity_ = 0;
    }
  }

 private:
  void make_room(size_t n) {
    size_t live = size();
    if (begin_ > 0 && capacity_ - live >= n && begin_ >= live) {
      std::memmove(storage_, storage_ + begin_, live);
      begin_ = 0;
      end_ = live;
      return;
    }
    // A first allocation fits what is asked (at least 512 bytes): a small
    // response then lives in a chunk the allocator recycles per thread, and
    // a buffer asked for a large read gets exactly that.
    size_t want = capacity_ == 0 ? (n < 512 ? 512 : (n + 63) & ~size_t{63}) : capacity_ * 2;
    while (want - live < n) want *= 2;
    char* fresh = static_cast<char*>(std::malloc(want));
    if (fresh == nullptr) throw std::bad_alloc();
    if (live != 0) std::memcpy(fresh, storage_ + begin_, live);
    std::free(storage_);
    storage_ = fresh;
    capacity_ = want;
    begin_ = 0;
    end_ = live;
  }

  void swap(byte_buffer& o) noexcept {
    std::swap(storage_, o.storage_);
    std::swap(capacity_, o.capacity_);
    std::swap(begin_, o.begin_);
    std::swap(end_, o.end_);
  }

  char* storage_ = nullptr;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

}  // namespace baton
