// libFuzzer target for HTTP/2 on a session (src/core/http2/protocol.h): the
// glue between nghttp2 and the exchanges (the callbacks, the stream to
// exchange mapping, the flow-control give-back, the request rules of
// request_head.h). nghttp2's own framing and HPACK are fuzzed upstream.
//
// Each input runs on a fresh protocol over a fresh session, on an in-memory
// transport. The client's bytes are the connection preface and an empty
// SETTINGS frame, then the input after its two control bytes:
//   byte 0  bits 0-1  what the app does with each exchange it is handed:
//                     0 answers at once without reading, 1 reads its body
//                     and answers once it has ended, 2 streams an answer
//                     with trailers without reading, 3 leaves it until the
//                     connection ends
//           bits 2-3  how the bytes are split into reads: all at once, or
//                     pieces of 1, 13 or 256 bytes
//           bit 4     small limits (fields, header list, window, body,
//                     streams, control frames, resets, output high water)
//           bit 5     the input ends with the client's end of input (what
//                     is in flight is answered) rather than a reset
//           bit 6     the client reads 64 bytes of output and no more
//                     until the end
//           bit 7     an app that has begun its answer fails instead of
//                     finishing it
//   byte 1  bit 0     a drain begins before the end
//           bit 1     the app timeout abandons the streams still in the app
//           bit 2     at most two streams of the connection in the app
//           bit 3     the connection began as HTTP/1.1 asking for h2c by
//                     Upgrade: its GET is stream 1 (RFC 7540 3.2)
//
// Checked for every input: what fuzz_app.h checks of the heads and bodies
// the app sees and of the exchanges once the connection has closed, and
// that the protocol counts no stream once the session has closed.
// AddressSanitizer, UBSan and LeakSanitizer watch the rest.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "core/exchange/exchange.h"
#include "core/session/protocol_host.h"
#include "core/http2/protocol.h"
#include "core/http2/response_head.h"
#include "core/loop/event_loop.h"
#include "core/session/session.h"
#include "core/util/log.h"
#include "fuzz/fuzz_app.h"
#include "unit/support/memory_transport.h"

namespace {

namespace h2 = baton::http2;
namespace x = baton::exchange;
using baton::loop::event_loop;

constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr std::string_view empty_settings("\0\0\0\4\0\0\0\0\0", 9);

[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
  baton::fuzz::broken("http2_fuzz", what, detail);
}

// Plays the server; the app is fuzz_app's.
struct fuzz_host final : baton::session::protocol_host, baton::session::session_host {
  event_loop loop;
  baton::session::http_settings http;
  h2::settings config;
  baton::session::session_settings session_settings;
  baton::session::receive_buffer shared;
  std::atomic<bool> draining{false};
  h2::framing wire{"baton"};
  baton::session::session_context session_context{loop, session_settings, *this, shared};
  baton::gate::request_gate gate{http, *this, draining};
  h2::context context{gate, config, wire};
  baton::fuzz::fuzz_app app{"http2_fuzz", loop, http.exchanges};

  void reset(bool small) {
    app.reset(http, small, 2);
    http.keep_alive_timeout_ms = 60000;
    http.header_read_timeout_ms = 60000;
    config = h2::settings();
    if (small) {
      config.max_header_list_size = 512;
      config.initial_window_size = 1024;
      config.max_concurrent_streams = 4;
      config.output_high_water = 1024;
      config.control_frame_burst = 16;
      config.reset_burst = 4;
    }
  }

  x::exchange* new_exchange() override { return app.take_exchange(); }
  void submit(x::exchange* s) override { app.submit(s); }
  void session_closed(baton::session::session*, bool) override {}
  void session_lingering(baton::session::session*) override {}
};

// With HTTP2_FUZZ_VERBOSE set (rerunning one input), the core's log lines
// and a line per input saying what the app was handed and what went out.
bool verbose() {
  static const bool on = std::getenv("HTTP2_FUZZ_VERBOSE") != nullptr;
  return on;
}

fuzz_host& host() {
  static fuzz_host* h = [] {
    baton::log::set_level(verbose() ? baton::log::level::debug : baton::log::level::critical);
    return new fuzz_host();
  }();
  return *h;
}

struct run {
  fuzz_host& host;
  baton::test::memory_transport client;
  std::unique_ptr<baton::session::session> conn;

