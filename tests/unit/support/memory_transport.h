// The client end of a connection, in memory, for the tests that run a
// session with no socket: input is handed out as the session asks for it;
// output is collected, up to a budget after which writes would block.
#pragma once

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/net/transport.h"

namespace baton::test {

// The client end, in memory. Input is handed out as the connection asks for
// it; output is collected, up to a budget after which writes would block.
struct memory_transport final : net::transport {
  std::string input;
  size_t read_pos = 0;
  bool eof = false;
  bool reset = false;
  std::string output;
  size_t write_budget = SIZE_MAX;
  bool shut_write = false;
  bool closed = false;
  // Where each successful read put its bytes.
  std::vector<std::pair<const char*, size_t>> reads;

  ssize_t receive(char* buffer, size_t length) override {
    if (reset) {
      errno = ECONNRESET;
      return -1;
    }
    if (read_pos < input.size()) {
      size_t n = std::min(length, input.size() - read_pos);
      std::memcpy(buffer, input.data() + read_pos, n);
      read_pos += n;
      reads.emplace_back(buffer, n);
      return static_cast<ssize_t>(n);
    }
    if (eof) return 0;
    errno = EAGAIN;
    return -1;
  }
  ssize_t send_gather(const iovec* buffers, size_t count) override {
    if (reset) {
      errno = EPIPE;
      return -1;
    }
    size_t written = 0;
    for (size_t i = 0; i < count && write_budget > 0; ++i) {
      size_t n = std::min(buffers[i].iov_len, write_budget);
      output.append(static_cast<const char*>(buffers[i].iov_base), n);
      write_budget -= n;
      written += n;
    }
    if (written == 0) {
      errno = EAGAIN;
      return -1;
    }
    return static_cast<ssize_t>(written);
  }
  ssize_t send_file(int, off_t*, size_t) override {
    errno = EINVAL;
    return -1;
  }
  void shutdown_write() override { shut_write = true; }
  void close() override { closed = true; }
  int fd() const override { return -1; }

  // Everything written so far, and forget it.
  std::string take_output() { return std::exchange(output, std::string()); }
};

}  // namespace baton::test
