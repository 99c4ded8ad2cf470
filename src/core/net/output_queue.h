// What a connection still has to send, in order: runs of bytes and file
// ranges. Bytes go out with one sendmsg per flush (a gather of consecutive
// runs); a file range goes out with sendfile, so file bodies never pass
// through user space.
//
// sendfile has no MSG_NOSIGNAL: writing a file range to a peer that has gone
// raises SIGPIPE, so the process must ignore SIGPIPE (server::run does, for
// as long as it runs; CPython ignores it too).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>

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

  bool empty() const { return segments_.empty() || (segments_.size() == 1 && segments_.front().fd < 0 && segments_.front().bytes.empty()); }
  // Bytes held in memory (file ranges cost no memory and are not counted).
  uint64_t buffered_bytes() const;

  enum class flush_result { done, blocked, failed };
  // Writes until everything is sent, the socket would block, or it fails.
  flush_result flush(int socket_fd);
  void clear();

 private:
  struct segment {
    byte_buffer bytes;
    int fd = -1;
    off_t offset = 0;
    uint64_t remaining = 0;
  };
  std::deque<segment> segments_;
};

}  // namespace baton::net