  h2::protocol& protocol() { return static_cast<h2::protocol&>(*conn->current_protocol()); }

  void read_all() {
    while (client.read_pos < client.input.size() && !conn->closed() &&
           (conn->interest() & event_loop::readable) != 0) {
      conn->on_io(event_loop::readable);
    }
  }
  // The app's turn, then what its news made due (framed on the loop's pass).
  void pass(bool last) {
    host.app.run(last);
    host.loop.run_once(0);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  fuzz_host& h = host();
  uint8_t c0 = data[0], c1 = data[1];
  std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
  h.reset((c0 & 0x10) != 0);
  h.app.mode = static_cast<baton::fuzz::app_mode>(c0 & 0x3);
  h.app.fail_after_head = (c0 & 0x80) != 0;
  h.config.max_streams_in_app = (c1 & 0x4) != 0 ? 2 : 0;
  constexpr size_t piece_sizes[] = {SIZE_MAX, 1, 13, 256};
  size_t piece = piece_sizes[(c0 >> 2) & 0x3];
  if (piece == 1 && input.size() > 2048) piece = 13;  // byte by byte costs a pass per byte

  run r{h, {}, nullptr};
  if ((c0 & 0x40) != 0) r.client.write_budget = 64;
  r.conn = std::make_unique<baton::session::session>(h.session_context, r.client, x::peer_info{"192.0.2.9", 40000});
  auto protocol = std::make_unique<h2::protocol>(h.context, *r.conn);
  if ((c1 & 0x8) != 0) {
    // The HTTP/1.1 request that asked for the switch, with the fields of
    // its connection that stream 1 must not carry, and no HTTP2-Settings.
    static const x::field fields[] = {{"Host", "localhost"},
                                      {"Connection", "Upgrade, HTTP2-Settings"},
                                      {"Upgrade", "h2c"},
                                      {"HTTP2-Settings", ""},
                                      {"Accept", "*/*"}};
    x::request_head upgrading;
    upgrading.method = "GET";
    upgrading.target = "/upgraded";
    upgrading.path = "/upgraded";
    upgrading.fields = fields;
    upgrading.field_count = sizeof fields / sizeof fields[0];
    protocol->expect_upgrade(std::string(), upgrading);
  }
  r.conn->start(std::move(protocol));
  r.client.input.append(preface);
  r.client.input.append(empty_settings);
  r.read_all();
  for (size_t at = 0; at < input.size() && !r.conn->closed(); at += piece) {
    r.client.input.append(input.substr(at, piece));
    r.read_all();
    r.pass(false);
  }
  r.pass(false);

  if ((c1 & 0x1) != 0 && !r.conn->closed()) {
    r.conn->drain();
    r.pass(false);
  }
  if ((c1 & 0x2) != 0 && !r.conn->closed()) {
    r.conn->abandon_app(INT64_MAX);
    r.pass(false);
  }
  r.client.write_budget = SIZE_MAX;
  if (!r.conn->closed()) {
    r.conn->on_io(event_loop::writable);
    r.pass(false);
  }
  if ((c0 & 0x20) != 0) {
    // The client has sent all: what is in flight is answered, then the connection closes.
    r.client.eof = true;
    r.read_all();
    if (!r.conn->closed() && (r.conn->interest() & event_loop::readable) != 0) r.conn->on_io(event_loop::readable);
    r.pass(true);
    r.pass(true);
    if (!r.conn->closed()) r.conn->close_now();
  } else {
    r.client.reset = true;
    r.conn->on_io(event_loop::readable | event_loop::error);
  }
  if (!r.conn->closed()) broken("the session is open after the client's end");
  if (r.protocol().open_streams() != 0) {
    broken("streams counted after the connection closed", std::to_string(r.protocol().open_streams()));
  }
  h.app.after_close();
  if (verbose()) {
    std::fprintf(stderr, "http2_fuzz: %zu exchanges made, %zu handed to the app, %zu bytes sent to the client\n",
                 h.app.made, h.app.requests.size(), r.client.output.size());
  }
  r.conn.reset();
  h.loop.run_once(0);
  h.app.check_recycled();
  return 0;
}
