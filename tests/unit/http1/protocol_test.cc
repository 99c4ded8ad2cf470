// Unit tests for HTTP/1.1 on a session and the exchanges it feeds
// (src/core/http1/protocol.h, src/core/session/session.h,
// src/core/exchange/exchange.h), with no socket: the session runs over an
// in-memory transport, and the test plays both the client (bytes in, bytes
// out) and the application (the exchanges it is handed).
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/http1/protocol.h"
#include "core/loop/event_loop.h"
#include "core/session/session.h"
#include "unit/support/memory_transport.h"

namespace {

namespace h = baton::http1;
namespace x = baton::exchange;
using read_status = x::exchange::read_status;
using send_status = x::exchange::send_status;
using baton::loop::event_loop;
using baton::test::memory_transport;

struct counting_waker final : x::app_waker {
  void wake() override { ++wakes; }
  int wakes = 0;
};

// Plays the server: makes exchanges (recycling them, as the server does)
// and collects what the protocol hands to the application.
struct test_host final : baton::session::protocol_host, x::exchange_owner, baton::session::session_host {
  test_host() : scratch(settings.request_limits.max_headers) {
    settings.keep_alive_timeout_ms = 60000;
    settings.header_read_timeout_ms = 60000;
  }

  baton::loop::event_loop loop;
  baton::session::http_settings settings;
  h::settings http1_settings;
  baton::session::session_settings session_settings;
  baton::session::receive_buffer shared;
  std::vector<h::header> scratch;
  std::atomic<bool> draining{false};
  h::encoder wire{"baton"};
  baton::session::session_context session_context{loop, session_settings, *this, shared};
  baton::gate::request_gate gate{settings, *this, draining};
  h::context context{gate, http1_settings, scratch.data(), wire};
  std::vector<std::unique_ptr<x::exchange>> owned;
  std::vector<x::exchange*> free_list;
  std::vector<x::exchange*> submitted;
  // Whether the loop's receive buffer was lent as each app began (an inline
  // app's waits run other sessions' reads, which need it).
  std::vector<bool> lent_when_submitted;
  int closed_count = 0;
  int recycled = 0;

  x::exchange* new_exchange() override {
    if (!free_list.empty()) {
      x::exchange* s = free_list.back();
      free_list.pop_back();
      return s;
    }
    owned.push_back(std::make_unique<x::exchange>(*this, loop, settings.exchanges));
    return owned.back().get();
  }
  void submit(x::exchange* s) override {
    lent_when_submitted.push_back(shared.lent);
    s->attach_app();
    s->set_direct(true);
    submitted.push_back(s);
  }
  void session_closed(baton::session::session*, bool) override { ++closed_count; }
  void session_lingering(baton::session::session*) override {}
  void exchange_news(x::exchange* s) override {
    if (s->links.sink != nullptr) s->links.sink->on_exchange_news(s);
  }
  void recycle(x::exchange* s) override {
    ++recycled;
    free_list.push_back(s);
  }

