// The parts of http2::protocol its three files share (protocol.cc: the
// connection, its frames and its time; requests.cc: a stream's request and
// its way to the app; responses.cc: a stream's response onto the wire):
// the stream record and nghttp2's callbacks as members. Not a public header.
#pragma once

#include <nghttp2/nghttp2.h>

#include <memory>

#include "core/http2/protocol.h"

namespace baton::http2 {

// Where a stream's request stands; it only moves down this list, though
// it may skip steps (a refusal goes from ready to done).
enum class stream_phase : uint8_t {
  head,      // its header block is being decoded
  ready,     // the head is complete: it goes to the app after this read
  held,      // dispatched: waiting for one of the connection's slots in the app
  inside,    // its app runs it (counted in in_app_)
  released,  // its app still runs it but it left the count: given up on (the
             // app timeout), or carrying a switched protocol
  done,      // its app finished, or it was answered here without one
};

// One stream: its request head as it is decoded, then its exchange.
struct protocol::stream {
  int32_t id = 0;
  exchange::exchange* x = nullptr;  // one reference, once the head is complete
  exchange::pseudo_head head;       // as decoded; its storage freed once the exchange has its copy
  stream_phase phase = stream_phase::head;
  bool body_ended = false;
  bool head_sent = false;     // the response's HEADERS are submitted
  bool whole = false;         // the app side finished the response: `pending` holds the rest of it
  // Closed for HTTP/2 (its END_STREAM went with the answer whole) while its
  // app is still at work: the exchange stays this connection's until then.
  bool lingering = false;
  bool deferred = false;      // nghttp2 waits for resume_data
  bool reset = false;         // reset (by either side): nothing more goes out
  bool reset_logged = false;  // our reset of it was logged with its reason
  bool reset_once_answered = false;  // a server's answer before the body ended: then RST_STREAM(NO_ERROR)
  net::output_queue pending;  // the exchange's output not framed yet
  uint64_t announced = 0;     // body bytes the unpadded DATA frames' headers announced
  bool padded = false;        // a padded DATA frame came: the body is judged as delivered
  uint64_t delivered = 0;     // body bytes given to the exchange
  uint64_t given_back = 0;    // of them, window given back to the client
  int64_t stalled_since_ms = 0;
  int64_t app_since_ms = 0;    // when it entered the app (inside)
  int64_t body_clock_ms = 0;   // the body's time is counted up to here
  int64_t body_waited_ms = 0;  // time its body was awaited with the client free to send
  // After an extended CONNECT's 200 (RFC 8441): the protocol the stream
  // carries, what it sees of the stream, and the bytes fed to it.
  std::unique_ptr<session::switched_protocol> carried;
  std::unique_ptr<stream_carrier> carrier;
  uint64_t carried_in = 0;
  bool carried_finished = false;  // it is done both ways: END_STREAM follows its output
  bool offered = false;           // an extended CONNECT offered to its app as a switch
  stream* prev = nullptr;
  stream* next = nullptr;

  int64_t content_length() const { return head.content_length(); }
};

// What a switched protocol sees of its stream: the stream's output queue
// (sent as DATA), its window, its end (END_STREAM) and its reset.
struct protocol::stream_carrier final : session::byte_stream {
  stream_carrier(protocol& p, stream& s) : p(p), s(s) {}
  net::output_queue& output() override { return s.pending; }
  bool push() override { return p.push_switched(s); }
  uint64_t backlog() const override { return s.pending.buffered_bytes(); }
  void finish() override { p.finish_switched(s); }
  void abort() override { p.abort_switched(s); }
  void replan() override { p.session_.update(); }
  bool gone() const override { return p.h2_ == nullptr || p.session_.closed() || s.reset; }
  int64_t now_ms() const override { return p.session_.now_ms(); }
  const char* peer_for_log() const override { return p.session_.peer_for_log(); }

  protocol& p;
  stream& s;
};

struct callbacks {
  static protocol& self(void* user) { return *static_cast<protocol*>(user); }
  static int begin_frame(nghttp2_session*, const nghttp2_frame_hd* hd, void* user) {
    return self(user).begin_frame(*hd);
  }
  static int begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    return self(user).begin_headers(frame);
  }
  static int header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t name_length,
                    const uint8_t* value, size_t value_length, uint8_t, void* user) {
    return self(user).header(frame, {reinterpret_cast<const char*>(name), name_length},
                             {reinterpret_cast<const char*>(value), value_length});
  }
  static int frame_received(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    return self(user).frame_received(frame);
  }
  static int data_chunk(nghttp2_session*, uint8_t, int32_t id, const uint8_t* data, size_t length, void* user) {
    return self(user).data_chunk(id, data, length);
  }
  static int frame_sent(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    return self(user).frame_sent(frame);
  }
  static int stream_closed(nghttp2_session*, int32_t id, uint32_t error_code, void* user) {
    return self(user).stream_closed(id, error_code);
  }
  static ssize_t read_body(nghttp2_session*, int32_t id, uint8_t*, size_t length, uint32_t* flags,
                           nghttp2_data_source*, void* user) {
    return self(user).read_body(id, length, flags);
  }
  static int send_data(nghttp2_session*, nghttp2_frame* frame, const uint8_t* frame_head, size_t length,
                       nghttp2_data_source*, void* user) {
    return self(user).send_data(*frame, frame_head, length);
  }
};

}  // namespace baton::http2
