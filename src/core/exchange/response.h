// The response as the app side builds it, and how a protocol puts it on
// its wire. The exchange keeps the response as data (a status, the app's
// fields, what the body's length is); the protocol that carried the
// request writes it out in its own syntax through the response_wire it
// gave the exchange (HTTP/1's status line, framing fields and chunks live
// in http1/encoder).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/exchange/fields.h"
#include "core/exchange/head.h"
#include "core/exchange/interim.h"
#include "core/util/byte_buffer.h"

namespace baton::exchange {

// App side only, except where a member says otherwise.
struct response_state {
  int status = 0;
  // The status as the app gave it, code and reason phrase ("200 OK"): what
  // HTTP/1 writes on its status line (HTTP/2 sends the code alone).
  std::string status_line;
  field_list fields;       // the app's own fields, validated; the connection's are the protocol's
  // Fields the app sends after the body (ASGI's http.response.trailers).
  // HTTP/1 writes them after the last chunk, and drops them from a body
  // framed by Content-Length or an HTTP/1.0 response; HTTP/2 sends them in
  // a HEADERS frame after the last DATA, reading them on the loop side once
  // the app side is done.
  field_list trailers;
  int64_t length = -1;     // the app's Content-Length, -1 if none
  uint64_t sent = 0;       // body bytes queued so far
  bool app_wants_close = false;  // the app said Connection: close
  bool app_date = false;         // the app sent its own Date: the protocol's is left out
  bool app_server = false;       // the app sent its own Server
  bool app_alt_svc = false;      // the app sent its own Alt-Svc: the listener's is left out
  // A server's own answer (an error, a native route): the connection is
  // kept only when the whole request has arrived, never by dropping an
  // unread rest of its body.
  bool strict_keep_alive = false;
  // Decided when the head is written (commit).
  bool committed = false;
  bool no_body = false;   // HEAD, 1xx, 204, 304: no body bytes go out
  bool chunked = false;   // the protocol frames the body in pieces (HTTP/1 chunked)
  bool finished = false;
  bool replaced = false;  // an error answer replaced the app's (the body was too large)

  void reset() {
    status = 0;
    status_line.clear();
    fields.clear();
    trailers.clear();
    length = -1;
    sent = 0;
    app_wants_close = app_date = app_server = app_alt_svc = strict_keep_alive = false;
    committed = no_body = chunked = finished = replaced = false;
  }
};

// What the wire needs to know besides the response itself.
struct commit_facts {
  const request_head& request;
  bool body_complete;     // the whole request body has arrived
  bool stopping;          // a graceful stop has begun
  size_t body_window;     // request body bytes a connection may read and drop
  bool body_is_empty;     // the app ends the response without a body
};

// A protocol's way of writing responses, set on each exchange it starts.
// Called on the app side (whatever thread runs the app), never concurrently
// for one exchange. Implementations hold no per-request state.
class response_wire {
 public:
  // Writes the head into `out` and decides the body's framing (sets
  // r.no_body and r.chunked, and r.length when it must be zero). Returns
  // true when the connection must close after this response.
  virtual bool write_head(response_state& r, const commit_facts& facts, byte_buffer& out) const = 0;
  // Around each body piece of a chunked response, and after the last (with
  // r.trailers).
  virtual void begin_piece(size_t length, byte_buffer& out) const = 0;
  virtual void end_piece(byte_buffer& out) const = 0;
  virtual void end_body(const response_state& r, byte_buffer& out) const = 0;
  // An interim response of `status` (103) with `fields`, before the head:
  // writes it into `out`, or says the loop will encode it from the data,
  // or that `request`'s client cannot take one (interim.h).
  virtual interim_result write_interim(int status, const field_list& fields, const request_head& request,
                                       byte_buffer& out) const = 0;

 protected:
  ~response_wire() = default;
};

}  // namespace baton::exchange