  // The app side is done with `s` (as the server does after an inline app).
  void done(x::exchange* s) {
    s->app_done();
    if (s->links.sink != nullptr) s->links.sink->on_app_done(s);
    s->release();
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

struct connection_fixture : ::testing::Test {
  test_host host;
  memory_transport client;
  baton::net::output_queue::spares spares;  // before conn: a session may park its storage here
  std::unique_ptr<baton::session::session> conn;

  void open() {
    conn = std::make_unique<baton::session::session>(host.session_context, client, x::peer_info{"192.0.2.7", 40000});
    conn->start(std::make_unique<h::protocol>(host.context, *conn));
  }
  // The client sends `bytes`; the connection reads until it would block.
  void send(std::string_view bytes) {
    client.input.append(bytes);
    while (client.read_pos < client.input.size() && !conn->closed() &&
           (conn->interest() & event_loop::readable) != 0) {
      conn->on_io(event_loop::readable);
    }
  }
  void send_eof() {
    client.eof = true;
    while (!conn->closed() && (conn->interest() & event_loop::readable) != 0) conn->on_io(event_loop::readable);
  }
  x::exchange* last() { return host.submitted.empty() ? nullptr : host.submitted.back(); }
  // A GET whose app side has `waker`, with a 1 KiB output window and a
  // client that reads nothing (yet).
  x::exchange* get_with_a_small_window_nobody_reads(counting_waker& waker) {
    host.settings.exchanges.output_window = 1024;
    open();
    send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
    x::exchange* s = last();
    s->set_waker(&waker);
    client.write_budget = 0;
    return s;
  }
  // Whether `out` is exactly one 200 carrying `body` with its length, and
  // nothing else (the date in between is the clock's).
  static bool one_response_with(const std::string& out, std::string_view body) {
    std::string start = "HTTP/1.1 200 OK\r\ncontent-length: " + std::to_string(body.size()) + "\r\n";
    std::string end = "\r\n\r\n" + std::string(body);
    return out.rfind(start, 0) == 0 && out.size() >= start.size() + end.size() &&
           out.compare(out.size() - end.size(), end.size(), end) == 0 && out.find("HTTP/1.1", 1) == std::string::npos &&
           out.find("\r\n\r\n") == out.size() - end.size();
  }
  std::string body_of(x::exchange* s) {
    std::string body;
    std::string_view view;
    while (s->try_read(view) == read_status::data) {
      body.append(view);
      s->consume(view.size());
    }
    return body;
  }
};

TEST_F(connection_fixture, ARequestIsHandedToTheAppWithItsHeadCopied) {
  open();
  send("GET /path?q=1 HTTP/1.1\r\nHost: example\r\nX-A: b\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_EQ(s->head().method, "GET");
  EXPECT_EQ(s->head().path, "/path");
  EXPECT_EQ(s->head().query, "q=1");
  ASSERT_EQ(s->head().field_count, 2u);
  EXPECT_EQ(s->head().fields[1].name, "X-A");
  EXPECT_EQ(s->peer().address, "192.0.2.7");
  // The copy does not depend on the buffers the bytes arrived in.
  host.shared.bytes.clear();
  std::memset(host.shared.bytes.prepare(4096), 'Z', 4096);
  EXPECT_EQ(s->head().fields[0].value, "example");
}

TEST_F(connection_fixture, AnAbsoluteFormAuthorityIsCopiedWithTheHead) {
  open();
  send("GET http://evil.example/abs HTTP/1.1\r\nHost: good.example\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  host.shared.bytes.clear();
  std::memset(host.shared.bytes.prepare(4096), 'Z', 4096);
  EXPECT_EQ(s->head().authority, "evil.example");
  EXPECT_EQ(s->head().fields[0].value, "evil.example");
  EXPECT_EQ(s->head().path, "/abs");
}

// Every way a read ends gives the loop's receive buffer back: were one to
// keep it, every session of the loop would read into buffers of its own.
TEST_F(connection_fixture, TheLoopsReceiveBufferIsGivenBackHoweverAReadEnds) {
  open();
  send("GET / HTTP/1.1\r\nHo");  // a partial head, kept in the session's own buffer
  EXPECT_FALSE(host.shared.lent);
  EXPECT_EQ(conn->input().view(), "GET / HTTP/1.1\r\nHo");
  send("st: t\r\n\r\nGET /next HTTP/1.1\r\nHost: t\r\n\r\n");  // dispatched, a pipelined one left
  EXPECT_FALSE(host.shared.lent);
  ASSERT_EQ(host.submitted.size(), 1u);
  host.answer(last(), "a");
  ASSERT_EQ(host.submitted.size(), 2u);
  host.answer(last(), "b");
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");  // read into the shared buffer and dispatched from it
  EXPECT_FALSE(host.shared.lent);
  host.answer(last(), "c");
  send("BAD\x01 / HTTP/1.1\r\n\r\n");  // refused, the connection closing
  EXPECT_FALSE(host.shared.lent);
  EXPECT_TRUE(host.shared.bytes.empty());
  EXPECT_EQ(host.lent_when_submitted, std::vector<bool>({false, false, false}));
}

TEST_F(connection_fixture, TheAnswerIsWrittenWhenTheAppFinishes) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_TRUE(client.output.empty());
  host.answer(last(), "hello");
  std::string out = client.take_output();
  EXPECT_EQ(out.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << out;
  EXPECT_NE(out.find("content-length: 5\r\n"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 5), "hello");
  EXPECT_EQ(out.find("connection: close"), std::string::npos);
  EXPECT_FALSE(conn->closed());
}

// Between responses a connection holds no output storage: it parks it in
// the loop's spares, and the next response (on any connection) takes it
// back, so a busy connection does not malloc and free a buffer per request.
TEST_F(connection_fixture, OutputStorageIsParkedBetweenResponsesAndTakenBackByTheNext) {
  host.session_context.output_spares = &spares;
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  host.answer(last(), "hello");
  ASSERT_FALSE(client.take_output().empty());
  EXPECT_EQ(spares.parked(), 1u) << "the storage was not parked";
  EXPECT_EQ(conn->release_idle_memory(), 0u) << "the idle connection still holds memory";
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  x::exchange* s = last();
  s->begin_response(200, "200 OK");
  s->add_header("content-length", "5");
  s->try_send("again", 5);
  s->flush();
  EXPECT_EQ(spares.parked(), 0u) << "the next response did not take the parked storage";
  s->finish();
  host.done(s);
  EXPECT_EQ(spares.parked(), 1u);
  EXPECT_TRUE(one_response_with(client.take_output(), "again"));
}

// Storage that carried a zero-copy body is parked too; the next response
// gets none of the old one's bytes.
TEST_F(connection_fixture, ParkedStorageCarriesNothingIntoTheNextResponse) {
  host.session_context.output_spares = &spares;
  open();
  std::string big(200000, 'x');
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  x::exchange* s = last();
  s->begin_response(200, "200 OK");
  s->add_header("content-length", std::to_string(big.size() + 4));
  EXPECT_EQ(s->try_send("head", 4), send_status::accepted);
  EXPECT_EQ(s->try_send_external(big.data(), big.size()), send_status::accepted);
  s->finish();
  host.done(s);
  EXPECT_TRUE(s->external_sent());
  EXPECT_EQ(spares.parked(), 1u) << "the storage was not parked";
  std::string first = client.take_output();
  EXPECT_EQ(first.substr(first.size() - big.size() - 4), "head" + big);
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  host.answer(last(), "hello");
  EXPECT_TRUE(one_response_with(client.take_output(), "hello"));
}

// Without spares (or with them full) the storage is freed after each
// response, as before.
TEST_F(connection_fixture, WithoutSparesOutputStorageIsFreedAfterEachResponse) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  host.answer(last(), "hello");
  ASSERT_FALSE(client.take_output().empty());
  EXPECT_EQ(conn->release_idle_memory(), 0u) << "the idle connection still holds memory";
}

TEST_F(connection_fixture, PipelinedRequestsGoToTheAppOneAtATimeAndAreAnsweredInOrder) {
  open();
  send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\nGET /2 HTTP/1.1\r\nHost: t\r\n\r\nGET /3 HTTP/1.1\r\nHost: t\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u) << "the second request started before the first was answered";
  EXPECT_EQ(last()->head().path, "/1");
  host.answer(last(), "one");
  ASSERT_EQ(host.submitted.size(), 2u);
  EXPECT_EQ(last()->head().path, "/2");
  host.answer(last(), "two");
  ASSERT_EQ(host.submitted.size(), 3u);
  EXPECT_EQ(last()->head().path, "/3");
  host.answer(last(), "three");
  std::string out = client.take_output();
  size_t one = out.find("one"), two = out.find("two"), three = out.find("three");
  ASSERT_NE(three, std::string::npos);
  EXPECT_LT(one, two);
  EXPECT_LT(two, three);
}

TEST_F(connection_fixture, AHeadSplitAcrossReadsIsAssembled) {
  open();
  std::string request = "GET /split HTTP/1.1\r\nHost: t\r\nX-Long: " + std::string(300, 'v') + "\r\n\r\n";
  for (char c : request) send(std::string(1, c));
  ASSERT_EQ(host.submitted.size(), 1u);
  EXPECT_EQ(last()->head().path, "/split");
  EXPECT_EQ(last()->head().fields[1].value.size(), 300u);
}

TEST_F(connection_fixture, ASmallBodyIsReadWholeBeforeTheAppRuns) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n01234");
  EXPECT_TRUE(host.submitted.empty()) << "dispatched before the body was complete";
  send("56789");
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  EXPECT_TRUE(s->body_ended());
  EXPECT_EQ(body_of(s), "0123456789");
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::end);
}

TEST_F(connection_fixture, AChunkedBodyIsDecodedForTheApp) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u);
  EXPECT_EQ(body_of(last()), "abcde");
}

