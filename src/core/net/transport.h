// The socket operations a connection performs, behind a small interface so
// a connection can run with no socket at all (the unit tests drive one
// through an in-memory transport). The production transport is a thin
// wrapper of a non-blocking socket; each call is one syscall. TLS is the
// other (tls.h).
#pragma once

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <cerrno>

namespace baton::net {

class transport {
 public:
  // As recv(2): bytes read, 0 at end of input, -1 with errno (EAGAIN: none yet).
  virtual ssize_t receive(char* buffer, size_t length) = 0;
  // As sendmsg(2) with MSG_NOSIGNAL over `count` buffers.
  virtual ssize_t send_gather(const iovec* buffers, size_t count) = 0;
  // As sendfile(2): `length` bytes of `file_fd` from *offset, advancing it.
  virtual ssize_t send_file(int file_fd, off_t* offset, size_t length) = 0;
  virtual void shutdown_write() = 0;
  virtual void close() = 0;
  // The descriptor the event loop watches, or -1 when there is none.
  virtual int fd() const = 0;
  // Input already read from the socket and waiting inside the transport
  // (TLS records decrypted past what the last receive() took): the socket
  // will not say readable for it.
  virtual bool input_pending() const { return false; }
  // receive() can make no progress until the socket takes output (TLS: a
  // record it must send first).
  virtual bool wants_writable() const { return false; }
  // A transport that frames what it sends in records of its own (TLS, when
  // the kernel does not): the buffer one record is staged in, and its size
  // in `capacity`. The queue fills it from consecutive runs, file ranges
  // included, so that an HTTP/2 frame's header and its payload share a
  // record rather than make two. Null for a transport without records.
  virtual char* record_stage(size_t& capacity) {
    capacity = 0;
    return nullptr;
  }
  // Writes the first `length` bytes of the stage, as send_gather(2) does.
  virtual ssize_t send_staged(size_t length) {
    (void)length;
    errno = EINVAL;
    return -1;
  }

 protected:
  ~transport() = default;
};

class socket_transport final : public transport {
 public:
  explicit socket_transport(int fd) : fd_(fd) {}
  ssize_t receive(char* buffer, size_t length) override;
  ssize_t send_gather(const iovec* buffers, size_t count) override;
  ssize_t send_file(int file_fd, off_t* offset, size_t length) override;
  void shutdown_write() override;
  void close() override;
  int fd() const override { return fd_; }

 private:
  int fd_;
};

}  // namespace baton::net
