// The registry of open sessions: every accepted connection is linked here
// from its accept to its close, and freed between passes, never inside its
// own callbacks (as libuv frees a handle only after its close callback).
// The other parts ask it about all of them at once: a drain asks each to
// finish, the app timeout asks each whether its request overran, the idle
// trim asks each to give back its buffers, and the end closes them all.
//
// It owns the context every session of this loop shares, and is the host
// sessions report their close to. Loop thread only.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/loop/event_loop.h"
#include "core/metrics/layout.h"
#include "core/net/output_queue.h"
#include "core/net/tls.h"
#include "core/session/receive_buffer.h"
#include "core/session/session.h"

namespace baton::server {

class session_registry final : private session::session_host {
 public:
  session_registry(loop::event_loop& loop, const session::session_settings& settings,
                   session::receive_buffer& shared_input, net::output_queue::spares* output_spares,
                   metrics::thread_block* metrics);
  // Frees what is still registered (the owner closed and reaped it first).
  ~session_registry();
  session_registry(const session_registry&) = delete;
  session_registry& operator=(const session_registry&) = delete;

  // A connection accepted on listener `listener`, registered; its owner
  // starts its first protocol.
  session::session* open(int fd, const sockaddr_storage& peer, uint16_t listener, net::tls_context* tls);

  size_t live() const { return live_count_; }
  // Sessions a drain waits for: those not merely lingering.
  size_t busy() const { return live_count_ - lingering_count_; }

  // Every session: finish what it holds, then close (a drain).
  void drain_all();
  // Every session: close now.
  void close_all();
  // Frees the sessions that closed. Only between top-level passes (every
  // pass ends with it, so it is defined here and inlines).
  void reap() {
    for (session::session* c : closed_) delete c;
    closed_.clear();
  }
  // Sessions whose request has been in the app since before `now -
  // timeout_ms` give it up; true when there was one.
  bool abandon_overdue(int64_t now, int timeout_ms);
  // Idle sessions give back their buffers; returns the bytes freed.
  size_t release_idle_memory();

 private:
  void session_closed(session::session* s, bool was_lingering) override;
  void session_lingering(session::session* s) override;

  session::session_context context_;
  metrics::thread_block* metrics_;
  session::session* live_ = nullptr;  // intrusive list of open sessions
  std::vector<session::session*> closed_;
  size_t live_count_ = 0;
  size_t lingering_count_ = 0;
};

}  // namespace baton::server
