// What still has to be sent, in order: runs of bytes, runs of memory owned by
// someone else, and file ranges. Bytes go out with one sendmsg per flush (a
// gather of consecutive runs); a file range goes out with sendfile, so file
// bodies never pass through user space.
//
// An empty queue owns no memory (idle keep-alive connections hold many of
// them): segments live in a vector that allocates on first use (or takes
// parked storage from the loop's spares), and release_memory() or
// park_storage() gives everything back.
//
// sendfile has no MSG_NOSIGNAL: writing a file range to a peer that has gone
// raises SIGPIPE, so the process must ignore SIGPIPE (server::run does, for
// as long as it runs; CPython ignores it too).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/net/transport.h"
#include "core/util/byte_buffer.h"

namespace baton::net {

class output_queue {
 public:
  output_queue() = default;
  output_queue(const output_queue&) = delete;
  output_queue& operator=(const output_queue&) = delete;
  ~output_queue() { clear(); }

  // The buffer to append bytes to; it is sent after everything queued before.
  // Inline when the last segment is a byte run (a response's head and
  // body go in one run, several calls a request).
  byte_buffer& bytes() {
    if (live() > 0) {
      segment& last = segments_.back();
      if (last.fd < 0 && last.external == nullptr) return last.bytes;
    }
    return back().bytes;
  }
  // Queues `length` bytes of `fd` from `offset`. The queue owns fd and closes it.
  void push_file(int fd, off_t offset, uint64_t length);
  // Queues `length` bytes at `data` without copying them. The memory must
  // stay valid until `*unsent` (raised by `length` here, lowered as the bytes
  // are written or dropped) no longer counts them.
  void push_external(const char* data, size_t length, std::atomic<uint64_t>* unsent);
  // Moves everything queued in `other` to the end of this queue, leaving
  // `other` empty. Small byte runs are copied into this queue's last buffer
  // (so buffers stay where they are warm) unless `copy_small` is off; large
  // ones are moved whole.
  void take_from(output_queue& other, bool copy_small = true);

  // Moves the first `n` bytes queued (fewer when fewer are) to the end of
  // `dest`, in order, and returns how many: a whole large byte run or a
  // whole file range as it is; a small run, a part of one, a part of a file
  // range, or someone else's memory (its unsent count lowered as it is
  // copied), copied. HTTP/2 moves each DATA frame's payload this way,
  // from a stream's output into the session's. Fewer than asked, with
  // more queued, when a file could not be read.
  uint64_t move_front(output_queue& dest, uint64_t n);
  bool empty() const {
    if (live() == 1) return segment_empty(segments_[first_]);  // the common case, inline
    return all_empty();
  }
  // Every byte still queued, file ranges included.
  uint64_t queued_bytes() const;
  // Bytes held in memory (file ranges cost no memory and are not counted).
  uint64_t buffered_bytes() const {
    if (live() == 1) return segments_[first_].bytes.size() + segments_[first_].external_size;  // as empty()
    return sum_buffered();
  }
  // Bytes of storage the queue holds, used or not.
  size_t storage_bytes() const;

  enum class flush_result { done, blocked, failed };
  // Writes until everything is sent, the transport would block, or it fails.
  flush_result flush(transport& out);
  flush_result flush(int socket_fd) {
    socket_transport out(socket_fd);
    return flush(out);
  }
  // Drops everything queued, closing queued file descriptors.
  void clear();
  // clear(), and frees the storage too; returns the bytes of storage freed.
  size_t release_memory();

  // Storage (a segment list and its small buffer) parked between uses by
  // queues that empty and fill again, such as a connection's output between
  // responses: the next response on any connection of the loop takes it,
  // with no malloc and no free. One per loop thread, bounded.
  class spares;
  // Queue this one's storage takes from when it has none.
  void set_spares(spares* s) { spares_ = s; }
  // clear(), then parks the storage in the spares given to set_spares(), or
  // frees it when there are none, they are full, or the buffer grew large.
  void park_storage();

 private:
  struct segment {
    byte_buffer bytes;
    const char* external = nullptr;  // memory of someone else's, not copied
    size_t external_size = 0;
    std::atomic<uint64_t>* external_unsent = nullptr;
    int fd = -1;
    off_t offset = 0;
    uint64_t remaining = 0;
  };
  segment& back();
  segment& append_segment();
  static bool segment_empty(const segment& s) { return s.fd < 0 && s.bytes.empty() && s.external_size == 0; }
  bool all_empty() const;
  uint64_t sum_buffered() const;
  void pop_front();
  bool drop_empty_front();
  flush_result flush_staged(transport& out, char* stage, size_t capacity);
  void consume_front(size_t written);
  static void release_external(segment& s);
  size_t live() const { return segments_.size() - first_; }

  std::vector<segment> segments_;
  size_t first_ = 0;  // segments before this index are spent
  spares* spares_ = nullptr;

 public:
  class spares {
   public:
    // Parked storage kept at most. Storage from a large response is freed
    // instead: a buffer over `largest` bytes, or a segment list with room
    // for more than `most_segments`.
    static constexpr size_t limit = 64;
    static constexpr size_t largest = 16384;
    static constexpr size_t most_segments = 4;
    size_t parked() const { return parked_.size(); }
    // Frees everything parked (the loop's idle trim); returns the bytes freed.
    size_t release();

   private:
    friend class output_queue;
    std::vector<std::vector<segment>> parked_;
  };
};

}  // namespace baton::net
