// A protocol switch a request asks for and the server would make: today a
// WebSocket opening (RFC 6455), answered with 101 Switching Protocols.
//
// The protocol that read the request fills the offer before the exchange
// goes to the app; the app side reads it to build its 101 (or refuses the
// switch with an ordinary response). Once the app's 101 is finished, the
// exchange carries messages both ways instead of a body and a response:
// the loop side delivers each message the client sends whole, and the app
// side's messages are framed by the offer's message_wire as it sends them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/net/output_queue.h"
#include "core/util/utf8.h"

namespace baton::exchange {

// What a message is, in both directions. A close carries a two-byte code
// (network order) and the reason's UTF-8, or nothing.
enum class message_kind : uint8_t { text = 1, binary = 2, close = 8 };

// A close message's payload, as the app's close and the server's own are
// built: the code in network order, then as much of the reason as a control
// frame carries (123 bytes, cut at a character's boundary). 1005 (no status
// code) is sent as an empty payload.
inline std::string close_payload(uint16_t code, std::string_view reason) {
  std::string p;
  if (code == 1005) return p;
  p.push_back(static_cast<char>(code >> 8));
  p.push_back(static_cast<char>(code & 0xff));
  p.append(util::utf8_prefix(reason, 123));
  return p;
}

struct upgrade_offer;

// How the switched protocol frames the app's messages. Called on the app
// side; holds no per-session state (what a session agreed is in the offer).
class message_wire {
 public:
  // Frames a message into `out`. Given `unsent`, the wire may queue a large
  // payload where it is instead of copying it (output_queue::push_external
  // with that count) and says so: the caller then keeps the memory valid
  // until the count no longer holds it.
  virtual bool write_message(message_kind kind, const char* data, size_t length, const upgrade_offer& offer,
                             net::output_queue& out, std::atomic<uint64_t>* unsent) const = 0;

 protected:
  ~message_wire() = default;
};

struct upgrade_offer {
  const message_wire* wire = nullptr;  // null: no switch is on offer
  // The switch's answer: 101 with the Sec-WebSocket-Accept value over
  // HTTP/1.1; over HTTP/2 (an extended CONNECT, RFC 8441) a 200 with none.
  int status = 101;
  std::string accept;
  std::string extensions;              // the agreed Sec-WebSocket-Extensions value, or ""
  bool deflate = false;                // permessage-deflate was agreed
  int deflate_window_bits = 15;        // the server's compressor window

  bool websocket() const { return wire != nullptr; }
  void reset() {
    wire = nullptr;
    status = 101;
    accept.clear();
    extensions.clear();
    deflate = false;
    deflate_window_bits = 15;
  }
};

}  // namespace baton::exchange
