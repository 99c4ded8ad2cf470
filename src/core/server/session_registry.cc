#include "core/server/session_registry.h"

#include "core/metrics/record.h"

namespace baton::server {

session_registry::session_registry(loop::event_loop& loop, const session::session_settings& settings,
                                   session::receive_buffer& shared_input, net::output_queue::spares* output_spares,
                                   metrics::thread_block* metrics)
    : context_{loop, settings, *this, shared_input, output_spares}, metrics_(metrics) {}

session_registry::~session_registry() { reap(); }

session::session* session_registry::open(int fd, const sockaddr_storage& peer, uint16_t listener,
                                         net::tls_context* tls) {
  auto* c = new session::session(context_, fd, peer, listener, tls);
  c->next = live_;
  if (live_ != nullptr) live_->prev = c;
  live_ = c;
  ++live_count_;
  metrics::move(metrics_, &metrics::thread_block::connections, 1);
  return c;
}

void session_registry::session_lingering(session::session*) { ++lingering_count_; }

void session_registry::session_closed(session::session* c, bool was_lingering) {
  if (was_lingering) --lingering_count_;
  if (c->prev != nullptr) c->prev->next = c->next;
  else live_ = c->next;
  if (c->next != nullptr) c->next->prev = c->prev;
  c->prev = c->next = nullptr;
  --live_count_;
  metrics::move(metrics_, &metrics::thread_block::connections, -1);
  closed_.push_back(c);
}

// Each call may close the session (and unlink it), so the next is taken first.
void session_registry::drain_all() {
  for (session::session* c = live_; c != nullptr;) {
    session::session* next = c->next;
    c->drain();
    c = next;
  }
}

void session_registry::close_all() {
  for (session::session* c = live_; c != nullptr;) {
    session::session* next = c->next;
    c->close_now();
    c = next;
  }
}

bool session_registry::abandon_overdue(int64_t now, int timeout_ms) {
  bool abandoned = false;
  for (session::session* c = live_; c != nullptr;) {
    session::session* next = c->next;
    int64_t since = c->in_app_since();
    if (since >= 0 && now - since >= timeout_ms) {
      c->abandon_app(now - timeout_ms + 1);
      abandoned = true;
    }
    c = next;
  }
  return abandoned;
}

size_t session_registry::release_idle_memory() {
  size_t freed = 0;
  for (session::session* c = live_; c != nullptr; c = c->next) freed += c->release_idle_memory();
  return freed;
}

}  // namespace baton::server