TEST_F(connection_fixture, ALargeBodyFlowsThroughTheWindowAndReadingPausesWhileItIsFull) {
  host.settings.exchanges.body_window = 64 * 1024;
  host.http1_settings.read_whole_body = 16 * 1024;
  open();
  const size_t total = 1024 * 1024;
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u) << "a body over the read-whole size goes to the app at once";
  x::exchange* s = last();
  client.input.append(std::string(total, 'b'));
  auto read_until_paused = [&] {
    while ((conn->interest() & event_loop::readable) != 0 && client.read_pos < client.input.size()) {
      conn->on_io(event_loop::readable);
    }
  };
  // Before the app asks, only the first read-whole size is read ahead.
  read_until_paused();
  EXPECT_TRUE(s->reading_paused());
  EXPECT_GE(s->body_buffered(), host.http1_settings.read_whole_body);
  EXPECT_LT(s->body_buffered(), host.settings.exchanges.body_window) << "read the whole window before the app asked";
  // Once it reads, the connection reads until the window is full, then stops asking.
  std::string_view view;
  ASSERT_EQ(s->try_read(view), read_status::data);
  s->consume(1);
  size_t received = 1;
  EXPECT_FALSE(s->reading_paused()) << "the app's first read did not open the window";
  read_until_paused();
  EXPECT_TRUE(s->reading_paused());
  EXPECT_GE(s->body_buffered(), host.settings.exchanges.body_window);
  EXPECT_LT(client.read_pos, client.input.size()) << "read past the window";
  // The app consumes; reading resumes; in the end every byte arrives once.
  while (received < total) {
    read_status r = s->try_read(view);
    if (r == read_status::data) {
      received += view.size();
      s->consume(view.size());
      continue;
    }
    ASSERT_EQ(r, read_status::pending);
    ASSERT_NE(conn->interest() & event_loop::readable, 0u) << "window has room but reading paused";
    conn->on_io(event_loop::readable);
  }
  EXPECT_EQ(received, total);
  EXPECT_EQ(s->try_read(view), read_status::end);
}

