#include "core/session/tls_handshake.h"

#include "core/util/log.h"

namespace baton::session {

void tls_handshake::start() {
  deadline_ = s_.now_ms() + timeout_ms_;
  advance();  // a client that sent its hello with the connect is not made to wait a pass
}

void tls_handshake::advance() {
  if (done_) return;
  std::string reason;
  switch (io_.handshake(reason)) {
    case net::tls_transport::handshake_result::pending:
      return;
    case net::tls_transport::handshake_result::failed:
      log::write(log::level::info, "TLS handshake with %s failed: %s", s_.peer_for_log(), reason.c_str());
      host_.handshake_failed();
      s_.close_now();
      return;
    case net::tls_transport::handshake_result::done:
      done_ = true;
      s_.hand_to(host_.after_handshake(s_, io_.facts()));
      return;
  }
}

void tls_handshake::drain() {
  int64_t grace = s_.now_ms() + drain_grace_ms_;
  if (grace < deadline_) deadline_ = grace;
}

void tls_handshake::on_deadline() {
  log::write(log::level::info, "closing a connection from %s whose TLS handshake did not finish in time",
             s_.peer_for_log());
  host_.handshake_failed();
  s_.close_now();
}

}  // namespace baton::session
