// The messages part of an exchange: what it carries after a protocol switch
// (a WebSocket, over HTTP/1.1's 101 or an HTTP/2 stream). The loop side
// delivers each message the client sends whole, through the body channel
// (each as one unit: a header of its kind and length, then its payload);
// the app side's messages are framed by the offer's message_wire into the
// response's output queue. The offer itself (what the switch agreed) is
// written by the loop before dispatch and read by the app side.
//
// Threads: as body_in and response_out, whose channels these are.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/exchange/body_in.h"
#include "core/exchange/meeting.h"
#include "core/exchange/response_out.h"
#include "core/exchange/upgrade.h"
#include "core/util/byte_buffer.h"

namespace baton::exchange {

// A message from the client as the app side reads it.
struct client_message {
  message_kind kind = message_kind::binary;
  bool ascii = false;  // a text the loop saw to be all ASCII (no decoding needed)
  std::string_view payload;  // valid until consume()
};

// A payload the app side can keep valid for as long as `unsent` counts it
// (raised by its length when queued, lowered as the loop writes or drops
// it): the wire may then queue it where it is instead of copying it, and
// sets `taken` when it does.
struct in_place_payload {
  std::atomic<uint64_t>* unsent = nullptr;
  bool taken = false;
};

class messages {
 public:
  // A message's header in the body channel: its kind (with ascii_bit for
  // an ASCII text), then its length (4 bytes, little-endian).
  static constexpr size_t header_size = 5;
  static constexpr uint8_t ascii_bit = 0x80;

  messages(meeting& m, body_in& in, response_out& out) : m_(m), in_(in), out_(out) {}
  messages(const messages&) = delete;
  messages& operator=(const messages&) = delete;

  // ------------------------------------------------------------ loop side
  void reset() {
    if (offer_.websocket()) offer_.reset();  // only an offer leaves anything to clear
    taken_ = 0;
    answering_ = false;
  }
  upgrade_offer& offer() { return offer_; }
  // A whole message from the client, for the app. `ascii`: a text whose
  // every byte is below 0x80.
  void deliver(message_kind kind, const char* data, size_t length, bool ascii = false);
  // The same, from a buffer the exchange may take instead of copying it
  // (when the buffer has front room for the header and the app has taken
  // everything before it). `payload` is left empty.
  void deliver(message_kind kind, byte_buffer& payload, bool ascii = false);
  // The app's close has been queued (take its output after asking, and the
  // close is in it).
  bool app_closed() const { return m_.has(meeting::app_closed); }

  // ------------------------------------------------------------- app side
  const upgrade_offer& offer() const { return offer_; }
  bool switched() const { return m_.has(meeting::switched); }
  // The response the app is finishing is the offered switch's answer
  // (begun by begin_switch_response: an app's own 200, a denial, is not).
  bool switching(int status) const { return answering_ && offer_.websocket() && status == offer_.status; }
  // Begins the answer that makes the offered switch (a 101, or an extended
  // CONNECT's 200) with the fields the switch needs (Upgrade and
  // Sec-WebSocket-Accept for the 101, and the extensions agreed).
  void begin_switch_response();
  // The next message from the client: `data` with the message, `pending`
  // (the waker will be called), `end` after the client's close (which came
  // as a message of its own), or `error` when the connection went without one.
  read_status try_read(client_message& m);
  void consume();
  // Queues a message for the client, framed by the offer's wire, past the
  // window. A close is the app's last message. `gone`: the client left, or
  // the app has closed already. Given `keep`, a large payload may be
  // queued where it is (see in_place_payload).
  send_status send(message_kind kind, const char* data, size_t length, in_place_payload* keep = nullptr);

  size_t storage_bytes() const { return offer_.accept.capacity() + offer_.extensions.capacity(); }

 private:
  meeting& m_;
  body_in& in_;
  response_out& out_;
  upgrade_offer offer_;  // written by the loop before dispatch, read by the app side
  size_t taken_ = 0;     // app side: the bytes of the message try_read returned
  bool answering_ = false;  // app side: begin_switch_response was called
};

}  // namespace baton::exchange
