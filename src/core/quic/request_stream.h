// One HTTP/3 request stream (RFC 9114 section 4.1): its request head as
// QPACK decodes it, then its exchange, and its response on the way out.
// The HTTP/3 counterpart of HTTP/2's stream record; owned by http3_server.
// Loop thread only.
#pragma once

#include <cstdint>
#include <memory>

#include "core/exchange/exchange.h"
#include "core/exchange/pseudo_head.h"
#include "core/net/output_queue.h"
#include "core/quic/sent_data.h"
#include "core/session/switched.h"

namespace baton::quic {

class http3_server;
struct request_stream;

// What a switched protocol sees of its stream (RFC 9220): the stream's
// output queue (sent as DATA), its credit, its end (FIN) and its reset.
// http3_switched.cc.
struct stream_carrier final : session::byte_stream {
  stream_carrier(http3_server& server, request_stream& s) : server(server), s(s) {}
  net::output_queue& output() override;
  bool push() override;
  uint64_t backlog() const override;
  void finish() override;
  void abort() override;
  void replan() override;
  bool gone() const override;
  int64_t now_ms() const override;
  const char* peer_for_log() const override;

  http3_server& server;
  request_stream& s;
};

// Where a stream's request stands; it only moves down this list, though
// it may skip steps (a refusal goes from head to done).
enum class stream_phase : uint8_t {
  head,    // its field section is being decoded
  ready,   // the head is complete: it goes to the app after this datagram
  inside,    // its app runs it
  released,  // its app still runs it: given up on (the app timeout), or carrying a switched protocol
  done,      // its app finished, or it was answered here without one
};

struct request_stream {
  int64_t id = 0;
  exchange::exchange* x = nullptr;  // one reference, once the head is complete
  exchange::pseudo_head head;       // as decoded; its storage freed once the exchange has its copy
  stream_phase phase = stream_phase::head;
  bool body_ended = false;
  bool head_sent = false;  // the response's HEADERS are submitted
  bool whole = false;      // the app side finished the response: `pending` holds the rest of it
  bool blocked = false;    // nghttp3 waits for nghttp3_conn_resume_stream
  bool reset = false;      // reset (by either side): nothing more goes out
  // QUIC closed it (its answer went whole) while its app is still at work:
  // the exchange stays this connection's until the app returns.
  bool lingering = false;
  bool client_ended = false;  // the client's FIN came
  bool sent_to_end = false;   // our FIN is in a packet
  bool slot_spare = false;    // done both ways: its slot may go back before QUIC closes it (return_slot_when_done)
  net::output_queue pending;  // the exchange's output not handed to nghttp3 yet
  sent_data sent;             // handed to nghttp3, kept until acknowledged
  uint64_t delivered = 0;     // body bytes given to the exchange
  uint64_t given_back = 0;    // of them, credit given back to the client
  int64_t app_since_ms = 0;   // when it entered the app (inside)
  // An extended CONNECT (RFC 9220): offered to its app as a switch; after
  // its 200, the protocol the stream carries, what that protocol sees of
  // the stream, and the bytes fed to it (`given_back` counts from the switch).
  bool offered = false;
  std::unique_ptr<session::switched_protocol> carried;
  std::unique_ptr<stream_carrier> carrier;
  uint64_t carried_in = 0;
  bool carried_finished = false;  // it is done both ways: FIN follows its output

  int64_t content_length() const { return head.content_length(); }
};

}  // namespace baton::quic
