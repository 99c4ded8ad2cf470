#include "core/session/session.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>

#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::session {

session::session(session_context& context, int fd, const sockaddr_storage& peer, uint16_t listener,
                 net::tls_context* tls)
    : context_(context),
      socket_(tls != nullptr ? -1 : fd),
      tls_(tls != nullptr ? std::make_unique<net::tls_transport>(*tls, fd) : nullptr),
      io_(tls_ ? static_cast<net::transport*>(tls_.get()) : &socket_),
      listener_(listener) {
  if (peer.ss_family == AF_INET) {
    auto* a = reinterpret_cast<const sockaddr_in*>(&peer);
    inet_ntop(AF_INET, &a->sin_addr, peer_text_, sizeof peer_text_);
    peer_port_ = ntohs(a->sin_port);
  } else if (peer.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<const sockaddr_in6*>(&peer);
    inet_ntop(AF_INET6, &a->sin6_addr, peer_text_, sizeof peer_text_);
    peer_port_ = ntohs(a->sin6_port);
  }
  peer_text_length_ = static_cast<uint8_t>(strnlen(peer_text_, sizeof peer_text_));
  out_.set_spares(context_.output_spares);
}

session::session(session_context& context, net::transport& io, const exchange::peer_info& peer)
    : context_(context), socket_(-1), io_(&io) {
  out_.set_spares(context_.output_spares);
  set_peer(peer);
}

void session::set_peer(const exchange::peer_info& peer) {
  size_t n = peer.address.size() < sizeof peer_text_ - 1 ? peer.address.size() : sizeof peer_text_ - 1;
  util::copy_bytes(peer_text_, peer.address, n);
  peer_text_[n] = '\0';
  peer_text_length_ = static_cast<uint8_t>(n);
  peer_port_ = peer.port;
  listener_ = peer.listener;
}

void session::set_proxied(std::string_view client, uint16_t client_port, std::string_view server,
                          uint16_t server_port) {
  set_peer({client, client_port, listener_});
  size_t n = server.size() < sizeof server_text_ - 1 ? server.size() : sizeof server_text_ - 1;
  util::copy_bytes(server_text_, server, n);
  server_text_[n] = '\0';
  server_text_length_ = static_cast<uint8_t>(n);
  server_port_ = server_port;
}

session::~session() {
  if (state_ != state::closed) close_now();
}

void session::start(std::unique_ptr<protocol> first) {
  protocol_ = std::move(first);
  interest_ = loop::event_loop::readable;
  if (io_->fd() >= 0) context_.loop.add(io_->fd(), interest_, this);
  protocol_->start();
  update();
}

// Never at once: the protocol handing over is still inside one of its own
// calls (or a news callback), and must not be destroyed under it. The
// timer, due now, takes the handoff on this pass; an event that comes first
// takes it before anything else.
void session::hand_to(std::unique_ptr<protocol> next) {
  next_ = std::move(next);
  if (state_ == state::open) context_.loop.arm(timer_, now_ms());
}

// The new protocol starts with what input() and output() hold.
void session::take_handoff() {
  if (!next_ || state_ != state::open) return;
  protocol_ = std::move(next_);
  protocol_->start();
}

void session::on_io(uint32_t events) {
  if (state_ == state::closed) return;
  take_handoff();
  if ((events & loop::event_loop::error) != 0) {
    close_now();
    return;
  }
  if ((events & loop::event_loop::writable) != 0 && write_blocked_) {
    write_progress_ms_ = now_ms();
    if (state_ == state::lingering) flush();
    else protocol_->on_writable();
  }
  if (state_ == state::closed) return;
  // A TLS read that must write first is retried once the socket takes output.
  bool readable = (events & loop::event_loop::readable) != 0 ||
                  ((events & loop::event_loop::writable) != 0 && io_->wants_writable());
  if (readable) {
    if (state_ == state::lingering) {
      read_and_drop();
      return;
    }
    protocol_->on_readable();
  } else if ((events & loop::event_loop::hangup) != 0) {
    // Both directions are shut (a reset, or our own half-close answered):
    // nothing more can be sent or received.
    close_now();
    return;
  }
  update();
}

bool session::input_waiting() {
  return state_ == state::open && !eof_ && io_->input_pending() && protocol_->current_plan().read;
}

