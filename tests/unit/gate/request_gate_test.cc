// The request gate (src/core/gate): the trusted-peer decision every
// protocol takes from it, and the count a refusal leaves in the loop's
// metrics, over a real session (an in-memory client).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "core/gate/request_gate.h"
#include "core/loop/event_loop.h"
#include "core/metrics/region.h"
#include "core/session/protocol_host.h"
#include "core/session/session.h"
#include "unit/support/memory_transport.h"

namespace {

namespace sn = baton::session;
namespace x = baton::exchange;
namespace m = baton::metrics;

struct gate_host final : sn::protocol_host, sn::session_host {
  baton::loop::event_loop loop;
  sn::http_settings http;
  sn::session_settings session_settings;
  sn::receive_buffer shared;
  sn::session_context session_context{loop, session_settings, *this, shared};
  std::atomic<bool> draining{false};
  baton::gate::request_gate gate{http, *this, draining};

  x::exchange* new_exchange() override { return nullptr; }
  void submit(x::exchange*) override {}
  void session_closed(sn::session*, bool) override {}
  void session_lingering(sn::session*) override {}

  // Whether the gate trusts a connection from `address` (empty: a Unix socket).
  bool trusts(const char* address) {
    baton::test::memory_transport client;
    sn::session s(session_context, client, x::peer_info{address, 40000});
    return gate.trusts_peer(s);
  }
};

TEST(RequestGate, TrustsAPeerOnlyWhenItsAddressIsInTheAllowList) {
  gate_host h;
  std::string error;
  ASSERT_TRUE(h.http.proxy.trusted.parse("192.0.2.0/24", error)) << error;
  EXPECT_TRUE(h.trusts("192.0.2.7"));
  EXPECT_FALSE(h.trusts("198.51.100.7"));
  // What an exchange reads forwarding headers under follows the decision.
  EXPECT_EQ(h.gate.forwarding(true), &h.http.proxy);
  EXPECT_EQ(h.gate.forwarding(false), nullptr);
}

TEST(RequestGate, TrustsAUnixSocketPeerAsItsSettingSays) {
  gate_host h;
  h.http.proxy.trust_unix = true;
  EXPECT_TRUE(h.trusts(""));
  h.http.proxy.trust_unix = false;
  EXPECT_FALSE(h.trusts(""));
}

TEST(RequestGate, TrustsNoPeerWhenForwardingHeadersAreOff) {
  gate_host h;
  std::string error;
  ASSERT_TRUE(h.http.proxy.trusted.parse("*", error)) << error;
  EXPECT_TRUE(h.trusts("192.0.2.7"));
  h.http.proxy.enabled = false;
  EXPECT_FALSE(h.trusts("192.0.2.7"));
  EXPECT_FALSE(h.trusts(""));
}

TEST(RequestGate, ARefusalIsCountedUnderItsStatusWhenMetricsAreOn) {
  gate_host h;
  baton::test::memory_transport client;
  sn::session s(h.session_context, client, x::peer_info{"192.0.2.7", 40000});
  h.gate.refused(s, 431, "too many header fields");  // metrics off: only the log line
  m::region r(1, 1);
  m::thread_block& block = r.thread(0, 0);
  h.gate.metrics = &block;
  h.gate.refused(s, 431, "too many header fields");
  h.gate.refused(s, 400, "a malformed head", 3);
  auto count = [&](m::rejection why) { return block.rejections[static_cast<size_t>(why)].load(); };
  EXPECT_EQ(count(m::rejection::header_too_large), 1u);
  EXPECT_EQ(count(m::rejection::bad_request), 1u);
}

}  // namespace
