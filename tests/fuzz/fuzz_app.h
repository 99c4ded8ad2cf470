// The app and the exchange pool the protocol fuzz targets (http2_fuzz.cc,
// http3_fuzz.cc) hand their exchanges to, and the checks on what an app
// sees that every protocol with pseudo-fields must keep:
//   - every head keeps the request rules baton enforces before the app (a
//     method and a path, no connection-specific field, at most one cookie
//     field, host agreeing with :authority, no more fields than the limit,
//     no CONNECT but a WebSocket opening offered as one, the protocol's
//     own version);
//   - no app reads a body byte past the request's content-length or its
//     size limit, and a body that ends cleanly has exactly its length;
//   - once the connection has closed, every exchange the app still holds
//     is cancelled and let go by the protocol, and once the app lets go of
//     them, every exchange made is recycled.
// A broken check abort()s with what broke.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/loop/event_loop.h"
#include "core/session/protocol_host.h"
#include "core/util/text.h"

namespace baton::fuzz {

namespace x = baton::exchange;

[[noreturn]] inline void broken(const char* target, const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "%s: %s%s%s\n", target, what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

// What the app does with each exchange it is handed: answers at once
// without reading, reads its body and answers once it has ended, streams
// an answer with trailers without reading, or leaves it until the
// connection ends. A WebSocket opening is accepted (and its messages
// echoed) in every mode but the last.
enum class app_mode : uint8_t { answer_now, read_then_answer, stream_with_trailers, leave };

// One exchange as the app holds it, from submit() until it lets go.
struct app_request {
  x::exchange* x = nullptr;
  int64_t content_length = -1;
  uint64_t read = 0;
  bool begun = false;     // its answer's head is committed
  bool switched = false;  // a WebSocket it accepted
  bool done = false;      // the app let go of it
};

class fuzz_app final : public x::exchange_owner {
 public:
  fuzz_app(const char* target, loop::event_loop& loop, const x::exchange_settings& settings)
      : target_(target), loop_(loop), settings_(settings) {}

  app_mode mode = app_mode::answer_now;
  bool fail_after_head = false;  // an app that has begun its answer fails instead of finishing it
  uint64_t max_body = 0;
  size_t max_headers = 100;
  uint8_t version = 2;
  std::vector<app_request> requests;
  size_t made = 0;
  size_t recycled = 0;

  // A fresh input: `http` back to its defaults (with small limits when
  // asked: fields, body), which the app's checks then follow.
  void reset(session::http_settings& http, bool small, uint8_t protocol_version) {
    requests.clear();
    made = recycled = 0;
    http = session::http_settings();
    if (small) {
      http.request_limits.max_headers = 8;
      http.request_limits.max_body = 4096;
    }
    max_body = http.request_limits.max_body;
    max_headers = http.request_limits.max_headers;
    version = protocol_version;
  }

  // A fresh exchange for the protocol (reused from one input to the next,
  // as the server's free list reuses them).
  x::exchange* take_exchange() {
    ++made;
    if (!free_list_.empty()) {
      x::exchange* s = free_list_.back();
      free_list_.pop_back();
      return s;
    }
    owned_.push_back(std::make_unique<x::exchange>(*this, loop_, settings_));
    return owned_.back().get();
  }

  // The protocol hands the app an exchange.
  void submit(x::exchange* s) {
    s->attach_app();
    s->set_direct(true);
    check_head(s->head(), s->upgrade().websocket());
    requests.push_back({s, s->head().content_length});
  }

  // x::exchange_owner
  void exchange_news(x::exchange* s) override {
    if (s->links.sink != nullptr) s->links.sink->on_exchange_news(s);
  }
  void recycle(x::exchange* s) override {
    ++recycled;
    free_list_.push_back(s);
  }

  // What the app does on this pass; `last`: the connection is ending, and
  // every request still held is answered.
  void run(bool last) {
    for (size_t i = 0; i < requests.size(); ++i) {
      app_request& r = requests[i];
      if (r.done) continue;
      if (r.x->cancelled()) {
        if (!r.switched) read_body(r);
        let_go(r);
        continue;
      }
      if (r.x->upgrade().websocket() && mode != app_mode::leave) {
        converse(r, last);
        continue;
      }
      switch (mode) {
        case app_mode::answer_now:
          begin(r, "answered\n");
          finish(r);
          break;
        case app_mode::read_then_answer:
          if (read_body(r) || last) {
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
            read_body(r);
            begin(r, "late\n");
            finish(r);
          }
          break;
      }
    }
  }

  // The connection has closed: every exchange the app still holds must be
  // cancelled and no longer the protocol's; the app lets go of them.
  void after_close() {
    for (app_request& a : requests) {
      if (a.done) continue;
      if (a.x->links.sink != nullptr) broken(target_, "a closed connection's protocol is still an exchange's sink");
      if (!a.x->cancelled()) broken(target_, "an exchange the app holds was not cancelled when its connection closed");
      a.done = true;
      a.x->app_done();
      a.x->release();
    }
  }

  // Once the connection and the app have let go, every exchange made is back.
  void check_recycled() const {
    if (recycled != made) {
      broken(target_, "exchanges still referenced after the connection and the app let go",
             std::to_string(made - recycled) + " of " + std::to_string(made));
    }
  }

 private:
  // The request rules as far as baton enforces them before the app.
  void check_head(const x::request_head& h, bool websocket) const {
    if (h.method.empty()) broken(target_, "an exchange without a method");
    if (h.target.empty()) broken(target_, "an exchange without a path");
    if (h.method == "CONNECT" && !websocket) broken(target_, "a CONNECT that is not a WebSocket opening reached the app");
    if (h.version_major != version) broken(target_, "an exchange that says another version");
    // The host field made from :authority is the one field past the limit.
    if (h.field_count > max_headers + 1) broken(target_, "more fields than the limit", std::to_string(h.field_count));
    size_t cookies = 0;
    for (size_t i = 0; i < h.field_count; ++i) {
      std::string_view name = h.fields[i].name;
      std::string_view value = h.fields[i].value;
      if (name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
          name == "transfer-encoding" || name == "upgrade" ||
          (name == "te" && !util::equals_ignore_case(value, "trailers"))) {
        broken(target_, "a connection-specific field reached the app", std::string(name));
      }
      if (name == "cookie") ++cookies;
      if (name == "host" && !h.authority.empty() && !util::equals_ignore_case(value, h.authority)) {
        broken(target_, "host and :authority disagree", std::string(value) + " / " + std::string(h.authority));
      }
    }
    if (h.authority.find('@') != std::string_view::npos) broken(target_, "userinfo in :authority reached the app");
    if (cookies > 1) broken(target_, "cookie crumbs reached the app unjoined");
  }

  // Reads what has come of `r`'s body; true once it has ended (cleanly or not).
  bool read_body(app_request& r) const {
    std::string_view view;
    while (true) {
      switch (r.x->try_read(view)) {
        case x::exchange::read_status::data:
          r.read += view.size();
          if (r.content_length >= 0 && r.read > static_cast<uint64_t>(r.content_length)) {
            broken(target_, "the app read past the content-length",
                   std::to_string(r.read) + " > " + std::to_string(r.content_length));
          }
          if (max_body != 0 && r.read > max_body) broken(target_, "the app read past the body size limit");
          r.x->consume(view.size());
          continue;
        case x::exchange::read_status::end:
          if (r.content_length >= 0 && r.read != static_cast<uint64_t>(r.content_length)) {
            broken(target_, "a body ended cleanly short of its content-length",
                   std::to_string(r.read) + " != " + std::to_string(r.content_length));
          }
          return true;
        case x::exchange::read_status::error:
          return true;
        case x::exchange::read_status::pending:
          return false;
      }
    }
  }

  // A WebSocket opening: accepted, then every message echoed until the
  // client's close (answered with the app's own) or the connection's end.
  void converse(app_request& r, bool last) {
    if (!r.switched) {
      r.switched = true;
      r.x->begin_switch_response();
      r.x->finish();
    }
    x::client_message m;
    while (r.x->try_read_message(m) == x::exchange::read_status::data) {
      if (m.kind == x::message_kind::close) {
        r.x->consume_message();
        std::string close = x::close_payload(1000, "bye");
        r.x->send_message(x::message_kind::close, close.data(), close.size());
        let_go(r);
        return;
      }
      r.x->send_message(m.kind, m.payload.data(), m.payload.size());
      r.x->consume_message();
    }
    if (last) let_go(r);
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

  static void begin(app_request& r, std::string_view body) {
    r.x->begin_response(200, "200 OK");
    r.x->add_header("content-type", "text/plain");
    r.x->send_past_window(body.data(), body.size());
    r.x->flush();
    r.begun = true;
  }

  const char* target_;
  loop::event_loop& loop_;
  const x::exchange_settings& settings_;
  std::vector<std::unique_ptr<x::exchange>> owned_;
  std::vector<x::exchange*> free_list_;
};

}  // namespace baton::fuzz
