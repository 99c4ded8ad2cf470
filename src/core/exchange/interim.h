// Interim responses: the informational (1xx) answers an app sends ahead of
// its final one, such as 103 Early Hints (RFC 8297), whose Link fields let
// a client start fetching what the final answer will name while the app
// is still making it.
//
// The app side builds one response's fields here (app side only), then
// response_out::send_interim hands them to the protocol's wire, as the
// final head is: a protocol that writes bytes (HTTP/1) writes the interim
// response into the output at once, in order before the head; a protocol
// that sends heads as data (HTTP/2) has them queued here for the loop,
// which takes them (take(), under the meeting's lock) before it looks at
// the final head. Nothing here is touched by a request that sends none:
// the queue is emptied lazily, by the first queue() of a later request.
//
// Threads. building() and queue() are the app side's; queue() and take()
// run under the meeting's lock, and the meeting's `interim` flag says
// whether the queue holds this request's responses (raised by queue(),
// lowered by take() and by the meeting's reset for a new request).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/exchange/fields.h"
#include "core/exchange/meeting.h"

namespace baton::exchange {

// What a protocol's wire did with an interim response.
enum class interim_result : uint8_t {
  written,       // its bytes are in the output, ahead of the head
  keep_as_data,  // the loop encodes it: queue it for the loop to take
  not_sent,      // this request cannot take one (an HTTP/1.0 client)
};

// The name a queued response's first entry has; its value is the status.
inline constexpr std::string_view interim_status_name = ":status";

// A field an interim response may carry: a valid name and value, and none
// of the fields that frame or keep a connection (a 1xx has no content,
// and the connection is the protocol's). False for those.
bool valid_interim_field(std::string_view name, std::string_view value);

class interim_out {
 public:
  // ------------------------------------------------------------- app side
  void begin() { building_.clear(); }
  // Once sent: a large response's storage is let go rather than kept by
  // the exchange for every request after it.
  void sent();
  void add(std::string_view name, std::string_view value) { building_.add(name, value); }
  const field_list& building() const { return building_; }
  // Under the meeting's lock: queues the fields built as a response of
  // `status` (three digits) for the loop, and raises the meeting's flag.
  void queue(meeting& m, std::string_view status);

  // ------------------------------------------------------------ loop side
  // Under the meeting's lock: moves the queued responses into `dest` (its
  // content replaced), each one a ":status" entry then its fields, in the
  // order sent. False (dest emptied) when none is queued.
  bool take(meeting& m, field_list& dest);

  // Tests only.
  size_t storage_bytes() const { return building_.capacity() + queued_.capacity(); }

 private:
  field_list building_;  // app side only
  field_list queued_;    // guarded by the meeting's lock
};

}  // namespace baton::exchange
