// The seam a protocol switch goes through, with no socket: a session runs
// HTTP/1 until the app answers an upgrade request with 101, and then the
// session is handed, with the bytes the client sent after the request and
// the 101 still queued, to a test protocol that echoes what it reads. The
// WebSocket protocol takes sessions over the same way.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/http1/protocol.h"
#include "core/loop/event_loop.h"
#include "core/session/session.h"
#include "unit/support/memory_transport.h"

namespace {

namespace h = baton::http1;
namespace x = baton::exchange;
namespace sn = baton::session;
using baton::loop::event_loop;

// Echoes every byte it reads, from what waited in the session's input on.
struct echo_protocol final : sn::protocol {
  explicit echo_protocol(sn::session& s) : session(s) {}
  void start() override {
    started = true;
    byte_count_at_start = session.input().size();
    echo(session.input().view());
    session.input().clear();
  }
  void on_readable() override {
    char buffer[4096];
    ssize_t n = session.io().receive(buffer, sizeof buffer);
    if (n > 0) echo(std::string_view(buffer, static_cast<size_t>(n)));
    if (n == 0) {
      session.set_eof();
      session.start_lingering();
    }
  }
  void on_writable() override { session.flush(); }
  void on_deadline() override {}
  plan current_plan() const override { return {true, INT64_MAX}; }
  void drain() override {}
  void on_close() override { ++closes; }
  size_t release_idle_memory() override { return 0; }

  void echo(std::string_view bytes) {
    session.output().bytes().append(bytes);
    session.flush();
  }

  sn::session& session;
  bool started = false;
  size_t byte_count_at_start = 0;
  int closes = 0;
};

struct upgrading_host final : baton::session::protocol_host, x::exchange_owner, sn::session_host {
  upgrading_host() : scratch(settings.request_limits.max_headers) {}
  event_loop loop;
  baton::session::http_settings settings;
  h::settings http1_settings;
  sn::session_settings session_settings;
  sn::receive_buffer shared;
  std::vector<h::header> scratch;
  std::atomic<bool> draining{false};
  h::encoder wire{""};
  sn::session_context session_context{loop, session_settings, *this, shared};
  baton::gate::request_gate gate{settings, *this, draining};
  h::context context{gate, http1_settings, scratch.data(), wire};
  std::vector<std::unique_ptr<x::exchange>> owned;
  std::vector<x::exchange*> submitted;
  echo_protocol* echo = nullptr;
  int upgrades_asked = 0;

