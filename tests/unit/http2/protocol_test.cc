// Unit tests for HTTP/2 on a session (src/core/http2/protocol.h) and the
// exchanges it feeds, with no socket: the session runs over an in-memory
// transport, and the test plays the client (frames encoded here, header
// blocks by nghttp2's HPACK deflater, the server's frames read back here
// and their header blocks by nghttp2's inflater) and the application (the
// exchanges it is handed), as the server does.
#include "core/http2/protocol.h"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/handoff/parker.h"
#include "core/session/protocol_host.h"
#include "core/http2/response_head.h"
#include "core/loop/event_loop.h"
#include "core/session/session.h"
#include "unit/support/memory_transport.h"

namespace {

namespace h2 = baton::http2;
namespace x = baton::exchange;
using read_status = x::exchange::read_status;
using send_status = x::exchange::send_status;
using baton::loop::event_loop;
using baton::test::memory_transport;
using fields_list = std::vector<std::pair<std::string, std::string>>;

constexpr uint8_t DATA = 0x0, HEADERS = 0x1, RST_STREAM = 0x3, SETTINGS = 0x4, GOAWAY = 0x7, WINDOW_UPDATE = 0x8;
constexpr uint8_t END_STREAM = 0x1, ACK = 0x1, END_HEADERS = 0x4;
constexpr uint32_t PROTOCOL_ERROR = 0x1, CANCEL = 0x8, ENHANCE_YOUR_CALM = 0xb;
constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// --- the client's side of the wire ---------------------------------------------

std::string frame(uint8_t type, uint8_t flags, int32_t stream, std::string_view payload) {
  std::string f;
  auto length = static_cast<uint32_t>(payload.size());
  f += static_cast<char>((length >> 16) & 0xff);
  f += static_cast<char>((length >> 8) & 0xff);
  f += static_cast<char>(length & 0xff);
  f += static_cast<char>(type);
  f += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) f += static_cast<char>((static_cast<uint32_t>(stream) >> shift) & 0xff);
  f.append(payload);
  return f;
}

std::string u32(uint32_t v) {
  std::string s;
  for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((v >> shift) & 0xff);
  return s;
}

uint32_t read_u32(std::string_view p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

std::string data(int32_t stream, std::string_view bytes, bool end_stream) {
  return frame(DATA, end_stream ? END_STREAM : 0, stream, bytes);
}
std::string rst_stream(int32_t stream, uint32_t code) { return frame(RST_STREAM, 0, stream, u32(code)); }

// A frame the server sent, its header block decoded.
struct seen_frame {
  uint8_t type = 0;
  uint8_t flags = 0;
  int32_t stream = 0;
  std::string payload;
  fields_list fields;

  uint32_t code() const { return read_u32(type == GOAWAY ? std::string_view(payload).substr(4) : payload); }
  std::string field(std::string_view name) const {
    for (const auto& [n, v] : fields) {
      if (n == name) return v;
    }
    return "(none)";
  }
  bool ends_stream() const { return (flags & END_STREAM) != 0; }
};

// HPACK both ways, with nghttp2's own coder: the server's inflater state
// follows every block this one deflates, so a block it failed to decode
// whole would show in the next.
class client_codec {
 public:
  client_codec() {
    nghttp2_hd_deflate_new(&deflater_, 4096);
    nghttp2_hd_inflate_new(&inflater_);
  }
  ~client_codec() {
    nghttp2_hd_deflate_del(deflater_);
    nghttp2_hd_inflate_del(inflater_);
  }
  client_codec(const client_codec&) = delete;
  client_codec& operator=(const client_codec&) = delete;

  std::string block(const fields_list& fields) {
    std::vector<nghttp2_nv> nva;
    for (const auto& [name, value] : fields) {
      nva.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                     reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                     NGHTTP2_NV_FLAG_NONE});
    }
    std::string out(nghttp2_hd_deflate_bound(deflater_, nva.data(), nva.size()), '\0');
    ssize_t n = nghttp2_hd_deflate_hd(deflater_, reinterpret_cast<uint8_t*>(out.data()), out.size(), nva.data(),
                                      nva.size());
    EXPECT_GE(n, 0);
    out.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return out;
  }

  std::string headers(int32_t stream, const fields_list& fields, bool end_stream) {
    return frame(HEADERS, END_HEADERS | (end_stream ? END_STREAM : 0), stream, block(fields));
  }

  // Takes the whole frames from the front of `bytes`.
  std::vector<seen_frame> read(std::string& bytes) {
    std::vector<seen_frame> frames;
    size_t at = 0;
    while (bytes.size() - at >= 9) {
      auto length = (static_cast<size_t>(static_cast<unsigned char>(bytes[at])) << 16) |
                    (static_cast<size_t>(static_cast<unsigned char>(bytes[at + 1])) << 8) |
                    static_cast<unsigned char>(bytes[at + 2]);
      if (bytes.size() - at < 9 + length) break;
      seen_frame f;
      f.type = static_cast<uint8_t>(bytes[at + 3]);
      f.flags = static_cast<uint8_t>(bytes[at + 4]);
      f.stream = static_cast<int32_t>(read_u32(std::string_view(bytes).substr(at + 5)) & 0x7fffffff);
      f.payload = bytes.substr(at + 9, length);
      at += 9 + length;
      if (f.type == HEADERS) {
        EXPECT_NE(f.flags & END_HEADERS, 0) << "the server's header blocks here fit one frame";
        f.fields = inflate(f.payload);
      }
      frames.push_back(std::move(f));
    }
    bytes.erase(0, at);
    return frames;
  }

 private:
  fields_list inflate(std::string_view block) {
    fields_list fields;
    auto in = reinterpret_cast<const uint8_t*>(block.data());
    size_t left = block.size();
    while (true) {
      nghttp2_nv nv;
      int flags = 0;
      ssize_t n = nghttp2_hd_inflate_hd2(inflater_, &nv, &flags, in, left, 1);
      if (n < 0) {
        ADD_FAILURE() << "the server's header block did not decode: " << nghttp2_strerror(static_cast<int>(n));
        return fields;
      }
      in += n;
      left -= static_cast<size_t>(n);
      if ((flags & NGHTTP2_HD_INFLATE_EMIT) != 0) {
        fields.emplace_back(std::string(reinterpret_cast<const char*>(nv.name), nv.namelen),
                            std::string(reinterpret_cast<const char*>(nv.value), nv.valuelen));
      }
      if ((flags & NGHTTP2_HD_INFLATE_FINAL) != 0) {
        nghttp2_hd_inflate_end_headers(inflater_);
        return fields;
      }
      if (n == 0 && (flags & NGHTTP2_HD_INFLATE_EMIT) == 0 && left == 0) return fields;
    }
  }

  nghttp2_hd_deflater* deflater_ = nullptr;
  nghttp2_hd_inflater* inflater_ = nullptr;
};

