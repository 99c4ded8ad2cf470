// The boundary between core and whatever runs the application.
//
// An exchange is one request and its response, as plain C++: the request is
// views into the connection's buffer, the body is pulled through peek/consume,
// and the response is pushed as a status, header fields, body bytes or a file.
// Core implements it for each shape that delivers requests (today the inline
// connection; later a proxy that crosses the pool's ring); the bridge codes
// against this interface alone and never sees a socket.
//
// Thread: the thread the handler was called on. Lifetime: the exchange is
// valid only during request_handler::handle(); a handler that keeps Python
// objects pointing at it must disarm them before returning.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>

#include "core/http1/parser.h"

namespace baton::http1 {

struct peer_info {
  std::string_view address;  // textual IP, or "" for a Unix socket
  uint16_t port = 0;
};

class exchange {
 public:
  // The request head. Its views stay valid until the first body read that
  // has to wait for more bytes (the buffer may move then): copy what you need
  // before reading the body.
  virtual const request& head() const = 0;
  virtual peer_info peer() = 0;

  enum class body_state : uint8_t { data, end, error };
  // Makes body bytes available, waiting for them if need be (and sending
  // 100 Continue the first time an Expect: 100-continue request must wait).
  // On `data`, `out` holds at least one byte; consume_body() what you use.
  virtual body_state peek_body(std::string_view& out) = 0;
  virtual void consume_body(size_t n) = 0;
  // For `error`: the status that describes it (400, 408, 413) and whether
  // the client is simply gone.
  virtual int body_error_status() const = 0;

  // The response. begin_response() may be called again before anything is
  // sent (WSGI's exc_info); it discards the fields added so far.
  virtual void begin_response(int status_code, std::string_view status_text) = 0;
  // False when the field is invalid (not a token name, CR/LF/NUL/CTL in the
  // value, a malformed Content-Length); nothing is added then.
  virtual bool add_header(std::string_view name, std::string_view value) = 0;
  virtual bool has_content_length() const = 0;
  virtual bool response_committed() const = 0;
  // Each returns false once the client is gone; stop producing then.
  virtual bool write_body(const char* data, size_t length) = 0;
  // Sends `length` bytes of `fd` from `offset`; takes ownership of fd.
  virtual bool send_file(int fd, off_t offset, uint64_t length) = 0;
  // Sends what is queued now, without waiting unless the queue is over its
  // high-water mark: for streamed bodies, so each piece reaches the client
  // as it is produced rather than when the response ends.
  virtual bool flush() = 0;
  virtual void finish() = 0;
  // The application failed: a 500 if nothing was sent yet, otherwise the
  // connection is closed so the client sees an incomplete response.
  virtual void fail(int status = 500) = 0;
  virtual bool client_gone() const = 0;

 protected:
  ~exchange() = default;
};

class request_handler {
 public:
  // Called on the loop thread with a complete request head. Produces the
  // whole response (inline shape) before returning.
  virtual void handle(exchange& ex) = 0;

 protected:
  ~request_handler() = default;
};

}  // namespace baton::http1