TEST_F(connection_fixture, ABodyReadIntoTheAppsBufferComesStraightFromTheSocketPastTheFirstWindow) {
  host.http1_settings.read_whole_body = 16 * 1024;
  open();
  const size_t total = 1024 * 1024;
  std::string body(total, '\0');
  for (size_t i = 0; i < total; ++i) body[i] = static_cast<char>('a' + i % 23);
  std::string head = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n";
  client.input = head + body;
  conn->on_io(event_loop::readable);
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* s = last();
  while ((conn->interest() & event_loop::readable) != 0 && client.read_pos < client.input.size()) {
    conn->on_io(event_loop::readable);
  }
  // What came in with the head is the stream's already; nothing more was
  // read, as that is over the first window.
  size_t ahead = s->body_buffered();
  ASSERT_EQ(client.reads.size(), 1u) << "read ahead past the first window";
  EXPECT_EQ(ahead, client.reads[0].second - head.size());
  EXPECT_GE(ahead, host.http1_settings.read_whole_body);
  size_t reads_before = client.reads.size();
  // The app reads the whole body into its own buffer, as wsgi.input.read(n) does.
  std::string destination(total, '\0');
  ASSERT_TRUE(s->read_into(destination.data(), total));
  while (s->target_active()) {
    ASSERT_NE(conn->interest() & event_loop::readable, 0u);
    conn->on_io(event_loop::readable);
  }
  EXPECT_EQ(s->target_filled(), total);
  EXPECT_TRUE(destination == body) << "the body arrived changed or out of order";
  size_t direct = 0;
  for (size_t i = reads_before; i < client.reads.size(); ++i) {
    auto [at, n] = client.reads[i];
    EXPECT_TRUE(at >= destination.data() && at + n <= destination.data() + total) << "read " << i << " missed the destination";
    direct += n;
  }
  EXPECT_EQ(direct, total - ahead) << "every byte after the first window comes straight into the app's buffer";
}

TEST_F(connection_fixture, ContinueIsSentOnlyWhenTheAppAsksForTheBody) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 1u) << "an Expect: 100-continue request goes to the app before its body";
  EXPECT_TRUE(client.output.empty());
  x::exchange* s = last();
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::pending);
  EXPECT_EQ(client.take_output(), "HTTP/1.1 100 Continue\r\n\r\n");
  send("abc");
  EXPECT_EQ(body_of(s), "abc");
  EXPECT_EQ(s->try_read(view), read_status::end);
}

