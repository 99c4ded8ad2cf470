// One bound UDP socket (QUIC's): each wake reads the datagrams waiting, a
// bounded number of reads, and hands each datagram to its sink (the QUIC
// endpoint). With GRO (UDP_GRO, turned on here) one read brings a run of
// one sender's datagrams, which are handed on one by one. It sits in the
// listener set beside the stream listeners and is paused, resumed and
// closed with them; a paused one leaves datagrams in the kernel's buffer,
// which drops what overflows (QUIC resends). One recvmmsg reads up to
// eight such runs, of as many senders. Each read also brings its
// datagrams' ECN codepoint (IP_RECVTOS, IPV6_RECVTCLASS), which QUIC counts
// and reports back to the sender (RFC 9000 section 13.4).
//
// Loop thread only.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/loop/event_loop.h"
#include "core/net/datagram.h"

namespace baton::server {

class datagram_listener final : private loop::io_handler {
 public:
  // A UDP socket bound to the address and port of the listening TCP socket
  // `stream_fd` (SO_REUSEPORT, so every loop and worker binds its own):
  // its descriptor, or -1 with `error` saying why (a Unix socket has no
  // UDP twin).
  static int open_beside(int stream_fd, std::string& error);

  // Takes `fd` (bound, non-blocking); closes it when closed.
  datagram_listener(loop::event_loop& loop, int fd, net::datagram_sink& sink);
  ~datagram_listener();
  datagram_listener(const datagram_listener&) = delete;
  datagram_listener& operator=(const datagram_listener&) = delete;

  bool open() const { return fd_ >= 0; }
  // The receive buffer each UDP socket asks for (datagram_listener.cc).
  static constexpr int receive_buffer_bytes = 4 << 20;
  void watch();
  void pause();
  void close();

 private:
  void on_io(uint32_t events) override;  // readable: datagrams wait

  loop::event_loop& loop_;
  int fd_;
  net::datagram_sink& sink_;
  bool watched_ = false;
  sockaddr_storage local_{};
  socklen_t local_length_ = 0;
  // One call's reads: each a buffer of UDP's most (and GRO's), its
  // sender's address and its control data (the GRO segment size, the
  // traffic class).
  static constexpr int reads_per_call = 8;
  struct read_batch {
    read_batch();
    void rearm(int i);
    std::unique_ptr<uint8_t[]> buffers;  // touched only as far as datagrams fill them
    sockaddr_storage peers[reads_per_call];
    iovec iov[reads_per_call];
    alignas(cmsghdr) char control[reads_per_call][2 * CMSG_SPACE(sizeof(int))];
    mmsghdr reads[reads_per_call];
  };
  // A batch for each depth of on_io: an inline app that waits for its body
  // runs the loop from inside a datagram's handling, and that pass reads
  // this socket again while the outer batch's datagrams are still to go.
  std::vector<std::unique_ptr<read_batch>> batches_;
  size_t depth_ = 0;
};

}  // namespace baton::server