fields_list request(std::string method, std::string path, const fields_list& more = {}) {
  fields_list f = {{":method", std::move(method)}, {":scheme", "http"}, {":path", std::move(path)},
                   {":authority", "example.com"}};
  f.insert(f.end(), more.begin(), more.end());
  return f;
}

// --- the server's and the application's side -------------------------------------

struct counting_waker final : x::app_waker {
  void wake() override { ++wakes; }
  int wakes = 0;
};

// Plays the server: makes exchanges (recycling them, as the server does)
// and collects what the protocol hands to the application.
struct test_host final : baton::session::protocol_host,
                         x::exchange_owner,
                         baton::session::session_host,
                         baton::loop::inbox_handler {
  test_host() {
    http.keep_alive_timeout_ms = 60000;
    http.header_read_timeout_ms = 60000;
    loop.set_inbox_handler(this);
  }

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
  std::vector<x::exchange*> submitted;
  int made = 0;
  int recycled = 0;
  int completed = 0;
  int closed_count = 0;
  // Pooled: an exchange's news and its done notice reach the loop through
  // its inbox, as from an app thread; else the app runs inline (direct).
  bool pooled = false;

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
    s->set_direct(!pooled);
    submitted.push_back(s);
  }
  void request_done(x::exchange*) override { ++completed; }
  void session_closed(baton::session::session*, bool) override { ++closed_count; }
  void session_lingering(baton::session::session*) override {}
  void exchange_news(x::exchange* s) override {
    if (s->links.sink != nullptr) s->links.sink->on_exchange_news(s);
  }
  void recycle(x::exchange* s) override {
    ++recycled;
    free_list.push_back(s);
  }

  // What other threads posted, taken as the server takes it
  // (server::on_notices): news goes to the exchange's sink; a done notice
  // finishes the exchange and drops the app side's reference.
  void on_notices(baton::handoff::notice_link* list) override {
    while (list != nullptr) {
      baton::handoff::notice_link* next = list->notice_next;
      bool is_done = false;
      x::exchange* s = x::exchange::from_notice(list, is_done);
      if (is_done) {
        finish(s);
      } else {
        s->clear_queued();
        exchange_news(s);
        s->release();  // the inbox's reference
      }
      list = next;
    }
  }
  void finish(x::exchange* s) {
    if (s->links.sink != nullptr) s->links.sink->on_app_done(s);
    s->release();
  }

  // The app side is done with `s`: an inline app's exchange is finished at
  // once (as the server does after an inline app); a pooled one's done
  // notice is taken from the inbox on the loop's next pass.
  void done(x::exchange* s) {
    s->app_done();
    if (s->direct()) finish(s);
  }
  // Answers `s` with a fixed body and finishes it.
  void answer(x::exchange* s, std::string_view body) {
    s->begin_response(200, "200 OK");
    std::string length = std::to_string(body.size());
    s->add_header("content-length", length);
    EXPECT_EQ(s->try_send(body.data(), body.size()), send_status::accepted);
    s->finish();
    done(s);
  }
};

struct http2_fixture : ::testing::Test {
  test_host host;
  memory_transport client;
  client_codec codec;
  std::unique_ptr<baton::session::session> conn;
  std::string unread;               // the server's bytes not yet whole frames
  std::vector<seen_frame> frames;   // every frame the server sent, in order

  // The connection, with the client's preface, an empty SETTINGS and the
  // acknowledgement of the server's (sent at start).
  void open() {
    conn = std::make_unique<baton::session::session>(host.session_context, client, x::peer_info{"192.0.2.7", 40000});
    conn->start(std::make_unique<h2::protocol>(host.context, *conn));
    send(std::string(preface) + frame(SETTINGS, 0, 0, "") + frame(SETTINGS, ACK, 0, ""));
  }
  h2::protocol& protocol() { return static_cast<h2::protocol&>(*conn->current_protocol()); }

  // The client sends `bytes`; the connection reads until it would block,
  // then runs what is due (news from the app goes out on the loop's pass).
  void send(std::string_view bytes) {
    client.input.append(bytes);
    while (client.read_pos < client.input.size() && !conn->closed() &&
           (conn->interest() & event_loop::readable) != 0) {
      conn->on_io(event_loop::readable);
    }
    pump();
  }
  void pump() {
    host.loop.run_once(0);
    collect();
  }
  void collect() {
    unread += client.take_output();
    for (seen_frame& f : codec.read(unread)) frames.push_back(std::move(f));
  }
  // The frames of `type` on `stream` the server sent so far.
  std::vector<seen_frame> sent(uint8_t type, int32_t stream) const {
    std::vector<seen_frame> out;
    for (const seen_frame& f : frames) {
      if (f.type == type && f.stream == stream) out.push_back(f);
    }
    return out;
  }
  std::string body_sent(int32_t stream) const {
    std::string body;
    for (const seen_frame& f : sent(DATA, stream)) body += f.payload;
    return body;
  }
  bool stream_ended(int32_t stream) const {
    for (const seen_frame& f : frames) {
      if (f.stream == stream && (f.type == DATA || f.type == HEADERS) && f.ends_stream()) return true;
    }
    return false;
  }
  x::exchange* last() { return host.submitted.empty() ? nullptr : host.submitted.back(); }

  // Consumes what the exchange holds of its body without looking at it.
  static size_t skip_body(x::exchange* s) {
    size_t n = 0;
    std::string_view view;
    while (s->try_read(view) == read_status::data) {
      n += view.size();
      s->consume(view.size());
    }
    return n;
  }
  // Reads what the exchange holds of its body, consuming up to `limit` bytes.
  static std::string take_body(x::exchange* s, size_t limit = SIZE_MAX) {
    std::string body;
    std::string_view view;
    while (body.size() < limit && s->try_read(view) == read_status::data) {
      size_t n = std::min(view.size(), limit - body.size());
      body.append(view.substr(0, n));
      s->consume(n);
    }
    return body;
  }
};

// --- requests become exchanges -----------------------------------------------------