TEST_F(connection_fixture, AnInterimResponseGoesOutAtOnceAndAContinueMayStillFollowIt) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
  x::exchange* s = last();
  s->begin_interim();
  ASSERT_TRUE(s->add_interim_field("link", "</a.css>; rel=preload"));
  ASSERT_TRUE(s->send_interim(103));
  EXPECT_EQ(client.take_output(), "HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n");
  EXPECT_EQ(body_of(s), "");  // the app reads: the 103 was no answer, so the client is asked for the body
  EXPECT_EQ(client.take_output(), "HTTP/1.1 100 Continue\r\n\r\n");
  s->begin_response(200, "200 OK");
  ASSERT_EQ(s->try_send("ok", 2), send_status::accepted);
  EXPECT_FALSE(s->send_interim(103)) << "the head is committed: nothing may come before it now";
  s->finish();
  host.done(s);
}

TEST_F(connection_fixture, NoContinueGoesOutWhenTheAppAnswersWithoutReading) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
  host.answer(last(), "no");
  std::string out = client.take_output();
  EXPECT_EQ(out.find("100 Continue"), std::string::npos) << out;
  EXPECT_NE(out.find("connection: close"), std::string::npos) << "the unread body would otherwise be parsed";
}

// Past what is read before the app runs, within the body window: the app
// answers without reading, the answer keeps the connection, and the rest of
// the body (still arriving) is read and dropped before the next request.
TEST_F(connection_fixture, AnUnreadBodyWithinTheWindowIsDroppedAndTheNextRequestServed) {
  host.http1_settings.read_whole_body = 16 * 1024;
  open();
  const size_t total = 300 * 1024;
  send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n" +
       std::string(100 * 1024, 'a'));
  ASSERT_EQ(host.submitted.size(), 1u);
  host.answer(last(), "no");
  std::string out = client.take_output();
  EXPECT_TRUE(one_response_with(out, "no")) << out;
  EXPECT_FALSE(client.shut_write || conn->closed());
  // The rest of the body, with a request after it that looks like a head
  // inside the body: only the bytes past the body may be parsed.
  std::string rest = std::string(total - 100 * 1024 - 40, 'b') + "GET /inside HTTP/1.1\r\nHost: t\r\n\r\n";
  rest.resize(total - 100 * 1024, 'c');
  send(rest + "GET /next HTTP/1.1\r\nHost: t\r\n\r\n");
  ASSERT_EQ(host.submitted.size(), 2u);
  EXPECT_EQ(last()->head().path, "/next");
  host.answer(last(), "yes");
  EXPECT_TRUE(one_response_with(client.take_output(), "yes"));
}

TEST_F(connection_fixture, AnUnreadBodyPastTheWindowClosesTheConnectionAfterTheAnswer) {
  host.settings.exchanges.body_window = 64 * 1024;
  host.http1_settings.read_whole_body = 16 * 1024;
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n" + std::string(20 * 1024, 'a'));
  host.answer(last(), "no");
  std::string out = client.take_output();
  EXPECT_NE(out.find("connection: close"), std::string::npos) << out;
  EXPECT_TRUE(client.shut_write || conn->closed());
}

TEST_F(connection_fixture, TheUnreadRestOfABodyIsBoundByTheBodyTimeout) {
  host.http1_settings.read_whole_body = 16 * 1024;
  host.settings.body_read_timeout_ms = 60;
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 200000\r\n\r\n" + std::string(20 * 1024, 'a'));
  host.answer(last(), "no");
  EXPECT_TRUE(one_response_with(client.take_output(), "no"));
  auto start = std::chrono::steady_clock::now();
  while (!conn->closed() && std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
    host.loop.run_once(50);
  }
  EXPECT_TRUE(conn->closed()) << "the connection waited past the body timeout for the rest";
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1000));
}

TEST_F(connection_fixture, AMalformedRequestIsRefusedAndNeverReachesTheApp) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n");
  EXPECT_TRUE(host.submitted.empty());
  std::string out = client.take_output();
  EXPECT_EQ(out.rfind("HTTP/1.1 400 ", 0), 0u) << out;
  EXPECT_NE(out.find("connection: close"), std::string::npos);
  EXPECT_TRUE(client.shut_write || conn->closed());
}

