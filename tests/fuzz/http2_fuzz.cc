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
// Checked for every input (abort() on failure, with what broke):
//   - every head the app sees keeps RFC 9113's rules baton enforces: a
//     method and a path, no connection-specific field, at most one cookie
//     field, host agreeing with :authority, no more fields than the limit;
//   - no app reads a body byte past the request's content-length or its
//     size limit, and a body that ends cleanly has exactly its length;
//   - once the session has closed, the protocol counts no stream, every
//     exchange the app still holds is cancelled and let go by the protocol,
//     and once the app lets go of them, every exchange made is recycled.
// AddressSanitizer, UBSan and LeakSanitizer watch the rest.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/session/protocol_host.h"
#include "core/http2/protocol.h"
#include "core/http2/response_head.h"
#include "core/loop/event_loop.h"
#include "core/session/session.h"
#include "core/util/log.h"
#include "core/util/text.h"
#include "unit/support/memory_transport.h"

namespace {

namespace h2 = baton::http2;
namespace x = baton::exchange;
using read_status = x::exchange::read_status;
using baton::loop::event_loop;

constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr std::string_view empty_settings("\0\0\0\4\0\0\0\0\0", 9);

[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "http2_fuzz: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

enum class app_mode : uint8_t { answer_now, read_then_answer, stream_with_trailers, leave };

// One exchange as the app holds it, from submit() until it lets go.
struct app_request {
  x::exchange* x = nullptr;
  int64_t content_length = -1;
  uint64_t read = 0;
  bool begun = false;  // its answer's head is committed
  bool done = false;   // the app let go of it
};

// Plays the server and the app, for every input (its exchanges are reused
// from one input to the next, as the server's free list reuses them).
struct fuzz_host final : baton::session::protocol_host, x::exchange_owner, baton::session::session_host {
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
  std::vector<std::unique_ptr<x::exchange>> owned;
  std::vector<x::exchange*> free_list;
  std::vector<app_request> requests;
  size_t made = 0;
  size_t recycled = 0;
  app_mode mode = app_mode::answer_now;
  bool fail_after_head = false;

  void reset(bool small) {
    requests.clear();
    made = recycled = 0;
    http = baton::session::http_settings();
    http.keep_alive_timeout_ms = 60000;
    http.header_read_timeout_ms = 60000;
    config = h2::settings();
    if (small) {
      http.request_limits.max_headers = 8;
      http.request_limits.max_body = 4096;
      config.max_header_list_size = 512;
      config.initial_window_size = 1024;
      config.max_concurrent_streams = 4;
      config.output_high_water = 1024;
      config.control_frame_burst = 16;
      config.reset_burst = 4;
    }
  }

  x::exchange* new_exchange() override {
    ++made;
    if (!free_list.empty()) {
      x::exchange* s = free_list.back();
      free_list.pop_back();
      return s;
    }
    owned.push_back(std::make_unique<x::exchange>(*this, loop, http.exchanges));
    return owned.back().get();
  }
  void submit(x::exchange* s) override {
    s->attach_app();
    s->set_direct(true);
    check_head(s->head());
    requests.push_back({s, s->head().content_length});
  }
  void session_closed(baton::session::session*, bool) override {}
  void session_lingering(baton::session::session*) override {}
  void exchange_news(x::exchange* s) override {
    if (s->links.sink != nullptr) s->links.sink->on_exchange_news(s);
  }
  void recycle(x::exchange* s) override {
    ++recycled;
    free_list.push_back(s);
  }

  // RFC 9113's rules as far as baton enforces them before the app.
  void check_head(const x::request_head& h) const {
    if (h.method.empty()) broken("an exchange without a method");
    if (h.target.empty()) broken("an exchange without a path");
    if (h.method == "CONNECT") broken("CONNECT reached the app");
    if (h.version_major != 2) broken("an HTTP/2 exchange that says another version");
    // The host field made from :authority is the one field past the limit.
    if (h.field_count > http.request_limits.max_headers + 1) {
      broken("more fields than the limit", std::to_string(h.field_count));
    }
    size_t cookies = 0;
    for (size_t i = 0; i < h.field_count; ++i) {
      std::string_view name = h.fields[i].name;
      std::string_view value = h.fields[i].value;
      if (name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
          name == "transfer-encoding" || name == "upgrade" ||
          (name == "te" && !baton::util::equals_ignore_case(value, "trailers"))) {
        broken("a connection-specific field reached the app", std::string(name));
      }
      if (name == "cookie") ++cookies;
      if (name == "host" && !h.authority.empty() && !baton::util::equals_ignore_case(value, h.authority)) {
        broken("host and :authority disagree", std::string(value) + " / " + std::string(h.authority));
      }
    }
    if (h.authority.find('@') != std::string_view::npos) broken("userinfo in :authority reached the app");
    if (cookies > 1) broken("cookie crumbs reached the app unjoined");
  }

  // Reads what has come of `r`'s body; true once it has ended (cleanly or not).
  static bool read_body(app_request& r, uint64_t max_body) {
    std::string_view view;
    while (true) {
      switch (r.x->try_read(view)) {
        case read_status::data:
          r.read += view.size();
          if (r.content_length >= 0 && r.read > static_cast<uint64_t>(r.content_length)) {
            broken("the app read past the content-length",
                   std::to_string(r.read) + " > " + std::to_string(r.content_length));
          }
          if (max_body != 0 && r.read > max_body) broken("the app read past the body size limit");
          r.x->consume(view.size());
          continue;
        case read_status::end:
          if (r.content_length >= 0 && r.read != static_cast<uint64_t>(r.content_length)) {
            broken("a body ended cleanly short of its content-length",
                   std::to_string(r.read) + " != " + std::to_string(r.content_length));
          }
          return true;
        case read_status::error:
          return true;
        case read_status::pending:
          return false;
      }
    }
  }

  // The app lets go of `r` (as the server does after an inline app). Its
  // protocol may hand the app another exchange meanwhile, which moves
  // `requests`: `r` is not touched after the first call out.
  static void let_go(app_request& r) {
    x::exchange* s = r.x;
    r.done = true;
    s->app_done();
    if (s->links.sink != nullptr) s->links.sink->on_app_done(s);
    s->release();
  }

  void finish(app_request& r) const {
    if (fail_after_head && r.begun) {
      r.x->fail();
    } else {
      r.x->finish();
    }
    let_go(r);
  }

  void begin(app_request& r, std::string_view body) {
    r.x->begin_response(200, "200 OK");
    r.x->add_header("content-type", "text/plain");
    r.x->send_past_window(body.data(), body.size());
    r.x->flush();
    r.begun = true;
  }

  // What the app does on this pass; `last`: the connection is ending, and
  // every request still held is answered.
  void run_apps(bool last) {
    for (size_t i = 0; i < requests.size(); ++i) {
      app_request& r = requests[i];
      if (r.done) continue;
      if (r.x->cancelled()) {
        read_body(r, http.request_limits.max_body);
        let_go(r);
        continue;
      }
      switch (mode) {
        case app_mode::answer_now:
          begin(r, "answered\n");
          finish(r);
          break;
        case app_mode::read_then_answer:
          if (read_body(r, http.request_limits.max_body) || last) {
            begin(r, std::to_string(r.read) + " bytes\n");
            finish(r);
          }
          break;
        case app_mode::stream_with_trailers:
          if (!r.begun) {
            begin(r, "first part\n");
            if (!last) break;
          }
          r.x->send_past_window("second part\n", 12);
          r.x->add_trailer("x-checksum", "12345");
          finish(r);
          break;
        case app_mode::leave:
          if (last) {
            read_body(r, http.request_limits.max_body);
            begin(r, "late\n");
            finish(r);
          }
          break;
      }
    }
  }
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
    host.run_apps(last);
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
  h.mode = static_cast<app_mode>(c0 & 0x3);
  h.fail_after_head = (c0 & 0x80) != 0;
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
  for (app_request& a : h.requests) {
    if (a.done) continue;
    if (a.x->links.sink != nullptr) broken("a closed connection's protocol is still an exchange's sink");
    if (!a.x->cancelled()) broken("an exchange the app holds was not cancelled when its connection closed");
    a.done = true;
    a.x->app_done();
    a.x->release();
  }
  if (verbose()) {
    std::fprintf(stderr, "http2_fuzz: %zu exchanges made, %zu handed to the app, %zu bytes sent to the client\n",
                 h.made, h.requests.size(), r.client.output.size());
  }
  r.conn.reset();
  h.loop.run_once(0);
  if (h.recycled != h.made) {
    broken("exchanges still referenced after the connection and the app let go",
           std::to_string(h.made - h.recycled) + " of " + std::to_string(h.made));
  }
  return 0;
}
