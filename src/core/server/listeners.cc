#include "core/server/listeners.h"

#include <exception>

#include "core/server/session_registry.h"
#include "core/server/succession.h"
#include "core/util/log.h"

namespace baton::server {
namespace {
// Connections one wake accepts from a listening socket several loops share.
constexpr int shared_accepts_per_wake = 4;
}  // namespace

listener_set::listener_set(const server_config& config, loop::event_loop& loop, session_registry& sessions,
                           succession& next, const std::vector<int>& fds)
    : config_(config), loop_(loop), sessions_(sessions), succession_(next) {
  streams_.reserve(fds.size());
  for (size_t i = 0; i < fds.size(); ++i) {
    streams_.push_back(std::make_unique<stream_listener>(*this, fds[i], static_cast<uint16_t>(i)));
  }
}

int listener_set::accepts_per_wake() const {
  return config_.shared_listeners ? shared_accepts_per_wake : config_.max_accepts_per_wake;
}

uint32_t listener_set::watch_events() const {
  return loop::event_loop::readable | (config_.shared_listeners ? loop::event_loop::exclusive : 0);
}

void listener_set::watch_all() {
  for (auto& l : streams_) l->watch();
}

void listener_set::pause_for_queue(size_t waiting) {
  if (paused_for_queue_) return;
  paused_for_queue_ = true;
  log::write(log::level::warning, "%zu requests are waiting for the application; pausing accepts", waiting);
  for (auto& l : streams_) l->pause();
}

void listener_set::resume_for_queue() {
  if (!paused_for_queue_) return;
  paused_for_queue_ = false;
  for (auto& l : streams_) l->watch();
}

void listener_set::close_all() {
  for (auto& l : streams_) l->close();
}

void listener_set::keep_for_reload() {
  for (auto& l : streams_) {
    int fd = l->release();
    if (fd >= 0) kept_.push_back(fd);
  }
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