TEST_F(connection_fixture, AMalformedChunkBeforeTheAppRunsIsRefusedWithoutIt) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n");
  EXPECT_TRUE(host.submitted.empty());
  EXPECT_EQ(client.take_output().rfind("HTTP/1.1 400 ", 0), 0u);
}

// A chunked body whose first part (more than read_whole_body of good
// chunks) took it to the app; what comes after decides the app's next read.
struct body_error_after_dispatch : connection_fixture {
  x::exchange* post_good_chunks(size_t total) {
    host.http1_settings.read_whole_body = 1024;
    open();
    send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n");
    std::string chunk(256, 'g');
    for (size_t sent = 0; sent < total; sent += chunk.size()) send("100\r\n" + chunk + "\r\n");
    EXPECT_EQ(host.submitted.size(), 1u) << "the body over read_whole_body did not reach the app";
    x::exchange* s = last();
    s->set_waker(&waker);
    EXPECT_GE(body_of(s).size(), 1024u);
    std::string_view view;
    EXPECT_EQ(s->try_read(view), read_status::pending) << "the body ended early";
    return s;
  }
  // The app's next read after the rest arrived (or did not).
  read_status next_read(x::exchange* s) {
    std::string_view view;
    read_status r;
    while ((r = s->try_read(view)) == read_status::data) s->consume(view.size());
    return r;
  }
  counting_waker waker;
};

TEST_F(body_error_after_dispatch, AMalformedChunkAfterTheAppStartedFailsItsReadWith400) {
  x::exchange* s = post_good_chunks(2048);
  int wakes = waker.wakes;
  send("ZZ\r\n");
  EXPECT_GT(waker.wakes, wakes) << "the app waiting for the body was not woken";
  EXPECT_EQ(next_read(s), read_status::error);
  EXPECT_EQ(s->body_error_status(), 400);
  s->fail(s->body_error_status());
  host.done(s);
  EXPECT_EQ(client.take_output().rfind("HTTP/1.1 400 ", 0), 0u);
}

TEST_F(body_error_after_dispatch, AChunkedBodyOverTheLimitAfterTheAppStartedFailsItsReadWith413) {
  host.settings.request_limits.max_body = 4096;
  x::exchange* s = post_good_chunks(2048);
  std::string chunk(256, 'g');
  for (int i = 0; i < 16; ++i) send("100\r\n" + chunk + "\r\n");
  EXPECT_EQ(next_read(s), read_status::error);
  EXPECT_EQ(s->body_error_status(), 413);
  // The app answers its own error (as WSGI and ASGI apps do when a read fails).
  s->begin_response(500, "500 Internal Server Error");
  s->add_header("content-length", "0");
  s->finish();
  host.done(s);
  EXPECT_EQ(client.take_output().rfind("HTTP/1.1 413 ", 0), 0u) << "the app's answer was not replaced by the 413";
}

TEST_F(body_error_after_dispatch, EndOfInputInsideTheBodyAfterTheAppStartedFailsItsReadWith400) {
  x::exchange* s = post_good_chunks(2048);
  EXPECT_EQ(next_read(s), read_status::pending);  // the app took what came; it waits for more
  send_eof();
  EXPECT_EQ(next_read(s), read_status::error);
  EXPECT_EQ(s->body_error_status(), 400);
  host.done(s);
}

TEST_F(connection_fixture, AClientResetCancelsTheStreamAndTheAppsWritesFail) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  x::exchange* s = last();
  counting_waker waker;
  s->set_waker(&waker);
  client.reset = true;
  conn->on_io(event_loop::readable | event_loop::error);
  EXPECT_TRUE(conn->closed());
  EXPECT_TRUE(s->cancelled());
  EXPECT_GE(waker.wakes, 1) << "the app side was not woken";
  s->begin_response(200, "200 OK");
  const char body[] = "late";
  EXPECT_EQ(s->try_send(body, 4), send_status::gone);
  int recycled_before = host.recycled;
  host.done(s);
  EXPECT_EQ(host.recycled, recycled_before + 1) << "the last reference did not free the stream";
}

