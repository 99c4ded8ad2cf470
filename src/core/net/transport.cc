#include "core/net/transport.h"

#include <sys/sendfile.h>
#include <unistd.h>

#include "core/util/direct_syscalls.h"

namespace baton::net {

ssize_t socket_transport::receive(char* buffer, size_t length) { return util::direct_recv(fd_, buffer, length); }

ssize_t socket_transport::send_gather(const iovec* buffers, size_t count) {
  msghdr msg{};
  msg.msg_iov = const_cast<iovec*>(buffers);
  msg.msg_iovlen = count;
  return util::direct_sendmsg(fd_, &msg, MSG_NOSIGNAL);
}

ssize_t socket_transport::send_file(int file_fd, off_t* offset, size_t length) {
  return ::sendfile(fd_, file_fd, offset, length);
}

void socket_transport::shutdown_write() { ::shutdown(fd_, SHUT_WR); }

void socket_transport::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace baton::net