  x::exchange* new_exchange() override {
    owned.push_back(std::make_unique<x::exchange>(*this, loop, settings.exchanges));
    return owned.back().get();
  }
  void submit(x::exchange* s) override {
    s->attach_app();
    s->set_direct(true);
    submitted.push_back(s);
  }
  std::unique_ptr<sn::protocol> upgrade(sn::session& s, x::exchange& upgraded) override {
    ++upgrades_asked;
    EXPECT_EQ(upgraded.head().find("upgrade"), "echo");
    auto next = std::make_unique<echo_protocol>(s);
    echo = next.get();
    return next;
  }
  void session_closed(sn::session*, bool) override {}
  void session_lingering(sn::session*) override {}
  void exchange_news(x::exchange* s) override {
    if (s->links.sink != nullptr) s->links.sink->on_exchange_news(s);
  }
  void recycle(x::exchange*) override {}
};

TEST(Handoff, A101HandsTheSessionWithItsLeftoverBytesToTheNextProtocol) {
  upgrading_host host;
  baton::test::memory_transport client;
  sn::session session(host.session_context, client, x::peer_info{"192.0.2.1", 5000});
  session.start(std::make_unique<h::protocol>(host.context, session));
  client.input = "GET /echo HTTP/1.1\r\nHost: t\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\nsent-ahead";
  session.on_io(event_loop::readable);
  ASSERT_EQ(host.submitted.size(), 1u);
  x::exchange* request = host.submitted[0];
  EXPECT_TRUE(request->head().upgrade);
  // The app switches protocols.
  request->begin_response(101, "101 Switching Protocols");
  request->add_header("upgrade", "echo");
  request->finish();
  request->app_done();
  request->links.sink->on_app_done(request);
  request->release();
  EXPECT_EQ(host.upgrades_asked, 1);
  ASSERT_NE(host.echo, nullptr);
  EXPECT_FALSE(host.echo->started) << "the new protocol took over inside the old one's call";
  // On this pass the handoff is taken, and the bytes sent after the request
  // are the new protocol's first input.
  host.loop.run_once(0);
  ASSERT_TRUE(host.echo->started);
  EXPECT_EQ(session.current_protocol(), host.echo) << "the HTTP/1 protocol still runs the session";
  EXPECT_EQ(host.echo->byte_count_at_start, std::string_view("sent-ahead").size());
  client.input += "ping";
  session.on_io(event_loop::readable);
  std::string out = client.take_output();
  size_t head_end = out.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  EXPECT_EQ(out.rfind("HTTP/1.1 101 Switching Protocols\r\n", 0), 0u) << out;
  EXPECT_NE(out.substr(0, head_end).find("upgrade: echo"), std::string::npos);
  EXPECT_EQ(out.substr(head_end + 4), "sent-aheadping") << "the echo came out of order, or was parsed as HTTP";
  EXPECT_NE(session.interest() & event_loop::readable, 0u);
  client.eof = true;
  session.on_io(event_loop::readable);
  EXPECT_TRUE(session.closed() || session.lingering());
}

TEST(Handoff, AnUpgradeTheHostRefusesClosesTheConnectionAfterThe101) {
  struct refusing_host final : baton::session::protocol_host, x::exchange_owner, sn::session_host {
    refusing_host() : scratch(settings.request_limits.max_headers) {}
    event_loop loop;
    baton::session::http_settings settings;
    h::settings http1_settings;
    sn::session_settings session_settings;
    sn::receive_buffer shared;
    std::vector<h::header> scratch;
    std::atomic<bool> draining{false};
    h::encoder wire{""};
    sn::session_context session_context{loop, session_settings, *this, shared};
    baton::gate::request_gate gate{settings, *this, draining};
    h::context context{gate, http1_settings, scratch.data(), wire};
    std::vector<std::unique_ptr<x::exchange>> owned;
    x::exchange* submitted = nullptr;
    x::exchange* new_exchange() override {
      owned.push_back(std::make_unique<x::exchange>(*this, loop, settings.exchanges));
      return owned.back().get();
    }
    void submit(x::exchange* s) override {
      s->attach_app();
      s->set_direct(true);
      submitted = s;
    }
    void session_closed(sn::session*, bool) override {}
    void session_lingering(sn::session*) override {}
    void exchange_news(x::exchange*) override {}
    void recycle(x::exchange*) override {}
  } host;
  baton::test::memory_transport client;
  sn::session session(host.session_context, client, x::peer_info{"192.0.2.1", 5000});
  session.start(std::make_unique<h::protocol>(host.context, session));
  client.input = "GET / HTTP/1.1\r\nHost: t\r\nConnection: upgrade\r\nUpgrade: nothing\r\n\r\nGET / HTTP/1.1\r\n\r\n";
  session.on_io(event_loop::readable);
  ASSERT_NE(host.submitted, nullptr);
  host.submitted->begin_response(101, "101 Switching Protocols");
  host.submitted->finish();
  host.submitted->app_done();
  host.submitted->links.sink->on_app_done(host.submitted);
  host.submitted->release();
  EXPECT_TRUE(session.lingering() || session.closed()) << "nothing took the session over, and it stayed open";
  EXPECT_EQ(client.take_output().find("HTTP/1.1", 1), std::string::npos) << "the bytes after the 101 were served";
}

}  // namespace
