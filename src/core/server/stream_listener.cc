#include "core/server/stream_listener.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/server/listeners.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
constexpr int accept_pause_ms = 100;
}  // namespace

stream_listener::stream_listener(listener_set& set, int fd, uint16_t index) : set_(set), fd_(fd), index_(index) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  int one = 1;
  // Fails on a Unix socket, whose connections have no Nagle to turn off.
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) nodelay_ = nodelay::unchecked;
}

stream_listener::~stream_listener() {
  if (fd_ >= 0) ::close(fd_);
}

void stream_listener::watch() {
  if (fd_ < 0 || !paused_) return;
  set_.loop().disarm(retry_);
  paused_ = false;
  set_.loop().add(fd_, set_.watch_events(), this);
}

void stream_listener::pause() {
  if (fd_ < 0 || paused_) return;
  set_.loop().remove(fd_);
  paused_ = true;
}

void stream_listener::stop_watching() {
  if (fd_ < 0) return;
  if (!paused_) set_.loop().remove(fd_);
  set_.loop().disarm(retry_);
  paused_ = true;
}

void stream_listener::close() {
  stop_watching();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

int stream_listener::release() {
  stop_watching();
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void stream_listener::on_timer() {
  if (fd_ < 0 || !paused_ || set_.paused_for_queue()) return;
  watch();
}

void stream_listener::on_io(uint32_t) {
  int most = set_.accepts_per_wake();
  for (int i = 0; i < most && !paused_; ++i) {
    sockaddr_storage peer{};
    socklen_t peer_length = sizeof peer;
    int fd = ::accept4(fd_, reinterpret_cast<sockaddr*>(&peer), &peer_length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED) return;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: stop accepting for a moment instead of
        // spinning on a listener that stays readable.
        log::write(log::level::warning, "accept failed (%s); pausing accepts for %d ms", strerrordesc_np(errno),
                   accept_pause_ms);
        pause();
        set_.loop().arm(retry_, set_.loop().now_ms() + accept_pause_ms);
        return;
      }
      log::write(log::level::error, "accept failed: %s", strerrordesc_np(errno));
      return;
    }
    if ((peer.ss_family == AF_INET || peer.ss_family == AF_INET6) && nodelay_ != nodelay::inherited) {
      int value = 0;
      socklen_t length = sizeof value;
      if (nodelay_ == nodelay::unchecked) {
        bool inherited = getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &length) == 0 && value != 0;
        nodelay_ = inherited ? nodelay::inherited : nodelay::set_each;
      }
      if (nodelay_ == nodelay::set_each) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      }
    }
    set_.accepted(fd, peer, index_);
  }
}

}  // namespace baton::server
