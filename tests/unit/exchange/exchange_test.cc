// The exchange's two sides on two threads, with no protocol: one thread
// plays the loop (delivering body bytes by copy, by buffer swap and straight
// into a registered destination), the other plays the app (reading, and
// asking for reads into its own memory). Every byte must arrive once and in
// order, whatever the interleaving. Runs under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/handoff/parker.h"
#include "core/exchange/exchange.h"
#include "core/loop/event_loop.h"
#include "core/loop/thread_contract.h"
#include "core/net/output_queue.h"

namespace {

namespace x = baton::exchange;

#if defined(__SANITIZE_THREAD__)
constexpr size_t body_size = 8u << 20;
#else
constexpr size_t body_size = 16u << 20;
#endif

struct owner final : x::exchange_owner {
  void exchange_news(x::exchange*) override {}
  void recycle(x::exchange*) override { recycled.fetch_add(1); }
  std::atomic<int> recycled{0};
};

// A wire that marks where the head and the pieces go (the protocols' own
// wires are tested with them).
struct test_wire final : x::response_wire {
  bool write_head(x::response_state& r, const x::commit_facts&, baton::byte_buffer& out) const override {
    out.append("[head " + r.status_line + "]");
    return false;
  }
  void begin_piece(size_t, baton::byte_buffer&) const override {}
  void end_piece(baton::byte_buffer&) const override {}
  void end_body(const baton::exchange::response_state&, baton::byte_buffer&) const override {}
  x::interim_result write_interim(int, const x::field_list&, const x::request_head&,
                                  baton::byte_buffer&) const override {
    return x::interim_result::keep_as_data;
  }
};
const test_wire wire;

// A POST head whose body has `length` bytes, its views into `raw`.
x::request_head post_head(const std::string& raw, size_t length) {
  x::request_head head;
  head.method = std::string_view(raw).substr(0, 4);
  head.content_length = static_cast<int64_t>(length);
  return head;
}

// Drops the references notices carry, as the server's inbox handler does.
struct inbox final : baton::loop::inbox_handler {
  void on_notices(baton::handoff::notice_link* list) override {
    while (list != nullptr) {
      baton::handoff::notice_link* next = list->notice_next;
      bool done = false;
      x::exchange* s = x::exchange::from_notice(list, done);
      if (done) {
        s->release();  // the app side's reference
      } else {
        s->clear_queued();
        s->release();
      }
      list = next;
    }
  }
};

struct parker_waker final : x::app_waker {
  void wake() override { parker.notify(); }
  baton::handoff::parker parker;
};

// A loop whose inbox drops the references notices carry, and one exchange on it.
struct rig {
  explicit rig(size_t body_window = x::exchange_settings{}.body_window) : settings(with_window(body_window)) {
    loop.set_inbox_handler(&handler);
  }
  static x::exchange_settings with_window(size_t body_window) {
    x::exchange_settings s;
    s.body_window = body_window;
    return s;
  }
  baton::loop::event_loop loop;
  inbox handler;
  owner own;
  const x::exchange_settings settings;
  x::exchange s{own, loop, settings};
};

char byte_at(size_t i) { return static_cast<char>('a' + (i * 7 + i / 251) % 26); }

TEST(Exchange, BodyBytesArriveOnceAndInOrderWhicheverWayTheyAreDelivered) {
  rig r(256 * 1024);
  baton::loop::event_loop& loop = r.loop;
  x::exchange& s = r.s;
  // A head to go with the body.
  std::string raw = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(body_size) + "\r\n\r\n";
  s.reset_for(post_head(raw, body_size), raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
  s.attach_app();

  std::atomic<bool> app_finished{false};
  std::string received;
  received.reserve(body_size);
  std::thread app([&] {
    parker_waker waker;
    s.set_waker(&waker);
    std::mt19937 rng(5);
    std::vector<char> chunk;
    while (received.size() < body_size) {
      if (rng() % 2 == 0) {
        // Into our own memory, as wsgi.input.read(n) does.
        size_t want = std::min<size_t>(body_size - received.size(), 1 + rng() % 20000);
        chunk.assign(want, '\0');
        if (s.read_into(chunk.data(), want)) {
          baton::handoff::park_until(waker.parker, [&] { return !s.target_active(); });
        }
        received.append(chunk.data(), s.target_filled());
      } else {
        std::string_view view;
        baton::handoff::park_until(waker.parker, [&] {
          return s.try_read(view) != x::exchange::read_status::pending;
        });
        if (!view.empty()) {
          size_t take = std::min<size_t>(view.size(), 1 + rng() % 20000);
          received.append(view.data(), take);
          s.consume(take);
        }
      }
    }
    s.begin_response(200, "200 OK");
    s.finish();
    s.app_done();
    app_finished.store(true);
  });

  // The loop: deliveries of random sizes by all three routes, in order.
  std::mt19937 rng(9);
  size_t sent = 0;
  std::string piece;
  while (sent < body_size) {
    size_t n = std::min<size_t>(body_size - sent, 1 + rng() % 4000);
    bool last = sent + n == body_size;
    size_t room = 0;
    char* target = s.target_space(room);
    if (target != nullptr && rng() % 2 == 0) {
      n = std::min(n, room);
      last = sent + n == body_size;
      for (size_t i = 0; i < n; ++i) target[i] = byte_at(sent + i);
      s.target_received(n, last);
    } else if (s.body_buffered() < r.settings.body_window) {
      if (rng() % 2 == 0) {
        char* space = s.body_space(n);
        for (size_t i = 0; i < n; ++i) space[i] = byte_at(sent + i);
        s.body_received(n, last);
      } else {
        piece.resize(n);
        for (size_t i = 0; i < n; ++i) piece[i] = byte_at(sent + i);
        s.deliver_body(piece.data(), n, last);
      }
    } else {
      loop.run_once(0);
      std::this_thread::yield();
      continue;
    }
    sent += n;
    if (rng() % 16 == 0) loop.run_once(0);
  }
  while (!app_finished.load()) loop.run_once(1);
  app.join();
  loop.run_once(0);
  ASSERT_EQ(received.size(), body_size);
  size_t first_bad = body_size;
  for (size_t i = 0; i < body_size; ++i) {
    if (received[i] != byte_at(i)) {
      first_bad = i;
      break;
    }
  }
  EXPECT_EQ(first_bad, body_size) << "bytes out of order or corrupt from this offset";
  s.release();  // the test's own (the connection's) reference
  EXPECT_EQ(r.own.recycled.load(), 1);
}

// The race read_into() must survive, forced: bytes are delivered after it
// found nothing buffered and before it registers its destination. They must
// still come before the bytes that arrive into the destination later.
// Messages cross whole and in order whether the exchange takes the loop's
// buffer (it has front room and the app has taken everything before) or
// copies it (no room, or messages still waiting), with the app on its own
// thread taking them at its own pace.
TEST(Exchange, MessagesArriveWholeAndInOrderWhetherTheirBuffersAreTakenOrCopied) {
#if defined(__SANITIZE_THREAD__)
  constexpr int count = 20000;
#else
  constexpr int count = 200000;
#endif
  rig r;
  baton::loop::event_loop& loop = r.loop;
  x::exchange& s = r.s;
  std::string raw = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
  s.reset_for(x::request_head{}, raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
  s.attach_app();
  auto size_of = [](int i) { return static_cast<size_t>((i * 2654435761u) % (i % 16 == 0 ? 20000 : 600)); };
  auto fill = [](char* p, size_t n, int i) {
    for (size_t k = 0; k < n; ++k) p[k] = byte_at(k + static_cast<size_t>(i));
  };

  std::atomic<int> bad{0};
  std::atomic<bool> app_finished{false};
  std::thread app([&] {
    parker_waker waker;
    s.set_waker(&waker);
    std::mt19937 rng(9);
    std::string expected;
    for (int i = 0; i < count; ++i) {
      x::client_message m;
      x::exchange::read_status r = x::exchange::read_status::pending;
      baton::handoff::park_until(waker.parker, [&] {
        r = s.try_read_message(m);
        return r != x::exchange::read_status::pending;
      });
      if (r != x::exchange::read_status::data) {  // cancelled: the messages left did not come
        bad.fetch_add(count - i);
        break;
      }
      expected.resize(size_of(i));
      fill(expected.data(), expected.size(), i);
      if (m.kind != (i % 2 == 0 ? x::message_kind::text : x::message_kind::binary) || m.payload != expected ||
          m.ascii != (i % 4 == 0)) {
        bad.fetch_add(1);
      }
      s.consume_message();
      if (rng() % 64 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 50));
    }
    s.set_waker(nullptr);
    app_finished.store(true);
  });
  std::mt19937 rng(3);
  baton::byte_buffer framed;
  int taken_kind = 0;
  for (int i = 0; i < count; ++i) {
    while (s.messages_waiting() >= 32) std::this_thread::yield();  // as the protocol's max_queue bounds it
    x::message_kind kind = i % 2 == 0 ? x::message_kind::text : x::message_kind::binary;
    size_t n = size_of(i);
    if (rng() % 3 == 0) {
      std::string plain(n, '\0');
      fill(plain.data(), n, i);
      s.deliver_message(kind, plain.data(), n, i % 4 == 0);
    } else {
      framed.reset_with_front_room(rng() % 2 == 0 ? 8 : 2, n);  // 2: too little room, copied
      fill(framed.prepare(n), n, i);
      framed.commit(n);
      s.deliver_message(kind, framed, i % 4 == 0);
      if (!framed.empty()) bad.fetch_add(1);
      ++taken_kind;
    }
    if (rng() % 1024 == 0) loop.run_once(0);
  }
  // Messages lost would leave the app waiting: it is cut loose after a while.
  for (int i = 0; i < 2000 && !app_finished.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (!app_finished.load()) s.cancel();
  app.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(taken_kind, count / 2);
  loop.run_once(0);
  s.app_done();
  loop.run_once(0);
  s.release();
}

TEST(Exchange, BytesDeliveredWhileADestinationIsBeingRegisteredKeepTheirPlace) {
  rig r;
  baton::loop::event_loop& loop = r.loop;
  x::exchange& s = r.s;
  std::string raw = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n";
  s.reset_for(post_head(raw, 9), raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
  s.attach_app();
  s.deliver_body("abc", 3);
  static x::exchange* racing = nullptr;
  racing = &s;
  x::body_in::before_register_for_tests = [] {
    x::body_in::before_register_for_tests = nullptr;
    racing->deliver_body("def", 3);  // the loop, just in time
  };
  char destination[9] = {};
  bool registered = s.read_into(destination, 9);
  x::body_in::before_register_for_tests = nullptr;
  ASSERT_TRUE(registered);
  size_t room = 0;
  char* target = s.target_space(room);
  ASSERT_NE(target, nullptr);
  std::memcpy(target, "ghi", 3);
  s.target_received(3, true);
  EXPECT_FALSE(s.target_active());
  EXPECT_EQ(std::string(destination, s.target_filled()), "abcdefghi");
  s.begin_response(200, "200 OK");
  s.finish();
  s.app_done();
  loop.run_once(0);
  s.release();
}

// The body's byte count (the access log's bytes_in, the metrics' request
// bytes) is the same whichever way the bytes went: delivered into the app's
// waiting read, delivered into the buffer, or read straight into the read.
TEST(Exchange, BodyBytesAreCountedOnceWhereverTheyLand) {
  rig r;
  baton::loop::event_loop& loop = r.loop;
  x::exchange& s = r.s;
  std::string raw = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n";
  s.reset_for(post_head(raw, 9), raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
  s.attach_app();
  char destination[9] = {};
  ASSERT_TRUE(s.read_into(destination, 6));
  s.deliver_body("abc", 3);  // into the waiting read
  EXPECT_EQ(s.body_bytes_received(), 3u);
  size_t room = 0;
  char* target = s.target_space(room);
  ASSERT_NE(target, nullptr);
  std::memcpy(target, "def", 3);
  s.target_received(3, false);  // read straight into it
  EXPECT_EQ(s.body_bytes_received(), 6u);
  s.deliver_body("ghi", 3, true);  // no read waiting: into the buffer
  EXPECT_EQ(s.body_bytes_received(), 9u);
  EXPECT_EQ(s.bytes_received(), raw.size() + 9);
  s.begin_response(200, "200 OK");
  s.finish();
  s.app_done();
  loop.run_once(0);
  s.release();
}



// HTTP/2's head is taken as it was built (no copy of its bytes or fields):
// the views the app reads point into the very buffer the protocol filled,
// and a later request given by copy still gets storage of its own.
TEST(Exchange, AnAdoptedHeadIsTakenWithoutACopy) {
  rig r;
  x::exchange& s = r.s;
  baton::byte_buffer bytes;
  bytes.append(std::string_view("GET/pathexample.com"));
  const char* base = bytes.data();
  std::vector<x::field> fields = {{"host", std::string_view(base + 8, 11)}};
  const x::field* field_array = fields.data();
  x::request_head h;
  h.method = std::string_view(base, 3);
  h.target = h.path = std::string_view(base + 3, 5);
  h.version_major = 2;
  h.fields = fields.data();
  h.field_count = fields.size();
  s.reset_for(h, bytes, fields, x::peer_info{"127.0.0.1", 1}, wire);
  EXPECT_EQ(s.head().method.data(), base) << "the head's bytes were copied";
  EXPECT_EQ(s.head().fields, field_array) << "the field array was copied";
  EXPECT_EQ(s.head().method, "GET");
  EXPECT_EQ(s.head().path, "/path");
  EXPECT_EQ(s.head().find("host"), "example.com");
  EXPECT_EQ(s.bytes_received(), 19u);
  s.release();

  std::string raw = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n";
  s.reset_for(post_head(raw, 9), raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
  EXPECT_NE(s.head().method.data(), raw.data());
  EXPECT_EQ(s.head().method, "POST");
  s.release();
}

// The thread contract, proven by breaking it: an exchange of a server (an
// owner that runs a loop) takes loop-side calls only from a thread running
// that loop's passes; any other aborts, naming the call (builds without
// NDEBUG: this one, ASan's and TSan's). Without the check, both calls
// below would return and the test would fail.
struct looped_owner final : x::exchange_owner {
  explicit looped_owner(const baton::loop::event_loop& l) : loop(l) {}
  void exchange_news(x::exchange*) override {}
  void recycle(x::exchange*) override {}
  const baton::loop::event_loop* loop_of() const override { return &loop; }
  const baton::loop::event_loop& loop;
};

TEST(ExchangeThreadContract, ALoopSideCallFromAThreadNotRunningTheLoopAborts) {
#ifdef NDEBUG
  GTEST_SKIP() << "the checks are built only without NDEBUG";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  baton::loop::event_loop loop;
  looped_owner own(loop);
  const x::exchange_settings settings;
  x::exchange s{own, loop, settings};
  std::string raw = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\n";
  {
    baton::loop::running_pass pass(&loop);
    s.reset_for(post_head(raw, 4), raw.data(), raw.size(), x::peer_info{"127.0.0.1", 1}, wire);
    s.deliver_body("ab", 2);  // on the loop: allowed
  }
  EXPECT_DEATH(s.deliver_body("cd", 2), "exchange::deliver_body called from a thread not running its loop");
  // An app thread taking the response's output, which only the loop may do.
  EXPECT_DEATH(
      {
        std::thread app([&] {
          baton::net::output_queue out;
          s.take_output(out);
        });
        app.join();
      },
      "exchange::take_output called from a thread not running its loop");
#endif
}

}  // namespace
