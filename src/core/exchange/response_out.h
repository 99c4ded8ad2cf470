// The response-out part of an exchange: the response as data (a status,
// the app's fields and trailers, the body's length: response_state) and the
// queue of its body bytes and files on their way to the loop, paced by an
// output window.
//
// Threads. The app side builds the response and queues its body in app_out_
// and publishes it to shared_out_ (under the meeting's lock); the loop side
// takes what was published and tells, through set_backlog, how much its
// connection still holds unsent. The head is the app side's until it is
// committed; from then on it is fixed, and a protocol that sends the head
// as data (HTTP/2) reads it on the loop thread once head_ready() says so.
// A protocol that writes bytes (HTTP/1) has its response_wire write the
// head and the body's framing on the app side as the app produces them.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "core/exchange/head.h"
#include "core/exchange/interim.h"
#include "core/exchange/meeting.h"
#include "core/exchange/storage.h"
#include "core/exchange/response.h"
#include "core/net/output_queue.h"

namespace baton::exchange {

enum class send_status : uint8_t { accepted, pending, gone };

class response_out {
 public:
  explicit response_out(meeting& m) : m_(m) {}
  response_out(const response_out&) = delete;
  response_out& operator=(const response_out&) = delete;

  // ------------------------------------------------------------ loop side
  // A new response to `request`, written through `wire`. Inline: once per request.
  void reset(const response_wire& wire, const request_head& request) {
    wire_ = &wire;
    request_ = &request;
    r_.reset();
    if (r_.fields.capacity() > keep_capacity) r_.fields.release();
    shared_out_.clear();
    app_out_.clear();
    published_.store(0, std::memory_order_relaxed);
    backlog_.store(0, std::memory_order_relaxed);
    external_unsent_.store(0, std::memory_order_relaxed);
    close_after_.store(false, std::memory_order_relaxed);
  }
  bool head_ready() const { return m_.has(meeting::head_ready); }
  // The app side has finished the response: every byte of it was published
  // before this reads true, so output taken after it is the rest of it.
  bool whole() const { return m_.has(meeting::whole); }
  const response_state& state() const { return r_; }
  // Moves the output the app published into `dest`. Returns the bytes moved.
  uint64_t take_output(net::output_queue& dest);
  // The bytes the connection still holds unsent for this exchange; wakes an
  // app waiting for output credit when they fall under half the window.
  void set_backlog(uint64_t bytes);
  // Whether the response asked to close the connection after it.
  bool close_after() const { return close_after_.load(std::memory_order_acquire); }
  // The interim responses queued for a loop that encodes them (interim.h);
  // false when none waits.
  bool take_interim(field_list& dest) { return interim_.take(m_, dest); }
  // After a switch: frees the published queue's storage when it is empty.
  size_t release_loop_memory();

  // ------------------------------------------------------------- app side
  // May be called again until the head is committed (WSGI's exc_info); it
  // discards the fields added so far. `status_line` is the code and reason
  // phrase ("200 OK").
  void begin(int status_code, std::string_view status_line);
  // False when the field is invalid (not a token name, CR/LF/NUL/CTL in the
  // value, a malformed or conflicting Content-Length), or once the head is
  // committed; nothing is added then. The connection's own fields
  // (Connection, Keep-Alive, Transfer-Encoding) are the protocol's: they
  // are taken note of, not added.
  bool add_header(std::string_view name, std::string_view value);
  // The same for a name and value the caller has found valid already
  // (valid_field_name, valid_field_value): the bridge's memo of its app's
  // constant fields.
  bool add_valid_header(std::string_view name, std::string_view value);
  // A field sent after the body, before finish(); false (nothing added)
  // when it is invalid, frames or routes the message, or is the
  // connection's own.
  bool add_trailer(std::string_view name, std::string_view value);
  // An interim response (103 Early Hints) ahead of the head: begun, given
  // its fields (false, nothing added, for one valid_interim_field refuses),
  // then sent at once with a status from 102 to 199 (100 and 101 are the
  // protocols'). send_interim() is false when it did not go out: the head
  // is committed already, the client is gone, or its protocol takes no
  // interim response (HTTP/1.0).
  void begin_interim() { interim_.begin(); }
  bool add_interim_field(std::string_view name, std::string_view value);
  bool send_interim(int status);
  // A field the server adds to a head it begins itself (a 101's).
  void add_own_field(std::string_view name, std::string_view value) { r_.fields.add(name, value); }
  // Queues body bytes (committing the head first). `external`: queued
  // without a copy, the caller keeping the memory valid until
  // external_sent(). `past_window`: queued even past the output window.
  send_status send_body(const char* data, size_t length, bool external, bool past_window);
  // Queues `length` bytes of `fd` from `offset`; always takes fd (closing it
  // when the exchange is gone). Files cost no memory, so no window applies.
  send_status send_file(int fd, off_t offset, uint64_t length);
  // Whether no external run is still queued; if some are, asks to be
  // woken when none is (publishing what the app side holds).
  bool external_sent();
  // On a cancelled stream, drops what is still queued (the loop takes
  // nothing more from it), releasing its external runs; else nothing.
  void drop_if_cancelled();
  void flush();
  // The body is complete. `switches`: the answer that switches protocols
  // (a 101, or an extended CONNECT's 200), after which the exchange carries
  // messages (see messages.h).
  void finish(bool switches);
  void fail(int status, bool close);
  void answer(int status, std::string_view content_type, std::string_view body,
              std::initializer_list<std::string_view> extra_fields, bool close);
  void keep_alive_only_if_complete() { r_.strict_keep_alive = true; }
  bool output_ready() const;
  bool credit_or_wake_me();
  // For messages after a switch: the queue a message is framed into (and
  // the count of the memory it refers to in place), then counted and
  // handed to the loop.
  net::output_queue& framing_queue() { return app_out_; }
  void count_and_publish(size_t payload_bytes) {
    r_.sent += payload_bytes;
    publish();
  }
  // The app side let go: what is left goes to the loop.
  void publish();
  size_t release_app_memory() { return app_out_.empty() ? app_out_.release_memory() : 0; }

  // Tests only (reads both sides unguarded).
  size_t storage_bytes() const {
    return shared_out_.storage_bytes() + app_out_.storage_bytes() + r_.fields.capacity() + r_.status_line.capacity() +
           interim_.storage_bytes();
  }

 private:
  bool cancelled() const { return m_.has(meeting::cancelled); }
  void commit(bool body_is_empty);
  bool replace_with_body_error();
  bool refuse_after_finish();
  // The part of a body that send_body() or send_file() may still queue
  // under the app's Content-Length.
  uint64_t clip_to_length(uint64_t length);

  meeting& m_;
  const response_wire* wire_ = nullptr;
  const request_head* request_ = nullptr;
  response_state r_;              // app side only (read by the loop once the head is ready)
  net::output_queue app_out_;     // app side only
  net::output_queue shared_out_;  // guarded by the meeting's lock
  std::atomic<uint64_t> published_{0};  // bytes in shared_out_
  std::atomic<uint64_t> backlog_{0};    // bytes the connection holds unsent
  std::atomic<bool> close_after_{false};
  std::atomic<uint64_t> external_unsent_{0};  // bytes of external runs still queued
  interim_out interim_;  // untouched by a request that sends no interim response
};

}  // namespace baton::exchange