TEST_F(connection_fixture, CancelWhileTheAppWaitsForTheBodyWakesItWithAnError) {
  host.http1_settings.read_whole_body = 4;
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n");
  x::exchange* s = last();
  ASSERT_NE(s, nullptr);
  counting_waker waker;
  s->set_waker(&waker);
  std::string_view view;
  EXPECT_EQ(s->try_read(view), read_status::pending);
  client.reset = true;
  conn->on_io(event_loop::readable);
  EXPECT_GE(waker.wakes, 1);
  EXPECT_EQ(s->try_read(view), read_status::error);
  host.done(s);
}

TEST_F(connection_fixture, CancelWhileTheAppWaitsForOutputCreditWakesItAndWritesReturnGone) {
  counting_waker waker;
  x::exchange* s = get_with_a_small_window_nobody_reads(waker);
  s->begin_response(200, "200 OK");
  std::string chunk(800, 'c');
  EXPECT_EQ(s->try_send(chunk.data(), chunk.size()), send_status::accepted);
  EXPECT_EQ(s->try_send(chunk.data(), chunk.size()), send_status::accepted);
  EXPECT_EQ(s->try_send(chunk.data(), chunk.size()), send_status::pending) << "the window did not fill";
  EXPECT_NE(conn->interest() & event_loop::writable, 0u);
  client.reset = true;
  conn->on_io(event_loop::writable);
  EXPECT_TRUE(conn->closed());
  EXPECT_GE(waker.wakes, 1);
  EXPECT_EQ(s->try_send(chunk.data(), chunk.size()), send_status::gone);
  host.done(s);
}

TEST_F(connection_fixture, AFullSocketIsWatchedForWritableAndTheRestFollowsInOrder) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\nGET /2 HTTP/1.1\r\nHost: t\r\n\r\n");
  client.write_budget = 10;
  std::string big(100000, 'x');
  x::exchange* s = last();
  s->begin_response(200, "200 OK");
  s->add_header("content-length", std::to_string(big.size()));
  EXPECT_EQ(s->try_send(big.data(), big.size()), send_status::accepted);
  s->finish();
  host.done(s);
  EXPECT_NE(conn->interest() & event_loop::writable, 0u);
  client.write_budget = SIZE_MAX;
  conn->on_io(event_loop::writable);
  EXPECT_EQ(conn->interest() & event_loop::writable, 0u);
  ASSERT_EQ(host.submitted.size(), 2u) << "the pipelined request did not resume after the drain";
  host.answer(last(), "second");
  std::string out = client.take_output();
  EXPECT_EQ(out.find("second"), out.size() - 6);
  EXPECT_NE(out.find(big), std::string::npos);
}

TEST_F(connection_fixture, AHalfCloseAfterACompleteRequestStillGetsItsAnswer) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  send_eof();
  x::exchange* s = last();
  EXPECT_FALSE(s->cancelled()) << "end of input is not a disconnect";
  host.answer(s, "late");
  EXPECT_NE(client.take_output().find("late"), std::string::npos);
  EXPECT_TRUE(conn->closed());
}

TEST_F(connection_fixture, EndOfInputInsideABodyIsA400WithoutTheApp) {
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc");
  send_eof();
  EXPECT_TRUE(host.submitted.empty());
  EXPECT_EQ(client.take_output().rfind("HTTP/1.1 400 ", 0), 0u);
}

TEST_F(connection_fixture, ABodyThatTricklesIsCutAtTheBodyTimeoutWith408) {
  host.settings.body_read_timeout_ms = 60;
  open();
  send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n");
  auto start = std::chrono::steady_clock::now();
  // A byte every 10 ms keeps arriving, but the whole body takes too long.
  while (!conn->lingering() && !conn->closed() &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
    send("x");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    host.loop.run_once(0);
  }
  EXPECT_TRUE(host.submitted.empty());
  EXPECT_EQ(client.take_output().rfind("HTTP/1.1 408 ", 0), 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1000));
}

TEST_F(connection_fixture, AnIdleKeepAliveConnectionClosesAtTheTimeout) {
  host.settings.keep_alive_timeout_ms = 30;
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  host.answer(last(), "ok");
  auto start = std::chrono::steady_clock::now();
  while (!conn->closed() && std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
    host.loop.run_once(50);
  }
  EXPECT_TRUE(conn->closed());
}