TEST_F(http2_fixture, ARequestBecomesOneExchangeWithTheMethodPathFieldsAndBodyTheClientSent) {
  open();
  send(codec.headers(1, request("POST", "/upload?x=1", {{"x-a", "b"}, {"content-length", "5"}}), false) +
       data(1, "hello", true));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  const x::request_head& h = s->head();
  EXPECT_EQ(h.method, "POST");
  EXPECT_EQ(h.target, "/upload?x=1");
  EXPECT_EQ(h.path, "/upload");
  EXPECT_EQ(h.query, "x=1");
  EXPECT_EQ(h.authority, "example.com");
  EXPECT_EQ(h.version_major, 2);
  EXPECT_EQ(h.content_length, 5);
  fields_list fields;
  for (size_t i = 0; i < h.field_count; ++i) fields.emplace_back(h.fields[i].name, h.fields[i].value);
  fields_list expected = {{"host", "example.com"}, {"x-a", "b"}, {"content-length", "5"}};
  EXPECT_EQ(fields, expected);
  EXPECT_EQ(s->peer().address, "192.0.2.7");
  // The exchange holds its own copy: not the bytes the frames came in.
  host.shared.bytes.clear();
  std::memset(host.shared.bytes.prepare(4096), 'Z', 4096);
  EXPECT_EQ(h.fields[1].value, "b");
  EXPECT_EQ(h.method, "POST");
  EXPECT_EQ(take_body(s), "hello");
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::end);

  host.answer(s, "stored");
  pump();
  std::vector<seen_frame> heads = sent(HEADERS, 1);
  ASSERT_EQ(heads.size(), 1u);
  EXPECT_EQ(heads[0].field(":status"), "200");
  EXPECT_EQ(heads[0].field("content-length"), "6");
  EXPECT_EQ(body_sent(1), "stored");
  EXPECT_TRUE(stream_ended(1));
  EXPECT_EQ(protocol().open_streams(), 0u);
  EXPECT_EQ(host.recycled, host.made) << "the answered stream still holds its exchange";
}

TEST_F(http2_fixture, StreamsOfOneConnectionAreSeparateExchangesAnsweredOnTheirOwnStreams) {
  open();
  // One statement per block: the deflater's state follows the order they are made in.
  std::string both = codec.headers(1, request("GET", "/one"), true);
  both += codec.headers(3, request("GET", "/two"), true);
  send(both);
  ASSERT_EQ(host.submitted.size(), 2u);
  EXPECT_EQ(host.submitted[0]->head().path, "/one");
  EXPECT_EQ(host.submitted[1]->head().path, "/two");
  host.answer(host.submitted[1], "second");
  host.answer(host.submitted[0], "first");
  pump();
  EXPECT_EQ(body_sent(1), "first");
  EXPECT_EQ(body_sent(3), "second");
  EXPECT_TRUE(stream_ended(1));
  EXPECT_TRUE(stream_ended(3));
}

