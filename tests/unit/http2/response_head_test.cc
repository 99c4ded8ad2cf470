// The response head as HTTP/2 sends it: the framing decided on the app side,
// the fields encoded on the loop thread straight from the exchange's data.
#include "core/http2/response_head.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/exchange/head.h"
#include "core/loop/event_loop.h"
#include "core/net/output_queue.h"

namespace {

namespace h2 = baton::http2;
namespace x = baton::exchange;

std::vector<std::pair<std::string, std::string>> pairs_of(const h2::encoded_head& head) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const nghttp2_nv& nv : head.fields) {
    out.emplace_back(std::string(reinterpret_cast<const char*>(nv.name), nv.namelen),
                     std::string(reinterpret_cast<const char*>(nv.value), nv.valuelen));
  }
  return out;
}

std::string value_of(const std::vector<std::pair<std::string, std::string>>& pairs, std::string_view name) {
  for (const auto& [n, v] : pairs) {
    if (n == name) return v;
  }
  return "<none>";
}

x::response_state committed(int status) {
  x::response_state r;
  r.status = status;
  r.committed = true;
  return r;
}

TEST(http2_response_head, TheStatusComesFirstAndNamesGoToLowerCase) {
  x::response_state r = committed(404);
  r.fields.add("Content-Type", "text/plain");
  r.fields.add("X-Trace-ID", "AbC");
  h2::encoded_head head;
  h2::encode(r, "baton", "", head);
  auto pairs = pairs_of(head);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs[0], std::make_pair(std::string(":status"), std::string("404")));
  EXPECT_EQ(value_of(pairs, "content-type"), "text/plain");
  EXPECT_EQ(value_of(pairs, "x-trace-id"), "AbC");  // values as the app gave them
  EXPECT_EQ(value_of(pairs, "server"), "baton");
  EXPECT_EQ(value_of(pairs, "date").size(), 29u);
}

TEST(http2_response_head, ConnectionSpecificFieldsAreLeftOut) {
  x::response_state r = committed(200);
  r.fields.add("Upgrade", "h2c");
  r.fields.add("Proxy-Connection", "keep-alive");
  r.fields.add("X-Kept", "1");
  h2::encoded_head head;
  h2::encode(r, "", "", head);
  auto pairs = pairs_of(head);
  EXPECT_EQ(value_of(pairs, "upgrade"), "<none>");
  EXPECT_EQ(value_of(pairs, "proxy-connection"), "<none>");
  EXPECT_EQ(value_of(pairs, "x-kept"), "1");
  EXPECT_EQ(value_of(pairs, "server"), "<none>");  // none configured
}

TEST(http2_response_head, AKnownLengthIsSentUnlessTheAppSentItsOwnOrThereIsNoBody) {
  x::response_state r = committed(200);
  r.length = 1234567;
  h2::encoded_head head;
  h2::encode(r, "baton", "", head);
  EXPECT_EQ(value_of(pairs_of(head), "content-length"), "1234567");
  r.fields.add("Content-Length", "1234567");
  h2::encode(r, "baton", "", head);
  int count = 0;
  for (const auto& [n, v] : pairs_of(head)) count += n == "content-length";
  EXPECT_EQ(count, 1);
  x::response_state empty = committed(204);
  empty.no_body = true;
  empty.length = 0;
  h2::encode(empty, "baton", "", head);
  EXPECT_EQ(value_of(pairs_of(head), "content-length"), "<none>");
}

TEST(http2_response_head, TheAppsOwnDateAndServerAreKept) {
  x::response_state r = committed(200);
  r.fields.add("Date", "Thu, 01 Jan 1970 00:00:00 GMT");
  r.fields.add("Server", "mine");
  r.app_date = r.app_server = true;
  h2::encoded_head head;
  h2::encode(r, "baton", "", head);
  auto pairs = pairs_of(head);
  EXPECT_EQ(value_of(pairs, "date"), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(value_of(pairs, "server"), "mine");
  EXPECT_EQ(pairs.size(), 3u);
}

TEST(http2_response_head, TheListenersAltSvcIsAddedUnlessTheAppSentItsOwn) {
  x::response_state r = committed(200);
  h2::encoded_head head;
  h2::encode(r, "baton", "h3=\":8443\"; ma=86400", head);
  EXPECT_EQ(value_of(pairs_of(head), "alt-svc"), "h3=\":8443\"; ma=86400");
  h2::encode(r, "baton", "", head);
  EXPECT_EQ(value_of(pairs_of(head), "alt-svc"), "<none>");
  r.fields.add("Alt-Svc", "clear");
  r.app_alt_svc = true;
  h2::encode(r, "baton", "h3=\":8443\"; ma=86400", head);
  int count = 0;
  for (const auto& [n, v] : pairs_of(head)) count += n == "alt-svc";
  EXPECT_EQ(count, 1);
  EXPECT_EQ(value_of(pairs_of(head), "alt-svc"), "clear");
}

TEST(http2_response_head, ManyFieldsKeepEveryViewValid) {
  // The storage is reserved before the first view is taken: a head of many
  // long names must not move what the early pairs point at.
  x::response_state r = committed(200);
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) names.push_back("X-A-Rather-Long-Field-Name-Number-" + std::to_string(i));
  for (const std::string& n : names) r.fields.add(n, "v");
  h2::encoded_head head;
  h2::encode(r, "baton", "", head);
  auto pairs = pairs_of(head);
  EXPECT_EQ(pairs[0].second, "200");
  EXPECT_EQ(pairs[1].first, "x-a-rather-long-field-name-number-0");
  EXPECT_EQ(pairs[200].first, "x-a-rather-long-field-name-number-199");
}