TEST_F(connection_fixture, AResponseThatSaysCloseClosesAfterItIsWritten) {
  open();
  send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
  x::exchange* s = last();
  s->begin_response(200, "200 OK");
  s->add_header("connection", "close");
  s->finish();
  host.done(s);
  std::string out = client.take_output();
  EXPECT_NE(out.find("connection: close"), std::string::npos);
  EXPECT_TRUE(client.shut_write || conn->closed());
}

// A recycled stream carries nothing of its last request: head, body,
// output, flags and the app's waker all start afresh.
TEST_F(connection_fixture, ARecycledStreamCarriesNothingOfItsLastRequest) {
  open();
  send("POST /first HTTP/1.1\r\nHost: t\r\nX-Secret: one\r\nContent-Length: 6\r\n\r\nsecret");
  x::exchange* first = last();
  counting_waker waker;
  first->set_waker(&waker);
  first->begin_response(500, "500 Oops");
  first->fail(500);
  host.done(first);
  client.take_output();
  send("GET /second HTTP/1.1\r\nHost: t\r\n\r\n");
  x::exchange* second = last();
  ASSERT_EQ(second, first) << "the test wants the stream reused";
  EXPECT_EQ(second->head().path, "/second");
  EXPECT_EQ(second->head().field_count, 1u);
  std::string_view view;
  EXPECT_EQ(second->try_read(view), read_status::end) << "old body bytes are visible";
  EXPECT_FALSE(second->cancelled());
  EXPECT_FALSE(second->response_committed());
  EXPECT_FALSE(second->app_is_done());
  host.answer(second, "fresh");
  std::string out = client.take_output();
  EXPECT_EQ(out.find("secret"), std::string::npos);
  EXPECT_EQ(out.find("500"), std::string::npos);
}

}  // namespace

// The connection the hook below looks at (the hook is a plain function).
baton::session::session* connection_under_test = nullptr;
bool readable_before_register = false;

TEST_F(connection_fixture, ReadingResumedByReadIntoWaitsForItsDestination) {
  host.http1_settings.read_whole_body = 16 * 1024;
  open();
  const size_t total = 256 * 1024;
  client.input = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n";
  client.input.append(std::string(total, 'd'));
  conn->on_io(event_loop::readable);
  x::exchange* s = last();
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->reading_paused()) << "the first window did not fill";
  // read_into copies what is buffered (which takes the pause down) and then
  // registers its destination: only then may the loop read again, or it
  // would read the rest into the stream's buffer instead.
  connection_under_test = conn.get();
  readable_before_register = false;
  x::body_in::before_register_for_tests = [] {
    x::body_in::before_register_for_tests = nullptr;
    readable_before_register = (connection_under_test->interest() & event_loop::readable) != 0;
  };
  std::string destination(total, '\0');
  bool registered = s->read_into(destination.data(), total);
  x::body_in::before_register_for_tests = nullptr;
  ASSERT_TRUE(registered);
  EXPECT_FALSE(readable_before_register) << "reading resumed before the destination was registered";
  EXPECT_NE(conn->interest() & event_loop::readable, 0u) << "reading never resumed";
  while (s->target_active()) conn->on_io(event_loop::readable);
  EXPECT_EQ(s->target_filled(), total);
  EXPECT_EQ(destination, std::string(total, 'd'));
}

TEST_F(connection_fixture, AnAppPastTheOutputWindowIsWokenOnceTheLoopHasDrainedIt) {
  counting_waker waker;
  x::exchange* s = get_with_a_small_window_nobody_reads(waker);
  s->begin_response(200, "200 OK");
  std::string body(3000, 'w');
  s->add_header("content-length", std::to_string(body.size()));
  // An ASGI send(): the whole body is taken past the window, then the app waits.
  EXPECT_EQ(s->send_past_window(body.data(), body.size()), send_status::accepted);
  s->finish();
  EXPECT_FALSE(s->credit_or_wake_me()) << "3000 bytes queued in a 1024-byte window";
  int wakes_before = waker.wakes;
  client.write_budget = SIZE_MAX;
  conn->on_io(event_loop::writable);
  EXPECT_TRUE(s->output_ready());
  EXPECT_GT(waker.wakes, wakes_before) << "the window drained and the waiting app was never woken";
  host.done(s);
  EXPECT_TRUE(one_response_with(client.take_output(), body));
}
