// A response body's bytes once nghttp3 has them: nghttp3 and ngtcp2 point
// at them, without a copy, until QUIC says the client has them (an ack),
// because a lost packet is sent again from the same memory. So a request
// stream's output moves here in chunks, each read out of the exchange's
// output queue (file ranges read with pread), and leaves from the front as
// acknowledgements come.
//
// One a request stream; loop thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "core/net/output_queue.h"

namespace baton::quic {

class sent_data {
 public:
  // At most `most` bytes from the front of `from` into a new chunk, its
  // bytes pointed at by `base` and `length` (stable until acknowledged).
  // False when nothing could be read (`from` empty, or a file unreadable:
  // then `unreadable` is set).
  bool take(net::output_queue& from, size_t most, const uint8_t*& base, size_t& length, bool& unreadable);
  // The client has the next `length` bytes: they are freed.
  void acknowledged(uint64_t length);
  // Bytes handed over and not yet acknowledged.
  uint64_t unacknowledged() const { return held_ - acked_in_front_; }
  void clear();

 private:
  std::deque<std::string> chunks_;
  uint64_t held_ = 0;            // bytes in chunks_
  uint64_t acked_in_front_ = 0;  // of the first chunk, acknowledged already
};

}  // namespace baton::quic
