// What a closed connection keeps for a while (RFC 9000 section 10.2), so
// that a packet still on its way is answered as the close asks, not as a
// stranger's:
// - closing: we sent CONNECTION_CLOSE. A client that did not get it (the
//   packet was lost) sends again; each of its packets may be answered with
//   the same close, at a falling rate (the 1st, 2nd, 4th, 8th... packet),
//   so a stream of them is not answered one for one.
// - draining: the client closed. Nothing is sent; its late packets are
//   dropped rather than answered with a Stateless Reset.
// Either lasts three probe timeouts (the connection's timer ends it), then
// the connection and its IDs are forgotten. The server's own stop does not
// wait for it.
//
// Loop thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace baton::quic {

class closing_period {
 public:
  enum class state { none, closing, draining };

  // We sent the close `packet` of `length` bytes.
  void closing(const uint8_t* packet, size_t length) {
    state_ = state::closing;
    packet_.assign(packet, packet + length);
  }
  // The peer sent its close.
  void draining() { state_ = state::draining; }
  state now() const { return state_; }

  // A packet of the closed connection came: whether the close is to be sent
  // again for it (closing only, at the falling rate).
  bool answer_due() {
    if (state_ != state::closing) return false;
    ++received_;
    return (received_ & (received_ - 1)) == 0;  // a power of two
  }
  const std::vector<uint8_t>& packet() const { return packet_; }

 private:
  state state_ = state::none;
  std::vector<uint8_t> packet_;
  uint64_t received_ = 0;
};

}  // namespace baton::quic
