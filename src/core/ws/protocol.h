// A WebSocket on a whole session (RFC 6455), after the app accepted the
// opening handshake and its 101 went out: HTTP/1 hands the session over,
// with the bytes the client sent after its request. This is the carrier:
// it reads the socket into the loop's shared buffer and writes the
// session's output; the WebSocket itself (frames, pings, the close
// handshake, the app's messages) is ws::endpoint, the same one an HTTP/2
// or HTTP/3 stream carries.
#pragma once

#include <cstdint>

#include "core/exchange/exchange.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"
#include "core/session/switched.h"
#include "core/ws/endpoint.h"

namespace baton::ws {

class protocol final : public session::protocol, public session::byte_stream {
 public:
  // Takes a reference to `x` (its app has switched to this protocol).
  protocol(context& ctx, session::session& s, exchange::exchange& x);

  // session::protocol: the carrier's reads and writes; the rest is the endpoint's.
  void start() override;
  void on_readable() override;
  void on_writable() override { endpoint_.flush(); }
  void on_deadline() override { endpoint_.on_deadline(); }
  plan current_plan() const override { return {endpoint_.wants_input(), endpoint_.deadline()}; }
  void drain() override { endpoint_.drain(); }
  void on_close() override { endpoint_.on_close(); }
  size_t release_idle_memory() override { return endpoint_.release_idle_memory(); }

  // session::byte_stream
  net::output_queue& output() override { return session_.output(); }
  bool push() override { return session_.flush(); }
  uint64_t backlog() const override { return session_.output().buffered_bytes(); }
  void finish() override;
  void abort() override { session_.close_now(); }
  void replan() override { session_.update(); }
  bool gone() const override { return session_.closed(); }
  int64_t now_ms() const override { return session_.now_ms(); }
  const char* peer_for_log() const override { return session_.peer_for_log(); }

 private:
  session::session& session_;
  endpoint endpoint_;
};

// Frames the app's messages (exchange::message_wire), compressing those
// of min_size bytes or more when permessage-deflate was agreed, with a
// compressor private to the calling thread. A payload sent as it is, of
// in_place_at_least bytes or more, is queued where it is when the caller
// allows (only its frame header is written).
class wire final : public exchange::message_wire {
 public:
  // Under this, a copy costs less than the queue's entry for the memory
  // and the caller's keeping of it.
  static constexpr size_t in_place_at_least = 4096;

  explicit wire(const deflate_settings& deflate) : deflate_(deflate) {}
  bool write_message(exchange::message_kind kind, const char* data, size_t length,
                     const exchange::upgrade_offer& offer, net::output_queue& out,
                     std::atomic<uint64_t>* unsent) const override;

 private:
  const deflate_settings& deflate_;
};

// A request that asks to switch to WebSocket: refused when the opening is
// malformed (RFC 6455 section 4.2.1), else offered to its app with what
// its 101 needs (the accept key, the extensions agreed, the wire its
// messages go out in). Not offered when it asks for another protocol.
session::upgrade_verdict offer_opening(exchange::exchange& x, const settings& config,
                                       const exchange::message_wire& wire);

}  // namespace baton::ws