TEST_F(http2_fixture, CookieCrumbsReachTheAppAsOneField) {
  open();
  send(codec.headers(1, request("GET", "/", {{"cookie", "a=1"}, {"accept", "*/*"}, {"cookie", "b=2"}}), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  const x::request_head& h = last()->head();
  EXPECT_EQ(h.find("cookie"), "a=1; b=2");
  size_t cookies = 0;
  for (size_t i = 0; i < h.field_count; ++i) cookies += h.fields[i].name == "cookie" ? 1 : 0;
  EXPECT_EQ(cookies, 1u);
  host.answer(last(), "");
}

TEST_F(http2_fixture, RequestTrailersEndTheBodyAndAreNotPassedOn) {
  open();
  std::string bytes = codec.headers(1, request("POST", "/"), false) + data(1, "abc", false);
  bytes += codec.headers(1, {{"x-checksum", "1"}}, true);
  send(bytes);
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_EQ(take_body(s), "abc");
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::end);
  EXPECT_EQ(s->head().find("x-checksum"), "");
  host.answer(s, "ok");
  pump();
  EXPECT_EQ(body_sent(1), "ok");
}

TEST_F(http2_fixture, AnAppsTrailersGoOutInALastHeadersFrameThatEndsTheStream) {
  open();
  send(codec.headers(1, request("GET", "/", {{"te", "trailers"}}), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  s->begin_response(200, "200 OK");
  ASSERT_EQ(s->try_send("body", 4), send_status::accepted);
  ASSERT_TRUE(s->add_trailer("X-Checksum", "abc123"));
  s->finish();
  host.done(s);
  pump();
  std::vector<seen_frame> heads = sent(HEADERS, 1);
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_EQ(heads[0].field(":status"), "200");
  EXPECT_FALSE(heads[0].ends_stream());
  EXPECT_EQ(body_sent(1), "body");
  for (const seen_frame& f : sent(DATA, 1)) {
    EXPECT_FALSE(f.ends_stream()) << "the body ended the stream before its trailers";
  }
  fields_list trailers = {{"x-checksum", "abc123"}};
  EXPECT_EQ(heads[1].fields, trailers);
  EXPECT_TRUE(heads[1].ends_stream());
}

// Sends a 103 with `links` from the app side of `s`.
void hint(x::exchange* s, std::initializer_list<std::string_view> links) {
  s->begin_interim();
  for (std::string_view link : links) ASSERT_TRUE(s->add_interim_field("Link", link));
  ASSERT_TRUE(s->send_interim(103));
}

TEST_F(http2_fixture, AnInlineAppsInterimResponseIsOnTheWireBeforeItReturns) {
  open();
  send(codec.headers(1, request("GET", "/"), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  hint(s, {"</a.css>; rel=preload"});
  collect();  // no loop pass: the app still holds the loop's thread
  std::vector<seen_frame> heads = sent(HEADERS, 1);
  ASSERT_EQ(heads.size(), 1u);
  fields_list expected = {{":status", "103"}, {"link", "</a.css>; rel=preload"}};
  EXPECT_EQ(heads[0].fields, expected);
  EXPECT_FALSE(heads[0].ends_stream());
  host.answer(s, "ok");
  pump();
  heads = sent(HEADERS, 1);
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_EQ(heads[1].field(":status"), "200");
  EXPECT_EQ(body_sent(1), "ok");
  EXPECT_TRUE(stream_ended(1));
}

TEST_F(http2_fixture, InterimResponsesQueuedWithTheHeadGoOutBeforeItInOrder) {
  host.pooled = true;
  open();
  send(codec.headers(1, request("GET", "/"), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  // All of it before the loop looks: it finds the head ready and two
  // interim responses queued.
  hint(s, {"</a.css>; rel=preload", "</b.js>; rel=preload"});
  hint(s, {"</c.css>; rel=preload"});
  host.answer(s, "ok");
  EXPECT_FALSE(s->send_interim(103)) << "after the head, nothing may come before it";
  pump();
  pump();
  std::vector<seen_frame> heads = sent(HEADERS, 1);
  ASSERT_EQ(heads.size(), 3u);
  fields_list first = {{":status", "103"}, {"link", "</a.css>; rel=preload"}, {"link", "</b.js>; rel=preload"}};
  fields_list second = {{":status", "103"}, {"link", "</c.css>; rel=preload"}};
  EXPECT_EQ(heads[0].fields, first);
  EXPECT_EQ(heads[1].fields, second);
  EXPECT_FALSE(heads[0].ends_stream());
  EXPECT_FALSE(heads[1].ends_stream());
  EXPECT_EQ(heads[2].field(":status"), "200");
  EXPECT_EQ(body_sent(1), "ok");
  EXPECT_TRUE(stream_ended(1));
}

TEST_F(http2_fixture, AnInterimResponseOfARequestThatWentIsNotSentForTheNext) {
  host.pooled = true;
  open();
  send(codec.headers(1, request("GET", "/"), true));
  x::exchange* s = last();
  hint(s, {"</stale.css>; rel=preload"});
  // The client resets the stream before the loop took the hint.
  send(rst_stream(1, NGHTTP2_CANCEL));
  host.done(s);
  pump();
  send(codec.headers(3, request("GET", "/next"), true));
  ASSERT_EQ(host.submitted.size(), 2u);
  x::exchange* next = last();
  EXPECT_EQ(next, s) << "the exchange is recycled for the next request";
  hint(next, {"</fresh.css>; rel=preload"});
  host.answer(next, "ok");
  pump();
  pump();
  std::vector<seen_frame> heads = sent(HEADERS, 3);
  ASSERT_EQ(heads.size(), 2u);
  fields_list fresh = {{":status", "103"}, {"link", "</fresh.css>; rel=preload"}};
  EXPECT_EQ(heads[0].fields, fresh);
  EXPECT_TRUE(sent(HEADERS, 1).empty());
}

// --- malformed and refused requests never reach the app ------------------------------

TEST_F(http2_fixture, DataPastTheContentLengthResetsTheStreamWithProtocolErrorBeforeTheApp) {
  open();
  send(codec.headers(1, request("POST", "/", {{"content-length", "3"}}), false) + data(1, "hello", true));
  std::vector<seen_frame> resets = sent(RST_STREAM, 1);
  ASSERT_EQ(resets.size(), 1u);
  EXPECT_EQ(resets[0].code(), PROTOCOL_ERROR);
  EXPECT_TRUE(host.submitted.empty()) << "a malformed request reached the app";
  EXPECT_TRUE(sent(HEADERS, 1).empty());
  EXPECT_EQ(protocol().open_streams(), 0u);
  EXPECT_EQ(host.recycled, host.made);
}

// A padded frame's payload is known only as it is read: a body of padded
// and unpadded frames that adds up to its content-length is whole, not
// judged short by the unpadded frames' headers alone.
TEST_F(http2_fixture, ABodyOfPaddedAndUnpaddedFramesThatAddsUpToItsContentLengthIsWhole) {
  open();
  std::string padded = std::string(1, '\x02') + "abcd" + std::string(2, '\0');  // pad length, data, padding
  send(codec.headers(1, request("POST", "/", {{"content-length", "8"}}), false) + frame(DATA, 0x8, 1, padded) +
       data(1, "efgh", true));
  EXPECT_TRUE(sent(RST_STREAM, 1).empty());
  ASSERT_EQ(host.submitted.size(), 1u);
  EXPECT_EQ(take_body(last()), "abcdefgh");
  host.answer(last(), "ok");
}

TEST_F(http2_fixture, ABodyShorterThanItsContentLengthResetsTheStreamWithProtocolErrorBeforeTheApp) {
  open();
  send(codec.headers(1, request("POST", "/", {{"content-length", "10"}}), false) + data(1, "hello", true));
  std::vector<seen_frame> resets = sent(RST_STREAM, 1);
  ASSERT_EQ(resets.size(), 1u);
  EXPECT_EQ(resets[0].code(), PROTOCOL_ERROR);
  EXPECT_TRUE(host.submitted.empty()) << "a malformed request reached the app";
  EXPECT_EQ(protocol().open_streams(), 0u);
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, DataPastTheContentLengthAfterTheAppStartedFailsItsReadWith400AndResetsTheStream) {
  open();
  send(codec.headers(1, request("POST", "/", {{"content-length", "3"}}), false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  counting_waker waker;
  s->set_waker(&waker);
  send(data(1, "hello", true));
  std::vector<seen_frame> resets = sent(RST_STREAM, 1);
  ASSERT_EQ(resets.size(), 1u);
  EXPECT_EQ(resets[0].code(), PROTOCOL_ERROR);
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::error) << "the app saw bytes past the content-length";
  EXPECT_EQ(s->body_error_status(), 400);
  EXPECT_GE(waker.wakes, 1);
  host.done(s);
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, MoreFieldsThanMaxHeadersAre431OnThatStreamAndTheNextStreamIsServed) {
  ASSERT_EQ(host.http.request_limits.max_headers, 100u);
  open();
  fields_list many;
  for (int i = 0; i < 150; ++i) many.emplace_back("x-field-" + std::to_string(i), "value-" + std::to_string(i));
  send(codec.headers(1, request("GET", "/many", many), true));
  EXPECT_TRUE(host.submitted.empty()) << "a request over --max-headers reached the app";
  std::vector<seen_frame> refused = sent(HEADERS, 1);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].field(":status"), "431");
  EXPECT_TRUE(stream_ended(1));
  EXPECT_TRUE(sent(GOAWAY, 0).empty());

  // The next block refers to fields the refused one put in the HPACK
  // table (the deflater indexes them): the server decoded all of it.
  fields_list some(many.begin() + 140, many.end());
  send(codec.headers(3, request("GET", "/few", some), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_EQ(s->head().path, "/few");
  EXPECT_EQ(s->head().find("x-field-149"), "value-149");
  EXPECT_EQ(s->head().find("x-field-140"), "value-140");
  host.answer(s, "served");
  pump();
  EXPECT_EQ(body_sent(3), "served");
  EXPECT_TRUE(sent(GOAWAY, 0).empty());
}

TEST_F(http2_fixture, AHostNamingAnotherOriginThanTheAuthorityIs400WithoutTheApp) {
  open();
  send(codec.headers(1, request("GET", "/", {{"host", "elsewhere.example"}}), true));
  EXPECT_TRUE(host.submitted.empty());
  std::vector<seen_frame> refused = sent(HEADERS, 1);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].field(":status"), "400");
}

TEST_F(http2_fixture, ConnectIsAnswered501WithoutTheApp) {
  open();
  send(codec.headers(1, {{":method", "CONNECT"}, {":authority", "example.com:443"}}, true));
  EXPECT_TRUE(host.submitted.empty());
  std::vector<seen_frame> answered = sent(HEADERS, 1);
  ASSERT_EQ(answered.size(), 1u);
  EXPECT_EQ(answered[0].field(":status"), "501");
}

// --- flow control ----------------------------------------------------------------------

// nghttp2 sends a stream's WINDOW_UPDATE once half its window is consumed,
// so the app consuming exactly half is the smallest give-back that shows.
// The window goes back when the app's news reaches the loop: here its
// answer's first bytes, as an app that streams its answer while it reads.
TEST_F(http2_fixture, TheStreamWindowIsGivenBackByExactlyTheBytesTheAppConsumed) {
  host.config.initial_window_size = 65536;
  open();
  std::string chunk(16384, 'b');
  send(codec.headers(1, request("POST", "/", {{"content-length", "131072"}}), false) + data(1, chunk, false) +
       data(1, chunk, false) + data(1, chunk, false) + data(1, chunk, false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_TRUE(sent(WINDOW_UPDATE, 1).empty()) << "the window went back before the app read anything";

  EXPECT_EQ(take_body(s, 32768).size(), 32768u);
  s->begin_response(200, "200 OK");
  ASSERT_EQ(s->try_send("reading\n", 8), send_status::accepted);
  s->flush();
  pump();
  std::vector<seen_frame> updates = sent(WINDOW_UPDATE, 1);
  ASSERT_EQ(updates.size(), 1u) << "the app consumed half the window and none of it went back";
  EXPECT_EQ(read_u32(updates[0].payload), 32768u) << "more went back than the app consumed";

  // The client uses what came back; the app takes all of it, and its news
  // gives back exactly that.
  send(data(1, chunk, false) + data(1, chunk, false));
  EXPECT_EQ(sent(WINDOW_UPDATE, 1).size(), 1u) << "bytes the app had not consumed went back";
  // (the next consume is the app's own news)
  EXPECT_EQ(take_body(s).size(), 65536u);
  ASSERT_EQ(s->try_send("more\n", 5), send_status::accepted);
  s->flush();
  pump();
  // Each consume tells the loop (the app may be waiting in its next read),
  // so the window may come back in several updates: in all, exactly what
  // the app consumed.
  updates = sent(WINDOW_UPDATE, 1);
  uint64_t given_back = 0;
  for (const seen_frame& u : updates) given_back += read_u32(u.payload);
  EXPECT_EQ(given_back, 32768u + 65536u);
  EXPECT_EQ(body_sent(1), "reading\nmore\n");
  send(data(1, chunk, false) + data(1, chunk, true));
  EXPECT_EQ(take_body(s).size(), 32768u);
  s->finish();
  host.done(s);
  pump();
  EXPECT_TRUE(stream_ended(1));
}

// A read into the app's own buffer for more than has come (WSGI's read(n))
// gives back what it copied at once: the client may then send the rest.
// An ASGI receive() loop: the app consumes what came and waits for more
// (try_read pending), publishing nothing. The loop must still give the
// window back, or the client, out of window, never sends the rest.
TEST_F(http2_fixture, AnAppThatConsumesTheWindowAndWaitsGetsItGivenBack) {
  host.config.initial_window_size = 65536;
  open();
  std::string chunk(16384, 'w');
  send(codec.headers(1, request("POST", "/", {{"content-length", "131072"}}), false) + data(1, chunk, false) +
       data(1, chunk, false) + data(1, chunk, false) + data(1, chunk, false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_EQ(take_body(s).size(), 65536u);
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::pending);
  pump();
  std::vector<seen_frame> updates = sent(WINDOW_UPDATE, 1);
  ASSERT_EQ(updates.size(), 1u) << "the app consumed the whole window and none of it went back";
  EXPECT_EQ(read_u32(updates[0].payload), 65536u);
  host.answer(s, "");
}

// The window stall once seen in a full run, step by step. The client sends a whole window; the app
// runs on a thread of its own (pooled: its news reaches the loop through
// the inbox). Its first consume takes the read-paused flag down and tells
// the loop, which gives that part back while the rest still waits; its
// second consume takes the rest. The loop must hear of that one too (the
// flag raised again when it looked), or the client, out of window and
// with less than half of it given back, never sends the rest of its body.
TEST_F(http2_fixture, AWindowConsumedInTwoStepsWithTheLoopLookingBetweenIsGivenBackWhole) {
  host.config.initial_window_size = 65536;
  host.pooled = true;
  open();
  std::string chunk(16384, 'p');
  std::string three_quarters = data(1, chunk, false) + data(1, chunk, false) + data(1, chunk, false);
  send(codec.headers(1, request("POST", "/", {{"content-length", "131072"}}), false) + three_quarters +
       data(1, chunk, false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  ASSERT_FALSE(s->direct());
  ASSERT_TRUE(s->reading_paused()) << "the loop did not ask to hear of the app's consume";

  ASSERT_EQ(take_body(s, 16384).size(), 16384u);
  ASSERT_FALSE(s->reading_paused()) << "the first consume did not take the flag down";
  pump();  // the loop takes the app's news: 16 KiB consumed, too little for a WINDOW_UPDATE
  EXPECT_TRUE(sent(WINDOW_UPDATE, 1).empty()) << "less than half the window went back as an update";

  ASSERT_EQ(take_body(s).size(), 49152u);
  std::string_view view;
  ASSERT_EQ(s->try_read(view), read_status::pending);
  pump();
  uint64_t given_back = 0;
  for (const seen_frame& u : sent(WINDOW_UPDATE, 1)) given_back += read_u32(u.payload);
  ASSERT_EQ(given_back, 65536u) << "the app consumed the whole window and the client was given back only this";

  // The client can send the rest of its body (a second window), and the
  // app gets all of it.
  send(three_quarters + data(1, chunk, true));
  EXPECT_EQ(take_body(s).size(), 65536u);
  EXPECT_EQ(s->try_read(view), read_status::end);
  host.answer(s, "all");
  pump();
  EXPECT_EQ(body_sent(1), "all");
  EXPECT_TRUE(stream_ended(1));
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, AReadIntoTheAppsBufferPastWhatCameGivesTheWindowBackAtOnce) {
  host.config.initial_window_size = 65536;
  open();
  std::string chunk(16384, 'r');
  send(codec.headers(1, request("POST", "/", {{"content-length", "98304"}}), false) + data(1, chunk, false) +
       data(1, chunk, false) + data(1, chunk, false) + data(1, chunk, false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  std::string whole(98304, '\0');
  ASSERT_TRUE(s->read_into(whole.data(), whole.size())) << "the whole body was there already";
  pump();
  std::vector<seen_frame> updates = sent(WINDOW_UPDATE, 1);
  ASSERT_EQ(updates.size(), 1u) << "the read's copy was not given back";
  EXPECT_EQ(read_u32(updates[0].payload), 65536u);
  send(data(1, chunk, false) + data(1, chunk, true));
  EXPECT_FALSE(s->target_active());
  EXPECT_EQ(s->target_filled(), whole.size());
  EXPECT_EQ(whole, std::string(98304, 'r'));
  host.answer(s, "");
}

// The connection's window is 1 GiB (protocol::start) and nghttp2 sends its
// WINDOW_UPDATE once half of it is consumed: the update must come when
// exactly 512 MiB have arrived, although a stream's app has left 16 KiB of
// them unread. (Were the connection's window given back as apps consume,
// it would be 16 KiB late.)
TEST_F(http2_fixture, TheConnectionWindowIsGivenBackAsBytesArriveWhateverTheAppsHaveRead) {
  host.config.initial_window_size = 0x7fffffff;  // no stream's window is in the way
  open();
  std::vector<seen_frame> at_start = sent(WINDOW_UPDATE, 0);
  ASSERT_EQ(at_start.size(), 1u);
  EXPECT_EQ(read_u32(at_start[0].payload), (1u << 30) - 65535u) << "the connection's window is not 1 GiB";

  constexpr size_t frame_size = 16384;
  std::string chunk(frame_size, 'c');
  std::string opening = codec.headers(1, request("POST", "/unread"), false) + data(1, chunk, false);
  opening += codec.headers(3, request("POST", "/read"), false);
  send(opening);
  ASSERT_EQ(host.submitted.size(), 2u);
  x::exchange* unread = host.submitted[0];
  x::exchange* reader = host.submitted[1];

  constexpr size_t frames_per_send = 64;
  std::string mebibyte;
  for (size_t i = 0; i < frames_per_send; ++i) mebibyte += data(3, chunk, false);
  size_t arrived = frame_size;
  const size_t half = size_t{1} << 29;
  while (arrived + frames_per_send * frame_size < half) {
    // The client's bytes are let go as they are read: 512 MiB pass through.
    client.input.clear();
    client.read_pos = 0;
    client.reads.clear();
    send(mebibyte);
    arrived += frames_per_send * frame_size;
    ASSERT_EQ(skip_body(reader), frames_per_send * frame_size);
  }
  client.input.clear();
  client.read_pos = 0;
  std::string rest;
  while (arrived + frame_size < half) {
    rest += data(3, chunk, false);
    arrived += frame_size;
  }
  send(rest);
  skip_body(reader);
  EXPECT_EQ(sent(WINDOW_UPDATE, 0).size(), 1u) << "the connection's window went back early";
  send(data(3, chunk, false));
  std::vector<seen_frame> updates = sent(WINDOW_UPDATE, 0);
  ASSERT_EQ(updates.size(), 2u) << "512 MiB arrived and the connection's window did not go back";
  EXPECT_EQ(read_u32(updates[1].payload), half);
  EXPECT_EQ(unread->body_buffered(), frame_size) << "the unread stream's bytes were consumed";
  host.answer(unread, "");
  host.answer(reader, "");
}

// --- the window, raced ------------------------------------------------------------------

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int race_requests = 1000;
#else
constexpr int race_requests = 4000;
#endif
// A loaded machine (or a slow sanitizer) stops earlier: the count is reported.
constexpr auto race_budget = std::chrono::seconds(10);
// Each stream's receive window in the race: small, so a body takes many.
constexpr uint32_t race_window = 16384;

// The app of the race, on a thread of its own: it takes each request the
// loop hands it, consumes its body in random steps with random pauses
// between them (an ASGI receive loop at an app's own pace), answers and
// lets go. When it has consumed all that came it waits for its waker, and
// says since which wake it waits, so the loop can tell a stall (nothing
// will ever wake it) from a slow app.
class racing_app final : public x::app_waker {
 public:
  static constexpr uint64_t running = UINT64_MAX;

  explicit racing_app(uint32_t seed) : rng_(seed) {}
  void wake() override {
    wakes_.fetch_add(1);
    parker_.notify();
  }
  // Loop thread: the next request to serve; stop() ends the thread.
  void hand(x::exchange* s) {
    slot_.store(s);
    parker_.notify();
  }
  void stop() {
    stopping_.store(true);
    parker_.notify();
  }
  // While the app waits for body bytes and no wake has come since it began
  // to (everything it consumed before, it has told the loop of), the wake
  // it waits since; else `running`.
  uint64_t waits_since() const {
    uint64_t since = parked_at_.load();
    return since != running && wakes_.load() == since ? since : running;
  }
  uint64_t consumed() const { return consumed_.load(); }
  int served() const { return served_.load(); }

  void run() {
    while (x::exchange* s = take_next()) {
      serve(*s);
      served_.fetch_add(1);
    }
  }

 private:
  x::exchange* take_next() {
    x::exchange* s = nullptr;
    baton::handoff::park_until(parker_, [&] {
      s = slot_.exchange(nullptr);
      return s != nullptr || stopping_.load();
    });
    return s;
  }
  void serve(x::exchange& s) {
    consumed_.store(0);
    s.set_waker(this);
    if (read_all(s) && consumed_.load() == static_cast<uint64_t>(s.head().content_length)) {
      s.begin_response(200, "200 OK");
      s.add_header("content-length", "2");
      s.try_send("ok", 2);
      s.finish();
    }
    s.app_done();  // after this the exchange is the loop's
  }
  // True at the body's end; false when it failed (the stream was reset).
  // Now and then a step is WSGI's read(n) on a pool thread instead.
  bool read_all(x::exchange& s) {
    while (true) {
      uint64_t seen = wakes_.load();
      std::string_view view;
      read_status r = s.try_read(view);
      if (r == read_status::data) {
        if (rng_() % 8 == 0) {
          read_into(s);
        } else {
          size_t n = rng_() % 4 == 0 ? view.size() : 1 + rng_() % view.size();
          s.consume(n);
          consumed_.fetch_add(n);
        }
        pause();
        continue;
      }
      if (r != read_status::pending) return r == read_status::end;
      wait_for_wake(seen);
    }
  }
  // Up to two windows into the app's own buffer: the loop receives what
  // has not come yet straight into it, and wakes the app once it is full.
  void read_into(x::exchange& s) {
    uint64_t left = static_cast<uint64_t>(s.head().content_length) - consumed_.load();
    buffer_.resize(std::min<uint64_t>(left, 1 + rng_() % (2 * race_window)));
    if (s.read_into(buffer_.data(), buffer_.size())) {
      while (true) {
        uint64_t seen = wakes_.load();
        if (!s.target_active()) break;
        wait_for_wake(seen);
      }
    }
    consumed_.fetch_add(s.target_filled());
  }
  void wait_for_wake(uint64_t seen) {
    parked_at_.store(seen);
    baton::handoff::park_until(parker_, [&] { return wakes_.load() != seen; });
    parked_at_.store(running);
  }
  // Now none, now a few hundred pause instructions, now the core given up.
  void pause() {
    uint32_t r = rng_();
    if (r % 2 == 0) return;
    if (r % 16 == 1) {
      baton::handoff::yield_thread();
      return;
    }
    for (uint32_t i = (r >> 8) % 512; i > 0; --i) baton::handoff::cpu_relax();
  }

  std::mt19937 rng_;
  baton::handoff::parker parker_;
  std::atomic<uint64_t> wakes_{0};
  std::atomic<uint64_t> parked_at_{running};
  std::atomic<x::exchange*> slot_{nullptr};
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> consumed_{0};
  std::atomic<int> served_{0};
  std::string buffer_;  // read_into's destination
};

// The client and the loop of the race, on the test's thread: the client
// sends each request's body as fast as its windows let it, the loop runs
// pass after pass (with random pauses of its own), and a request whose
// app waits for bytes while the client waits for window, with the loop
// idle, is a stall: nothing would ever move it again.
struct http2_window_race : http2_fixture {
  static constexpr uint32_t window = race_window;
  std::mt19937 rng{38};
  int32_t current = 1;            // the stream of the request in flight
  int64_t stream_window = 0;      // the client's send window on the current stream
  int64_t connection_window = 65535;
  uint64_t given_back = 0;        // the current stream's WINDOW_UPDATEs, in all
  bool answered = false;          // the current stream's response ended
  std::string status;             // and its :status
  bool stall_reported = false;
  bool broken = false;            // the connection serves no more requests

  // The client's input is let go once read: thousands of bodies pass.
  void feed(std::string_view bytes) {
    if (client.read_pos == client.input.size()) {
      client.input.clear();
      client.read_pos = 0;
      client.reads.clear();
    }
    send(bytes);
    absorb();
  }
  // One pass of the loop, waiting up to `wait_ms` for news (a post wakes
  // it at once); true when the server sent anything.
  bool pass(int wait_ms = 0) {
    host.loop.run_once(wait_ms);
    collect();
    return absorb();
  }
  // Takes the server's frames on the current stream (and the connection's)
  // into the client's windows and the stream's answer.
  bool absorb() {
    bool any = !frames.empty();
    for (const seen_frame& f : frames) {
      if (f.type == WINDOW_UPDATE && f.stream == 0) connection_window += read_u32(f.payload);
      if (f.stream != current) continue;
      if (f.type == WINDOW_UPDATE) {
        stream_window += read_u32(f.payload);
        given_back += read_u32(f.payload);
      }
      if (f.type == HEADERS && status.empty()) status = f.field(":status");
      if ((f.type == DATA || f.type == HEADERS) && f.ends_stream()) answered = true;
      if (f.type == RST_STREAM) answered = true;
    }
    frames.clear();
    return any;
  }
  // DATA of random sizes, as much as the windows let through.
  bool send_body(int32_t id, uint64_t& left) {
    static const std::string payload(8192, 'r');
    std::string out;
    while (left > 0 && stream_window > 0 && connection_window > 0) {
      uint64_t n = std::min<uint64_t>({left, 1 + rng() % payload.size(), static_cast<uint64_t>(stream_window),
                                       static_cast<uint64_t>(connection_window)});
      left -= n;
      stream_window -= static_cast<int64_t>(n);
      connection_window -= static_cast<int64_t>(n);
      out += data(id, std::string_view(payload).substr(0, n), left == 0);
    }
    if (!out.empty()) feed(out);
    return !out.empty();
  }
  void jitter() {
    if (rng() % 4 == 0) {
      for (uint32_t i = rng() % 512; i > 0; --i) baton::handoff::cpu_relax();
    }
  }

  // One request on stream `id`, raced to its answer: false when it
  // stalled (reported, then reset, so the race goes on).
  bool race_one(int32_t id, racing_app& app) {
    uint64_t size = 4 * window + rng() % (4 * window);
    uint64_t left = size;
    open_stream(id, size);
    if (host.submitted.size() != 1) {
      ADD_FAILURE() << "stream " << id << " did not reach the app";
      broken = true;
      return false;
    }
    app.hand(host.submitted.back());
    host.submitted.clear();
    if (!run_to_answer(id, left, app)) return stalled(id, size, size - left, app);
    EXPECT_EQ(status, "200") << "stream " << id << ": the app did not get its whole body";
    return true;
  }
  // The client sends, the loop runs; false when the request stalls.
  bool run_to_answer(int32_t id, uint64_t& left, racing_app& app) {
    int idle = 0;
    int quiet = 0;
    uint64_t idle_since = racing_app::running;
    while (!answered) {
      // The loop spins a while, then waits for the app's news: on a loaded
      // machine a spinning loop would keep the app from its core. (A pass
      // that waits also gives a write the loop deferred its time.)
      bool moved = send_body(id, left);
      moved |= pass(quiet < 32 && idle == 0 ? 0 : 1);
      quiet = moved ? 0 : quiet + 1;
      jitter();
      uint64_t since = app.waits_since();
      idle = moved || since == racing_app::running || since != idle_since ? 0 : idle + 1;
      idle_since = since;
      // Three passes of the loop have taken every notice the app posted
      // before it began to wait, and written whatever they made.
      if (idle == 3) return false;
    }
    return true;
  }
  void open_stream(int32_t id, uint64_t size) {
    current = id;
    stream_window = window;
    given_back = 0;
    answered = false;
    status.clear();
    feed(codec.headers(id, request("POST", "/", {{"content-length", std::to_string(size)}}), false));
  }
  // Says what stalled (the first time), then resets the stream and waits
  // until the app has let go of it.
  bool stalled(int32_t id, uint64_t size, uint64_t sent, racing_app& app) {
    if (!stall_reported) {
      stall_reported = true;
      ADD_FAILURE() << "stream " << id << " stalled: the client sent " << sent << " of " << size
                    << " bytes and has " << stream_window << " of window left; the app consumed "
                    << app.consumed() << " and waits for more; " << given_back << " went back";
    }
    int served = app.served();
    feed(rst_stream(id, CANCEL));
    for (int i = 0; i < 10000 && app.served() == served; ++i) pass(1);
    if (app.served() == served) ADD_FAILURE() << "the app never finished stream " << id << " after its reset";
    pass();  // the app's done notice
    return false;
  }
};

// The same stall, raced: an app thread consumes each body in random steps with
// random pauses while the loop, on the test's thread, takes its news and
// the client sends as its window comes back. Each request's body is four
// to eight windows; no request may stall, and each is answered whole.
TEST_F(http2_window_race, AClientThatFillsItsWindowAlwaysGetsItBackFromAnAppThreadConsumingAtRandom) {
  host.config.initial_window_size = window;
  host.config.reset_burst = UINT32_MAX;  // each stall is reset, and the race goes on
  host.pooled = true;
  racing_app app(91);
  std::thread app_thread([&] { app.run(); });
  open();
  absorb();
  int stalls = 0;
  int requests = 0;
  auto deadline = std::chrono::steady_clock::now() + race_budget;
  while (requests < race_requests && !broken && std::chrono::steady_clock::now() < deadline) {
    bool answered_whole = race_one(2 * requests + 1, app);
    ++requests;
    if (!answered_whole && ++stalls == 100) break;  // enough to say how often
  }
  app.stop();
  app_thread.join();
  RecordProperty("requests", requests);
  std::printf("[ race     ] %d requests, %d stalled\n", requests, stalls);
  EXPECT_EQ(stalls, 0) << "stalled " << stalls << " of " << requests << " requests";
  EXPECT_GE(requests, 100) << "too few requests to say anything";
}

// --- streams end -------------------------------------------------------------------------

TEST_F(http2_fixture, AClientResetOfAStreamCancelsItsExchange) {
  open();
  send(codec.headers(1, request("POST", "/"), false));
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  counting_waker waker;
  s->set_waker(&waker);
  send(rst_stream(1, CANCEL));
  EXPECT_TRUE(s->cancelled());
  EXPECT_GE(waker.wakes, 1) << "the app side was not woken";
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::error);
  s->begin_response(200, "200 OK");
  EXPECT_EQ(s->try_send("late", 4), send_status::gone);
  EXPECT_EQ(protocol().open_streams(), 0u);
  int recycled_before = host.recycled;
  host.done(s);
  EXPECT_EQ(host.recycled, recycled_before + 1) << "the last reference did not free the exchange";
  EXPECT_TRUE(sent(HEADERS, 1).empty());
}

TEST_F(http2_fixture, AStreamResetInTheReadThatOpenedItNeverReachesTheApp) {
  open();
  send(codec.headers(1, request("GET", "/"), true) + rst_stream(1, CANCEL));
  EXPECT_TRUE(host.submitted.empty());
  EXPECT_EQ(protocol().open_streams(), 0u);
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, WhenTheConnectionClosesEveryExchangeIsReleasedAndNoStreamIsCounted) {
  open();
  std::string two = codec.headers(1, request("GET", "/a"), true);
  two += codec.headers(3, request("POST", "/b"), false);
  send(two + data(3, "part", false));
  ASSERT_EQ(host.submitted.size(), 2u);
  EXPECT_EQ(protocol().open_streams(), 2u);
  client.reset = true;
  conn->on_io(event_loop::readable | event_loop::error);
  ASSERT_TRUE(conn->closed());
  EXPECT_EQ(protocol().open_streams(), 0u);
  for (x::exchange* s : host.submitted) {
    EXPECT_TRUE(s->cancelled());
    EXPECT_EQ(s->links.sink, nullptr) << "the closed protocol is still the exchange's sink";
  }
  EXPECT_LT(host.recycled, host.made) << "the apps' references are still held";
  for (x::exchange* s : host.submitted) host.done(s);
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, AtTheClientsEndOfInputStreamsInFlightAreAnsweredThenTheConnectionCloses) {
  open();
  send(codec.headers(1, request("GET", "/"), true));
  ASSERT_EQ(host.submitted.size(), 1u);
  client.eof = true;
  conn->on_io(event_loop::readable);
  EXPECT_FALSE(conn->closed()) << "closed with a stream in flight";
  host.answer(last(), "last");
  pump();
  EXPECT_EQ(body_sent(1), "last");
  EXPECT_TRUE(conn->closed());
  EXPECT_EQ(protocol().open_streams(), 0u);
  EXPECT_EQ(host.recycled, host.made);
}

// --- attacks -----------------------------------------------------------------------------

TEST_F(http2_fixture, AResetBurstPastTheLimitEndsTheConnectionWithEnhanceYourCalm) {
  host.config.reset_burst = 5;
  host.config.resets_per_second = 1;
  open();
  std::string burst;
  for (int32_t id = 1; id <= 11; id += 2) {
    burst += codec.headers(id, request("GET", "/"), true) + rst_stream(id, CANCEL);
  }
  send(burst);
  std::vector<seen_frame> goaways = sent(GOAWAY, 0);
  ASSERT_EQ(goaways.size(), 1u);
  EXPECT_EQ(goaways[0].code(), ENHANCE_YOUR_CALM);
  EXPECT_TRUE(host.submitted.empty()) << "a stream of the burst reached the app";
  EXPECT_EQ(host.recycled, host.made);
}

TEST_F(http2_fixture, ResetsWithinTheBurstLeaveTheConnectionServing) {
  host.config.reset_burst = 5;
  host.config.resets_per_second = 1;
  open();
  std::string burst;
  for (int32_t id = 1; id <= 9; id += 2) {
    burst += codec.headers(id, request("GET", "/"), true) + rst_stream(id, CANCEL);
  }
  send(burst + codec.headers(11, request("GET", "/after"), true));
  EXPECT_TRUE(sent(GOAWAY, 0).empty());
  ASSERT_EQ(host.submitted.size(), 1u);
  EXPECT_EQ(last()->head().path, "/after");
  host.answer(last(), "");
}

}  // namespace
