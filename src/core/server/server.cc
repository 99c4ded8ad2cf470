#include "core/server/server.h"

#include <fcntl.h>
#include <signal.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>

#include "core/util/log.h"

namespace baton::server {
namespace {
constexpr int accept_pause_ms = 100;

server_config with_graceful_budget(server_config config) {
  config.connection.graceful_timeout_ms = config.graceful_timeout_ms;
  return config;
}
}  // namespace

server::server(const server_config& config, http1::request_handler& handler, std::vector<int> listeners)
    : config_(with_graceful_budget(config)),
      context_{loop_, config_.connection, handler, {}, false, &loop_signals::pending, &server::on_connection_closed, this} {
  listeners_.resize(listeners.size());
  for (size_t i = 0; i < listeners.size(); ++i) {
    int fd = listeners[i];
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    listeners_[i].owner = this;
    listeners_[i].fd = fd;
  }
  drain_deadline_.owner = this;
  loop_.set_wake_handler(this);
}

server::~server() {
  close_all();
  reap();
  for (listener_watch& l : listeners_) {
    if (l.fd >= 0) ::close(l.fd);
  }
}

void server::run() {
  // A peer that goes away mid-sendfile must fail the write, not kill us.
  struct sigaction ignore{}, previous_pipe{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous_pipe);
  loop_signals signals(loop_.wake_fd());
  signals_ = &signals;
  for (listener_watch& l : listeners_) loop_.add(l.fd, loop::event_loop::readable, &l);
  while (!loop_.stopped()) {
    loop_.run_once(-1);
    reap();
    if (shutting_down_ && live_count_ == 0) loop_.stop();
  }
  close_all();
  reap();
  signals_ = nullptr;
  sigaction(SIGPIPE, &previous_pipe, nullptr);
}

void server::request_shutdown() {
  shutdown_requested_.store(true);
  loop_.wake();
}

void server::on_io(uint32_t) {
  if (shutdown_requested_.exchange(false)) begin_shutdown();
  if (signals_ == nullptr) return;
  loop_signals::counts c = signals_->take();
  signal_count_ += c.terminate + c.interrupt;
  if (c.interrupt > 0 && (shutting_down_ || c.interrupt > 1)) {
    log::write(log::level::info, "second interrupt: stopping now");
    begin_shutdown();
    close_all();
    loop_.stop();
    return;
  }
  if (c.terminate + c.interrupt > 0) begin_shutdown();
}

void server::listener_watch::on_io(uint32_t) { owner->accept_from(*this); }

void server::listener_watch::on_timer() {
  if (fd < 0 || !paused) return;
  paused = false;
  owner->loop_.add(fd, loop::event_loop::readable, this);
}

void server::accept_from(listener_watch& l) {
  for (int i = 0; i < config_.max_accepts_per_wake; ++i) {
    sockaddr_storage peer{};
    socklen_t peer_length = sizeof peer;
    int fd = ::accept4(l.fd, reinterpret_cast<sockaddr*>(&peer), &peer_length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED) return;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: stop accepting for a moment instead of
        // spinning on a listener that stays readable.
        log::write(log::level::warning, "accept failed (%s); pausing accepts for %d ms", strerrordesc_np(errno),
                   accept_pause_ms);
        loop_.remove(l.fd);
        l.paused = true;
        loop_.add_timer(loop_.now_ms() + accept_pause_ms, &l);
        return;
      }
      log::write(log::level::error, "accept failed: %s", strerrordesc_np(errno));
      return;
    }
    if (peer.ss_family == AF_INET || peer.ss_family == AF_INET6) {
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    auto* c = new http1::connection(context_, fd, peer, peer_length);
    c->next = live_;
    if (live_ != nullptr) live_->prev = c;
    live_ = c;
    ++live_count_;
    try {
      c->start();
    } catch (const std::exception& e) {
      // One connection the kernel will not watch (ENOMEM, ENOSPC) must not
      // stop the worker: drop it.
      log::write(log::level::error, "could not watch a new connection: %s", e.what());
      c->close_now();
    }
  }
}

void server::begin_shutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  context_.draining = true;
  log::write(log::level::info, "shutting down: finishing %zu open connection(s), at most %d ms", live_count_,
             config_.graceful_timeout_ms);
  for (listener_watch& l : listeners_) {
    if (l.fd < 0) continue;
    if (!l.paused) loop_.remove(l.fd);
    ::close(l.fd);
    l.fd = -1;
  }
  for (http1::connection* c = live_; c != nullptr;) {
    http1::connection* next = c->next;
    c->drain();
    c = next;
  }
  loop_.add_timer(loop_.now_ms() + config_.graceful_timeout_ms, &drain_deadline_);
}

void server::drain_deadline::on_timer() {
  if (owner->live_count_ > 0) {
    log::write(log::level::warning, "graceful timeout: closing %zu connection(s) still open", owner->live_count_);
  }
  owner->close_all();
  owner->loop_.stop();
}

void server::close_all() {
  for (http1::connection* c = live_; c != nullptr;) {
    http1::connection* next = c->next;
    c->close_now();
    c = next;
  }
}

void server::on_connection_closed(void* owner, http1::connection* c) {
  auto* self = static_cast<server*>(owner);
  if (c->prev != nullptr) c->prev->next = c->next;
  else self->live_ = c->next;
  if (c->next != nullptr) c->next->prev = c->prev;
  c->prev = c->next = nullptr;
  --self->live_count_;
  self->closed_.push_back(c);
}

// Connections are deleted between passes, never inside their own callbacks.
void server::reap() {
  for (http1::connection* c : closed_) delete c;
  closed_.clear();
}

}  // namespace baton::server
