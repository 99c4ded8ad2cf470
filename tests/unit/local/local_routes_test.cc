// Unit tests for the core's own answers (src/core/local/local_routes.h): the
// path rules that keep a static request inside its directory, the
// beneath-only open, content types, and the answers themselves, given
// through an exchange and written by HTTP/1's wire as a connection has them.
#include "core/local/local_routes.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/http1/encoder.h"
#include "core/loop/event_loop.h"

namespace {

namespace h = baton::local;
namespace x = baton::exchange;

TEST(StaticPath, DecodesOnceAndJoinsSegments) {
  std::string out;
  ASSERT_TRUE(h::static_relative_path("/css/site.css", out));
  EXPECT_EQ(out, "css/site.css");
  ASSERT_TRUE(h::static_relative_path("/with%20space.txt", out));
  EXPECT_EQ(out, "with space.txt");
  ASSERT_TRUE(h::static_relative_path("//a/./b//", out));
  EXPECT_EQ(out, "a/b");
  ASSERT_TRUE(h::static_relative_path("/%2541", out));  // decoded once: "%41" is a name, not "A"
  EXPECT_EQ(out, "%41");
}

TEST(StaticPath, RefusesEveryWayOut) {
  std::string out;
  for (const char* path : {"/..", "/../x", "/a/../../x", "/%2e%2e/x", "/%2E%2E/x", "/.%2e/x", "/a%2f..%2fx",
                           "/a%2F..", "/..%5cx", "/a\\b", "/a%00b", "/%zz", "/%4", "/%", "", "/", "/./"}) {
    EXPECT_FALSE(h::static_relative_path(path, out)) << path;
  }
}

TEST(ContentType, ByExtensionAnyCase) {
  EXPECT_EQ(h::content_type_for("a/b/site.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(h::content_type_for("x.woff2"), "font/woff2");
  EXPECT_EQ(h::content_type_for("archive.tar.gz"), "application/gzip");
  EXPECT_EQ(h::content_type_for("README"), "application/octet-stream");
  EXPECT_EQ(h::content_type_for(".bashrc"), "application/octet-stream");
  EXPECT_EQ(h::content_type_for("dir.v2/file"), "application/octet-stream");
}

class Tree : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/baton-local-XXXXXX";
    root_ = mkdtemp(pattern);
    ASSERT_FALSE(root_.empty());
    public_ = root_ + "/public";
    mkdir(public_.c_str(), 0755);
    mkdir((public_ + "/css").c_str(), 0755);
    write(public_ + "/css/site.css", "body{}");
    write(root_ + "/secret", "secret");
    ASSERT_EQ(symlink("css/site.css", (public_ + "/inside").c_str()), 0);
    ASSERT_EQ(symlink("../secret", (public_ + "/dotdot").c_str()), 0);
    ASSERT_EQ(symlink((root_ + "/secret").c_str(), (public_ + "/absolute").c_str()), 0);
    ASSERT_EQ(symlink("..", (public_ + "/up").c_str()), 0);
    dirfd_ = open(public_.c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(dirfd_, 0);
  }
  void TearDown() override {
    close(dirfd_);
    std::string command = "rm -rf " + root_;
    ASSERT_EQ(std::system(command.c_str()), 0);
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  // The public directory at `route`.
  void mount_public(h::local_routes& routes, const std::string& route = "/static/") {
    std::string error;
    ASSERT_TRUE(routes.add_mount(route, public_, error)) << error;
  }
  std::string root_, public_;
  int dirfd_ = -1;
};

TEST_F(Tree, OpensBeneathAndFollowsOnlyLinksThatStayInside) {
  int fd = h::open_beneath(dirfd_, "css/site.css");
  ASSERT_GE(fd, 0);
  close(fd);
  fd = h::open_beneath(dirfd_, "inside");
  ASSERT_GE(fd, 0);
  close(fd);
  for (const char* escape : {"dotdot", "absolute", "up/secret", "../secret"}) {
    EXPECT_LT(h::open_beneath(dirfd_, escape), 0) << escape;
  }
}

// Where openat2 is missing (or BATON_X_STATIC_OPENAT2=0 asks for it), every
// component is opened with O_NOFOLLOW: no link is followed at all, the one
// that stays inside included, and no escape either.
TEST_F(Tree, TheFallbackWalkFollowsNoLinkAndLetsNothingOut) {
  h::use_open_fallback(true);
  int fd = h::open_beneath(dirfd_, "css/site.css");
  EXPECT_GE(fd, 0);
  if (fd >= 0) close(fd);
  EXPECT_LT(h::open_beneath(dirfd_, "inside"), 0) << "the fallback followed a link";
  for (const char* escape : {"dotdot", "absolute", "up/secret", "../secret"}) {
    EXPECT_LT(h::open_beneath(dirfd_, escape), 0) << escape;
  }
  h::use_open_fallback(false);
}

struct fake_request {
  std::vector<x::field> headers;
  x::request_head head;
  fake_request(std::string_view method, std::string_view path, std::vector<x::field> fields = {})
      : headers(std::move(fields)) {
    head.method = method;
    head.target = path;
    head.path = path;
    head.is_head = method == "HEAD";
    head.fields = headers.data();
    head.field_count = headers.size();
  }
};

// What a local answer came to: its status, the body bytes it counted, and
// whether the connection closes after it.
struct answer {
  int status = 0;
  uint64_t body_bytes = 0;
  bool close = false;
};

struct quiet_owner final : x::exchange_owner {
  void exchange_news(x::exchange*) override {}
  void recycle(x::exchange*) override {}
};

// Has `routes` answer `r` through an exchange on this thread, as the HTTP/1
// protocol does, and moves the answer's bytes into `out`. False when the
// request is not for a local route.
bool answer_into(const h::local_routes& routes, const fake_request& r, bool draining, baton::net::output_queue& out,
                 answer& a) {
  static baton::loop::event_loop loop;
  static quiet_owner owner;
  static std::atomic<bool> stopping{false};
  static const baton::http1::encoder wire{"baton"};
  static x::exchange_settings settings = [] {
    x::exchange_settings s;
    s.stopping = &stopping;
    return s;
  }();
  stopping.store(draining);
  x::exchange exchange(owner, loop, settings);
  exchange.reset_for(r.head, nullptr, 0, x::peer_info{"127.0.0.1", 1}, wire);
  exchange.set_direct(true);
  exchange.deliver_body_end();
  if (!routes.try_answer(exchange, draining)) {
    exchange.release();
    return false;
  }
  exchange.take_output(out);
  a = {exchange.response_status(), exchange.response_body_bytes(), exchange.close_after()};
  exchange.release();
  return true;
}

// Everything queued, as the client would read it (files included): written
// through a socket pair.
std::string head_text(baton::net::output_queue& out) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return {};
  EXPECT_EQ(out.flush(pair[0]), baton::net::output_queue::flush_result::done);
  close(pair[0]);
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(pair[1], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  close(pair[1]);
  return text;
}

// One request to `routes`, which must answer it: the status, the body
// bytes it counted and everything the client would read.
struct served {
  int status = 0;
  uint64_t body_bytes = 0;
  std::string text;
};
served ask(const h::local_routes& routes, std::string_view method, std::string_view path,
           std::vector<x::field> fields = {}) {
  answer a;
  baton::net::output_queue out;
  fake_request r(method, path, std::move(fields));
  EXPECT_TRUE(answer_into(routes, r, false, out, a)) << method << " " << path;
  return {a.status, a.body_bytes, head_text(out)};
}

// The ETag a GET of `path` is answered with ("" when there is none).
std::string etag_of(const h::local_routes& routes, std::string_view path) {
  std::string text = ask(routes, "GET", path).text;
  size_t at = text.find("etag: ");
  if (at == std::string::npos) return {};
  at += 6;
  return text.substr(at, text.find("\r\n", at) - at);
}

// A file the server may not read is 403, not 404. Root reads any file, so
// the check runs in a child that has become nobody (as an unprivileged
// worker is); its exit status carries the answer's status.
TEST_F(Tree, AnUnreadableFileIs403) {
  write(public_ + "/locked", "no");
  ASSERT_EQ(chmod((public_ + "/locked").c_str(), 0), 0);
  ASSERT_EQ(chmod(root_.c_str(), 0755), 0);
  h::local_routes routes;
  mount_public(routes);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(1);
    answer a;
    baton::net::output_queue out;
    fake_request r("GET", "/static/locked");
    bool answered = answer_into(routes, r, false, out, a);
    _exit(answered ? a.status % 256 : 2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 403 % 256) << "status 1: could not become nobody; 2: not answered";
}

TEST(Health, OkThenDrainingThenMethods) {
  h::local_routes routes;
  routes.set_health_path("/healthz");
  baton::net::output_queue out;
  answer a;
  fake_request get("GET", "/healthz");
  ASSERT_TRUE(answer_into(routes, get, false, out, a));
  EXPECT_EQ(a.status, 200);
  EXPECT_FALSE(a.close);
  EXPECT_NE(head_text(out).find("\r\n\r\nOK\n"), std::string::npos);
  baton::net::output_queue drained;
  ASSERT_TRUE(answer_into(routes, get, true, drained, a));
  EXPECT_EQ(a.status, 503);
  EXPECT_TRUE(a.close);
  EXPECT_NE(head_text(drained).find("connection: close"), std::string::npos);
  baton::net::output_queue posted;
  fake_request post("POST", "/healthz");
  ASSERT_TRUE(answer_into(routes, post, false, posted, a));
  EXPECT_EQ(a.status, 405);
  fake_request other("GET", "/healthzz");
  baton::net::output_queue none;
  EXPECT_FALSE(answer_into(routes, other, false, none, a));
  EXPECT_TRUE(none.empty());
}

TEST_F(Tree, StaticAnswersRangesAndConditions) {
  h::local_routes routes;
  std::string error;
  ASSERT_TRUE(routes.add_mount("/static/", public_, error)) << error;
  answer a;
  {
    baton::net::output_queue out;
    fake_request r("GET", "/static/css/site.css");
    ASSERT_TRUE(answer_into(routes, r, false, out, a));
    EXPECT_EQ(a.status, 200);
    EXPECT_EQ(a.body_bytes, 6u);
    std::string text = head_text(out);
    EXPECT_NE(text.find("content-type: text/css; charset=utf-8\r\n"), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 10), "\r\n\r\nbody{}");
  }
  {
    baton::net::output_queue out;
    fake_request r("GET", "/static/css/site.css", {{"Range", "bytes=1-2"}});
    ASSERT_TRUE(answer_into(routes, r, false, out, a));
    EXPECT_EQ(a.status, 206);
    EXPECT_EQ(a.body_bytes, 2u);
    std::string text = head_text(out);
    EXPECT_NE(text.find("content-range: bytes 1-2/6\r\n"), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 6), "\r\n\r\nod");
  }
  {
    baton::net::output_queue out;
    fake_request r("GET", "/static/css/site.css", {{"Range", "bytes=6-"}});
    ASSERT_TRUE(answer_into(routes, r, false, out, a));
    EXPECT_EQ(a.status, 416);
    EXPECT_NE(head_text(out).find("content-range: bytes */6\r\n"), std::string::npos);
  }
  {
    baton::net::output_queue out;
    fake_request r("GET", "/static/css/site.css", {{"If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT"}});
    ASSERT_TRUE(answer_into(routes, r, false, out, a));
    EXPECT_EQ(a.status, 304);
    EXPECT_EQ(a.body_bytes, 0u);
  }
  {
    baton::net::output_queue out;
    fake_request r("GET", "/static/dotdot");
    ASSERT_TRUE(answer_into(routes, r, false, out, a));
    EXPECT_EQ(a.status, 404);
  }
  {
    baton::net::output_queue out;
    fake_request r("GET", "/staticx/css/site.css");  // a prefix of a segment is not the route
    EXPECT_FALSE(answer_into(routes, r, false, out, a));
  }
}

// A FIFO in the directory: opening it must not wait for a writer (the loop
// thread would hang); it is not a regular file, so it is not found.
TEST_F(Tree, AFifoIsRefusedWithoutWaitingForAWriter) {
  ASSERT_EQ(mkfifo((public_ + "/pipe").c_str(), 0644), 0);
  h::local_routes routes;
  mount_public(routes);
  EXPECT_EQ(ask(routes, "GET", "/static/pipe").status, 404);
}

TEST_F(Tree, HeadIgnoresRange) {
  h::local_routes routes;
  mount_public(routes);
  served head = ask(routes, "HEAD", "/static/css/site.css", {{"Range", "bytes=1-2"}});
  EXPECT_EQ(head.status, 200);
  EXPECT_NE(head.text.find("content-length: 6\r\n"), std::string::npos);
}

// The same size and the same second, another content: the ETag changes.
TEST_F(Tree, TheEtagChangesWithinASecond) {
  h::local_routes routes;
  mount_public(routes);
  std::string path = public_ + "/css/site.css";
  auto etag_at = [&](long nanoseconds) {
    timespec times[2] = {{1700000000, 0}, {1700000000, nanoseconds}};
    EXPECT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
    return etag_of(routes, "/static/css/site.css");
  };
  std::string first = etag_at(100);
  write(path, "BODY{}");
  std::string second = etag_at(200);
  EXPECT_FALSE(first.empty());
  EXPECT_NE(first, second);
}

// RFC 9110 section 5.6.7: the three forms of one instant, the two-digit
// year's window, and what is none of them.
TEST(HttpDate, AcceptsTheThreeFormsAndNothingElse) {
  const time_t now = 1'796'000'000;  // in 2026
  const time_t instant = 784'111'777;  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(h::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT", now), instant);
  EXPECT_EQ(h::parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT", now), instant);
  EXPECT_EQ(h::parse_http_date("Sun Nov  6 08:49:37 1994", now), instant);
  EXPECT_EQ(h::parse_http_date("  Sun, 06 Nov 1994 08:49:37 GMT ", now), instant);
  // Two digits: the year is at most 50 ahead of now, else a century back.
  EXPECT_EQ(h::parse_http_date("Wednesday, 01-Jan-76 00:00:00 GMT", now), 3'345'062'400);  // 2076
  EXPECT_EQ(h::parse_http_date("Saturday, 01-Jan-77 00:00:00 GMT", now), 220'924'800);    // 1977
  for (const char* bad : {"Sun, 06 Nov 1994 08:49:37 UTC", "Sun Nov 6 08:49:37 1994", "Sun, 06 Nov 1994 24:00:00 GMT",
                          "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
                          "Sun, 06 Nov 1994 08-49-37 GMT", "784111777", ""}) {
    EXPECT_EQ(h::parse_http_date(bad, now), -1) << bad;
  }
}

// Mounts nest: the longest route a path lies under serves it, in whichever
// order the mounts were given, and a root mount does not shadow the others.
TEST_F(Tree, TheLongestRouteServesWhateverTheOrder) {
  mkdir((root_ + "/other").c_str(), 0755);
  write(root_ + "/other/site.css", "deeper");
  write(root_ + "/other/top.txt", "root");
  for (bool deep_first : {false, true}) {
    h::local_routes routes;
    std::string error;
    std::vector<std::pair<std::string, std::string>> mounts = {
        {"/", root_ + "/other"}, {"/static", public_}, {"/static/css", root_ + "/other"}};
    if (deep_first) std::reverse(mounts.begin(), mounts.end());
    for (auto& [route, dir] : mounts) ASSERT_TRUE(routes.add_mount(route, dir, error)) << error;
    served deep = ask(routes, "GET", "/static/css/site.css");
    EXPECT_EQ(deep.status, 200);
    EXPECT_EQ(deep.text.substr(deep.text.size() - 6), "deeper") << "deep_first=" << deep_first;
    served middle = ask(routes, "GET", "/static/inside");
    EXPECT_EQ(middle.status, 200);
    EXPECT_EQ(middle.text.substr(middle.text.size() - 6), "body{}") << "deep_first=" << deep_first;
    served top = ask(routes, "GET", "/top.txt");
    EXPECT_EQ(top.text.substr(top.text.size() - 4), "root") << "deep_first=" << deep_first;
  }
}

// An If-Modified-Since in an obsolete form is honoured like the current one.
TEST_F(Tree, IfModifiedSinceInTheObsoleteFormsGives304) {
  h::local_routes routes;
  mount_public(routes);
  for (const char* since : {"Thursday, 01-Jan-60 00:00:00 GMT", "Fri Jan  1 00:00:00 2100"}) {
    EXPECT_EQ(ask(routes, "GET", "/static/css/site.css", {{"If-Modified-Since", since}}).status, 304) << since;
  }
}

// RFC 9110 section 13.2.2: If-Match (strong comparison), or else
// If-Unmodified-Since, fails with 412 before If-None-Match is looked at.
TEST_F(Tree, PreconditionsFailWith412InTheirOrder) {
  h::local_routes routes;
  mount_public(routes, "/static");
  auto status = [&](std::vector<x::field> fields) {
    return ask(routes, "GET", "/static/css/site.css", std::move(fields)).status;
  };
  std::string etag = etag_of(routes, "/static/css/site.css");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(status({{"If-Match", etag}}), 200);
  EXPECT_EQ(status({{"If-Match", "\"other\", " + etag}}), 200);
  EXPECT_EQ(status({{"If-Match", "*"}}), 200);
  EXPECT_EQ(status({{"If-Match", "\"other\""}}), 412);
  EXPECT_EQ(status({{"If-Match", "W/" + etag}}), 412);  // weak never matches strongly
  EXPECT_EQ(status({{"If-Unmodified-Since", "Sat, 01 Jan 2000 00:00:00 GMT"}}), 412);
  EXPECT_EQ(status({{"If-Unmodified-Since", "Fri, 01 Jan 2100 00:00:00 GMT"}}), 200);
  EXPECT_EQ(status({{"If-Unmodified-Since", "not a date"}}), 200);
  // If-Match decides, If-Unmodified-Since is then not looked at.
  EXPECT_EQ(status({{"If-Match", etag}, {"If-Unmodified-Since", "Sat, 01 Jan 2000 00:00:00 GMT"}}), 200);
  // 412 comes before If-None-Match's 304.
  EXPECT_EQ(status({{"If-Match", "\"other\""}, {"If-None-Match", etag}}), 412);
  EXPECT_EQ(status({{"If-None-Match", etag}}), 304);
}

}  // namespace