TEST(http2_response_head, FramingDecidesNoBodyForHeadAnd1xx204And304) {
  h2::framing f("baton");
  baton::byte_buffer out;
  x::request_head get;
  x::request_head head_request;
  head_request.is_head = true;
  for (auto [status, request, no_body] : {std::tuple{200, &get, false}, std::tuple{200, &head_request, true},
                                         std::tuple{204, &get, true}, std::tuple{304, &get, true},
                                         std::tuple{103, &get, true}}) {
    x::response_state r;
    r.status = status;
    x::commit_facts facts{*request, true, false, 0, false};
    EXPECT_FALSE(f.write_head(r, facts, out));
    EXPECT_EQ(r.no_body, no_body) << status;
  }
  EXPECT_TRUE(out.empty());  // nothing is written: the head stays data
}

// The head crosses threads as data: the app side commits it and goes on
// writing the body (and the exchange's other response state) while the
// loop reads the head the moment it is ready. Whole every time; under
// ThreadSanitizer (make tsan), without a race.
struct drop_notices final : baton::loop::inbox_handler {
  void on_notices(baton::handoff::notice_link* list) override {
    while (list != nullptr) {
      baton::handoff::notice_link* next = list->notice_next;
      bool done = false;
      x::exchange* s = x::exchange::from_notice(list, done);
      if (!done) s->clear_queued();
      s->release();
      list = next;
    }
  }
};

struct keep_nothing final : x::exchange_owner {
  void exchange_news(x::exchange*) override {}
  void recycle(x::exchange*) override {}
};

TEST(http2_response_head, TheLoopReadsTheHeadWholeWhileTheAppGoesOnWithTheBody) {
#if defined(__SANITIZE_THREAD__)
  constexpr int rounds = 200;
#else
  constexpr int rounds = 2000;
#endif
  h2::framing f("baton");
  for (int round = 0; round < rounds; ++round) {
    baton::loop::event_loop loop;
    drop_notices notices;
    loop.set_inbox_handler(&notices);
    keep_nothing owner;
    x::exchange_settings settings;
    x::exchange s{owner, loop, settings};
    std::string raw = "GET / HTTP/1.1\r\n\r\n";
    x::request_head get;
    get.method = std::string_view(raw).substr(0, 3);
    s.reset_for(get, raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, f);
    s.attach_app();
    std::atomic<bool> finished{false};
    std::thread app([&] {
      s.begin_response(201, "201 Created");
      s.add_header("X-Round", std::to_string(round));
      s.add_header("Content-Type", "text/plain");
      s.flush();  // commits the head
      for (int i = 0; i < 8; ++i) {
        if (s.try_send("abcdefgh", 8) != x::exchange::send_status::accepted) break;
        s.flush();
      }
      s.add_trailer("x-done", "1");
      s.finish();
      s.app_done();
      finished.store(true);
    });
    baton::net::output_queue out;
    while (!s.head_ready()) s.take_output(out);
    h2::encoded_head head;
    h2::encode(s.response_head(), f.server(), "", head);
    auto pairs = pairs_of(head);
    EXPECT_EQ(pairs.at(0).second, "201");
    EXPECT_EQ(value_of(pairs, "x-round"), std::to_string(round));
    EXPECT_EQ(value_of(pairs, "content-type"), "text/plain");
    while (!finished.load()) s.take_output(out);
    app.join();
    loop.run_once(0);
    s.take_output(out);
    EXPECT_EQ(out.buffered_bytes(), 64u);  // the body alone: no head bytes in the output
    s.release();
  }
}

}  // namespace
