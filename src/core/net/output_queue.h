// What still has to be sent, in order: runs of bytes, runs of memory owned by
// someone else, and file ranges. Bytes go out with one sendmsg per flush (a
// gather of consecutive runs); a file range goes out with sendfile, so file
// bodies never pass through user space.
//
// An empty queue owns no memory (idle keep-alive connections hold many of
// them): segments live in a vector that allocates on first use, and
// release_memory() gives everything back.
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
  byte_buffer& bytes();
  // Queues `length` bytes of `fd` from `offset`. The queue owns fd and closes it.
  void push_file(int fd, off_t offset, uint64_t length);
  // Queues `length` bytes at `data` without copying them. The memory must
  // stay valid until `*unsent` (raised by `length` here, lowered as the bytes
  // are written or dropped) no longer counts them.
  void push_external(const char* data, size_t length, std::atomic<uint64_t>* unsent);
  // Moves everything queued in `other` to the end of this queue, leaving
  // `other` empty. Small byte runs are copied into this queue's last buffer
  // (so buffers stay where they are warm); large ones are moved whole.
  void take_from(output_queue& other);

  bool empty() const;
  // Bytes held in memory (file ranges cost no memory and are not counted).
  uint64_t buffered_bytes() const;

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
  void pop_front();
  static void release_external(segment& s);
  size_t live() const { return segments_.size() - first_; }

  std::vector<segment> segments_;
  size_t first_ = 0;  // segments before this index are spent
};

}  // namespace baton::net
