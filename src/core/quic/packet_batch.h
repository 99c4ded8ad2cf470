// The packets one flush of a connection writes, sent together: consecutive
// packets to one address, of one size (the last may be shorter), go out in
// one sendmsg with UDP_SEGMENT (generic segmentation offload), the kernel
// cutting them into datagrams, instead of one sendto each. A 64 KiB file
// over HTTP/3 is some 45 packets; sent one by one, the syscalls and the
// kernel's path for each took two thirds of the loop thread (perf, on
// loopback).
//
// A run's packets also share their ECN codepoint, which ngtcp2 chooses
// for each (ECT(0) while it checks the path keeps the marks, and after):
// a control message sets it on the send.
//
// A kernel or device that refuses it (EIO: no checksum offload on the way
// out) turns it off for the process, and the batch goes out a packet at a
// time, as without it.
//
// Loop thread only: the packets are written into the loop's one buffer.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>

#include <ngtcp2/ngtcp2.h>

#include "core/metrics/layout.h"

namespace baton::quic {

class packet_batch {
 public:
  // Sends on `fd`; `sent` (null: not counted) counts the datagrams that went out.
  packet_batch(int fd, metrics::counter* sent);
  ~packet_batch() { send(); }
  packet_batch(const packet_batch&) = delete;
  packet_batch& operator=(const packet_batch&) = delete;

  // Where the next packet is written, with room for `room` bytes (sends
  // what is held first when they would not fit).
  uint8_t* next(size_t room);
  // The packet just written at next(): `length` bytes, to `path`, marked
  // with the ECN codepoint `ecn`.
  void add(size_t length, const ngtcp2_path& path, uint8_t ecn);
  // Sends what is held.
  void send();
  // One packet on its own (not through the loop's buffer), counted in `sent`.
  static void send_one(int fd, const uint8_t* data, size_t length, const ngtcp2_addr& to, metrics::counter* sent,
                       uint8_t ecn = 0);

  // The most a segmented send carries (the kernel's limit is UDP's 64 KiB
  // less the headers), and its most segments.
  static constexpr size_t most_bytes = 65000;
  static constexpr size_t most_segments = 64;

 private:
  void send_each();

  int fd_;
  metrics::counter* sent_;
  uint8_t* buffer_;
  size_t used_ = 0;       // bytes held
  size_t segment_ = 0;    // the size of each held packet but the last
  size_t segments_ = 0;
  bool closed_ = false;   // the last held packet was shorter: nothing may follow it
  uint8_t ecn_ = 0;       // the held packets' ECN codepoint
  sockaddr_storage to_{};
  socklen_t to_length_ = 0;
};

}  // namespace baton::quic
