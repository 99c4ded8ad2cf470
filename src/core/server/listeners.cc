#include "core/server/listeners.h"

#include <unistd.h>

#include <exception>
#include <stdexcept>
#include <string>

#include "core/server/session_registry.h"
#include "core/server/succession.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
// Connections one wake accepts from a listening socket several loops share.
constexpr int shared_accepts_per_wake = 4;

bool is_datagram_socket(int fd) {
  int type = 0;
  socklen_t size = sizeof(type);
  return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0 && type == SOCK_DGRAM;
}
}  // namespace

listener_set::listener_set(const server_config& config, loop::event_loop& loop, session_registry& sessions,
                           succession& next, const std::vector<int>& fds, net::datagram_sink* quic)
    : config_(config), loop_(loop), sessions_(sessions), succession_(next) {
  // UDP sockets among `fds` come from a master that steers datagrams
  // between its loops (net/cid_steering.h): they are taken as they are, and
  // none is bound here. Each keeps its place in the numbering, so a TCP
  // listener's index still names its address.
  std::vector<bool> datagram(fds.size());
  std::vector<int> given;
  for (size_t i = 0; i < fds.size(); ++i) {
    datagram[i] = is_datagram_socket(fds[i]);
    if (datagram[i]) given.push_back(fds[i]);
  }
  if (quic != nullptr && given.empty()) open_datagrams(fds, *quic);
  for (int udp : given) {
    if (quic == nullptr) {
      ::close(udp);  // no HTTP/3 in this server: nothing reads it
      continue;
    }
    datagrams_.push_back(std::make_unique<datagram_listener>(loop_, udp, *quic));
  }
  if (!datagrams_.empty()) quic_ = quic;
  streams_.reserve(fds.size());
  for (size_t i = 0; i < fds.size(); ++i) {
    if (!datagram[i]) streams_.push_back(std::make_unique<stream_listener>(*this, fds[i], static_cast<uint16_t>(i)));
  }
}

// One UDP socket beside each TCP listener (a Unix socket has none). All are
// bound before any TCP descriptor is taken, so a failure leaves those the
// caller's to close.
void listener_set::open_datagrams(const std::vector<int>& fds, net::datagram_sink& quic) {
  std::vector<int> opened;
  for (int fd : fds) {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 || address.ss_family == AF_UNIX) continue;
    std::string error;
    int udp = datagram_listener::open_beside(fd, error);
    if (udp < 0) {
      for (int o : opened) ::close(o);
      throw std::runtime_error("HTTP/3: no UDP socket beside a TCP listener: " + error);
    }
    opened.push_back(udp);
  }
  for (int udp : opened) datagrams_.push_back(std::make_unique<datagram_listener>(loop_, udp, quic));
}

int listener_set::accepts_per_wake() const {
  return config_.shared_listeners ? shared_accepts_per_wake : config_.max_accepts_per_wake;
}

uint32_t listener_set::watch_events() const {
  return loop::event_loop::readable | (config_.shared_listeners ? loop::event_loop::exclusive : 0);
}

void listener_set::watch_all() {
  for (auto& l : streams_) l->watch();
  for (auto& d : datagrams_) d->watch();
}

void listener_set::pause_for_queue(size_t waiting) {
  if (paused_for_queue_) return;
  paused_for_queue_ = true;
  log::write(log::level::warning, "%zu requests are waiting for the application; pausing accepts", waiting);
  for (auto& l : streams_) l->pause();
  for (auto& d : datagrams_) d->pause();
}

void listener_set::resume_for_queue() {
  if (!paused_for_queue_) return;
  paused_for_queue_ = false;
  for (auto& l : streams_) l->watch();
  for (auto& d : datagrams_) d->watch();
}

void listener_set::close_all() {
  for (auto& l : streams_) l->close();
  if (quic_ != nullptr) quic_->drain();
}

void listener_set::close_datagrams() {
  if (quic_ != nullptr) quic_->close_all();
  for (auto& d : datagrams_) d->close();
}

void listener_set::keep_for_reload() {
  for (auto& l : streams_) {
    int fd = l->release();
    if (fd >= 0) kept_.push_back(fd);
  }
  // The UDP sockets are not handed on: the server that follows binds its
  // own beside the kept TCP ones (SO_REUSEPORT lets both be bound a while),
  // and these close once their QUIC connections have finished.
  if (quic_ != nullptr) quic_->drain();
}

void listener_set::accepted(int fd, const sockaddr_storage& peer, uint16_t index) {
  session::session* s = sessions_.open(fd, peer, index, config_.tls);
  try {
    s->start(succession_.opening(*s));
  } catch (const std::exception& e) {
    // One connection the kernel will not watch (ENOMEM, ENOSPC) must not
    // stop the worker: drop it.
    log::write(log::level::error, "could not watch a new connection: %s", e.what());
    s->close_now();
  }
}

}  // namespace baton::server