void session::read_and_drop() {
  char discard[4096];
  receive_status r = receive(discard, sizeof discard).status;
  if (r == receive_status::end || r == receive_status::failed) close_now();
}

bool session::flush() {
  if (state_ == state::closed) return false;
  if (out_.empty()) {
    write_blocked_ = false;
    return true;
  }
  switch (out_.flush(*io_)) {
    case net::output_queue::flush_result::failed:
      close_now();
      return false;
    case net::output_queue::flush_result::blocked:
      if (!write_blocked_) write_progress_ms_ = now_ms();
      write_blocked_ = true;
      break;
    case net::output_queue::flush_result::done:
      write_blocked_ = false;
      break;
  }
  return true;
}

void session::update() {
  if (state_ == state::closed) return;
  protocol::plan p;
  if (state_ == state::lingering) {
    p = {true, linger_started_ms_ + context_.settings.linger_ms};
  } else {
    p = protocol_->current_plan();
    // At end of input a level-triggered readable would fire forever.
    if (eof_) p.read = false;
  }
  bool writable = write_blocked_ || (p.read && io_->wants_writable());
  uint32_t want = (p.read ? loop::event_loop::readable : 0u) | (writable ? loop::event_loop::writable : 0u);
  if (want != interest_) {
    if (io_->fd() >= 0) context_.loop.modify(io_->fd(), want, this);
    interest_ = want;
  }
  int64_t deadline = p.deadline;
  if (write_blocked_) {
    int64_t w = write_progress_ms_ + context_.settings.write_timeout_ms;
    if (w < deadline) deadline = w;
  }
  if (next_) deadline = now_ms();  // a handoff waits for this pass's timers at the latest
  bool reading_on = p.read && state_ == state::open && io_->input_pending();
  if (reading_on) deadline = now_ms();
  if (tls_) tls_->settle_output(reading_on);
  if (deadline == INT64_MAX) {
    context_.loop.disarm(timer_);
  } else if (!timer_.armed() || timer_.due != deadline) {
    context_.loop.arm(timer_, deadline);
  }
}

void session::on_timer() {
  if (state_ == state::closed) return;
  if (next_) {
    take_handoff();
    // What came with the handshake's last records is read now, not a pass later.
    if (input_waiting()) protocol_->on_readable();
    update();
    return;
  }
  int64_t now = now_ms();
  if (write_blocked_ && now >= write_progress_ms_ + context_.settings.write_timeout_ms) {
    log::write(log::level::info, "closing a connection from %s whose client stopped reading (write timeout)",
               peer_for_log());
    close_now();
    return;
  }
  if (state_ == state::lingering) {
    if (now >= linger_started_ms_ + context_.settings.linger_ms) close_now();
    else update();
    return;
  }
  if (input_waiting()) {
    protocol_->on_readable();
    update();
    return;
  }
  if (now < protocol_->current_plan().deadline) {
    update();
    return;
  }
  protocol_->on_deadline();
  update();
}

// Half-closes and reads until the client closes too (or a short deadline):
// closing with unread input would make the kernel send a reset, and the
// client could lose the answer it has not read yet.
void session::start_lingering() {
  if (state_ != state::open) return;
  if (eof_) {
    close_now();
    return;
  }
  io_->shutdown_write();
  state_ = state::lingering;
  linger_started_ms_ = now_ms();
  in_ = byte_buffer();
  out_.release_memory();
  update();
  context_.host.session_lingering(this);
}

void session::drain() {
  if (state_ != state::open) return;
  protocol_->drain();
  update();
}

size_t session::release_idle_memory() {
  if (state_ != state::open || write_blocked_) return 0;
  return protocol_->release_idle_memory();
}

void session::close_now() {
  if (state_ == state::closed) return;
  bool was_lingering = state_ == state::lingering;
  state_ = state::closed;
  context_.loop.disarm(timer_);
  if (io_->fd() >= 0) context_.loop.remove(io_->fd());
  io_->close();
  out_.release_memory();
  in_ = byte_buffer();
  next_.reset();
  if (protocol_) protocol_->on_close();
  context_.host.session_closed(this, was_lingering);
}

}  // namespace baton::session
