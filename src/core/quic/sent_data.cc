#include "core/quic/sent_data.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace baton::quic {
namespace {

// A transport that "sends" into memory, up to a size: the output queue
// writes through it as through a socket, so file ranges are read as they
// would be written, and no second way of walking the queue is needed.
class into_memory final : public net::transport {
 public:
  into_memory(std::string& out, size_t room) : out_(out), room_(room) {}
  bool unreadable() const { return unreadable_; }

  ssize_t receive(char*, size_t) override { return 0; }
  ssize_t send_gather(const iovec* buffers, size_t count) override {
    size_t taken = 0;
    for (size_t i = 0; i < count && room_ > 0; ++i) {
      size_t n = buffers[i].iov_len < room_ ? buffers[i].iov_len : room_;
      out_.append(static_cast<const char*>(buffers[i].iov_base), n);
      room_ -= n;
      taken += n;
    }
    return full(taken);
  }
  ssize_t send_file(int file_fd, off_t* offset, size_t length) override {
    size_t want = length < room_ ? length : room_;
    if (want == 0) return full(0);
    size_t at = out_.size();
    out_.resize(at + want);
    ssize_t n = ::pread(file_fd, out_.data() + at, want, *offset);
    if (n <= 0) {
      out_.resize(at);
      unreadable_ = true;
      if (n == 0) errno = EIO;
      return -1;
    }
    out_.resize(at + static_cast<size_t>(n));
    *offset += n;
    room_ -= static_cast<size_t>(n);
    return n;
  }
  void shutdown_write() override {}
  void close() override {}
  int fd() const override { return -1; }

 private:
  // Nothing taken because the room is used up: "would block", as a full socket says.
  static ssize_t full(size_t taken) {
    if (taken > 0) return static_cast<ssize_t>(taken);
    errno = EAGAIN;
    return -1;
  }

  std::string& out_;
  size_t room_;
  bool unreadable_ = false;
};

}  // namespace

bool sent_data::take(net::output_queue& from, size_t most, const uint8_t*& base, size_t& length, bool& unreadable) {
  std::string chunk;
  uint64_t queued = from.queued_bytes();
  size_t want = queued < most ? static_cast<size_t>(queued) : most;
  if (want == 0) return false;
  chunk.reserve(want);
  into_memory sink(chunk, want);
  from.flush(sink);
  unreadable = sink.unreadable();
  if (chunk.empty()) return false;
  held_ += chunk.size();
  chunks_.push_back(std::move(chunk));
  base = reinterpret_cast<const uint8_t*>(chunks_.back().data());
  length = chunks_.back().size();
  return true;
}

void sent_data::acknowledged(uint64_t length) {
  acked_in_front_ += length;
  while (!chunks_.empty() && acked_in_front_ >= chunks_.front().size()) {
    acked_in_front_ -= chunks_.front().size();
    held_ -= chunks_.front().size();
    chunks_.pop_front();
  }
}

void sent_data::clear() {
  chunks_.clear();
  held_ = 0;
  acked_in_front_ = 0;
}

}  // namespace baton::quic
