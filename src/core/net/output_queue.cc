#include "core/net/output_queue.h"

#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

namespace baton::net {

byte_buffer& output_queue::bytes() {
  if (segments_.empty() || segments_.back().fd >= 0) segments_.emplace_back();
  return segments_.back().bytes;
}

void output_queue::push_file(int fd, off_t offset, uint64_t length) {
  segment& s = segments_.emplace_back();
  s.fd = fd;
  s.offset = offset;
  s.remaining = length;
}

uint64_t output_queue::buffered_bytes() const {
  uint64_t total = 0;
  for (const segment& s : segments_) total += s.bytes.size();
  return total;
}

void output_queue::clear() {
  for (segment& s : segments_) {
    if (s.fd >= 0) ::close(s.fd);
  }
  segments_.clear();
}

output_queue::flush_result output_queue::flush(int socket_fd) {
  while (!segments_.empty()) {
    segment& front = segments_.front();
    if (front.fd >= 0) {
      while (front.remaining > 0) {
        size_t chunk = front.remaining > (1u << 20) ? (1u << 20) : static_cast<size_t>(front.remaining);
        ssize_t n = ::sendfile(socket_fd, front.fd, &front.offset, chunk);
        if (n > 0) {
          front.remaining -= static_cast<uint64_t>(n);
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return flush_result::blocked;
        // n == 0: the file shrank under us; the response cannot be completed.
        return flush_result::failed;
      }
      ::close(front.fd);
      segments_.pop_front();
      continue;
    }
    // Gather consecutive byte runs into one sendmsg.
    iovec iov[64];
    int count = 0;
    for (auto it = segments_.begin(); it != segments_.end() && it->fd < 0 && count < 64; ++it) {
      if (it->bytes.empty()) continue;
      iov[count].iov_base = it->bytes.data();
      iov[count].iov_len = it->bytes.size();
      ++count;
    }
    if (count == 0) {
      // Only empty byte runs before a file (or nothing): drop them.
      while (!segments_.empty() && segments_.front().fd < 0 && segments_.front().bytes.empty()) {
        if (segments_.size() == 1) {
          segments_.front().bytes.clear();
          return flush_result::done;
        }
        segments_.pop_front();
      }
      continue;
    }
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(count);
    ssize_t n = ::sendmsg(socket_fd, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return flush_result::blocked;
      return flush_result::failed;
    }
    size_t written = static_cast<size_t>(n);
    while (written > 0) {
      segment& s = segments_.front();
      size_t take = written < s.bytes.size() ? written : s.bytes.size();
      s.bytes.consume(take);
      written -= take;
      if (s.bytes.empty() && segments_.size() > 1) segments_.pop_front();
    }
    if (segments_.size() == 1 && segments_.front().fd < 0 && segments_.front().bytes.empty()) {
      return flush_result::done;
    }
  }
  return flush_result::done;
}

}  // namespace baton::net
