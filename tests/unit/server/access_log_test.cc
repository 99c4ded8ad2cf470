// Unit tests for the access log's formatting (src/core/server/access_log.h).
#include "core/server/access_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace x = baton::exchange;
using baton::server::access_log;
using baton::server::access_record;

struct sample {
  std::vector<x::field> headers;
  x::request_head head;
  x::field_list response_fields;
  access_record record;
  sample() {
    headers = {{"User-Agent", "curl/8 \"x\"\x01"}, {"Referer", "http://r/"}, {"Authorization", "Basic Ym9iOnB3"},
               {"X-Id", "42"}};
    head.method = "POST";
    head.target = "/a/b?x=1";
    head.path = "/a/b";
    head.query = "x=1";
    head.version_minor = 0;
    head.fields = headers.data();
    head.field_count = headers.size();
    record.head = &head;
    record.client = "10.1.2.3";
    record.status = 201;
    record.body_bytes = 0;
    record.duration_us = 1234567;
    response_fields.add("Content-Type", "text/plain");
    response_fields.add("X-Trace", "t1");
    record.response_fields = &response_fields;
  }
};

std::string line(const char* format, const access_record& r) {
  std::string error;
  auto log = access_log::open(format, "/dev/null", error);
  EXPECT_TRUE(log) << error;
  return log->format_line(r);
}

TEST(AccessLog, EveryAtom) {
  sample s;
  EXPECT_EQ(line("%(h)s %(l)s %(u)s \"%(r)s\" %(m)s %(U)s %(q)s %(H)s %(s)s %(B)s %(b)s", s.record),
            "10.1.2.3 - bob \"POST /a/b?x=1 HTTP/1.0\" POST /a/b x=1 HTTP/1.0 201 0 -\n");
  EXPECT_EQ(line("%(T)s %(D)s %(M)s %(L)s", s.record), "1 1234567 1234 1.234567\n");
  EXPECT_EQ(line("%(f)s|%(a)s", s.record), "http://r/|curl/8 \\\"x\\\"\\x01\n");
  EXPECT_EQ(line("%({x-id}i)s %({X-Trace}o)s %({content-type}o)s %({missing}i)s %({HOME}e)s", s.record),
            "42 t1 text/plain - -\n");
  EXPECT_EQ(line("%(p)s", s.record), std::to_string(getpid()) + "\n");
  EXPECT_EQ(line("100%% %(nope)s %(h", s.record), "100% - %(h\n");
}

TEST(AccessLog, TimeIsBracketedLocalTimeWithOffset) {
  sample s;
  std::string t = line("%(t)s", s.record);
  ASSERT_EQ(t.size(), 29u) << t;  // [dd/Mon/yyyy:HH:MM:SS +zzzz]\n
  EXPECT_EQ(t.front(), '[');
  EXPECT_EQ(t[27], ']');
}

TEST(AccessLog, UnixPeerAndEmptyBody) {
  sample s;
  s.record.client = "";
  s.record.body_bytes = 17;
  EXPECT_EQ(line("%(h)s %(b)s %(B)s", s.record), "- 17 17\n");
}

// The client may come from a forwarding header a trusted proxy passed on.
TEST(AccessLog, TheClientIsEscapedLikeEveryFieldAClientSent) {
  sample s;
  s.record.client = "1.2.3.4\" \"GET /forged";
  EXPECT_EQ(line("%(h)s", s.record), "1.2.3.4\\\" \\\"GET /forged\n");
}

}  // namespace

namespace {

// The loop hands lines over while another thread asks for reopens (SIGUSR1)
// and the writer writes: every line lands whole, none twice (run under
// ThreadSanitizer by make tsan).
TEST(AccessLog, EveryLineLandsWholeAcrossHandOversAndReopens) {
  char path[] = "/tmp/baton-access-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  sample s;
  constexpr int lines = 200000;
  {
    std::string error;
    auto log = access_log::open("%(s)s %(U)s", path, error);
    ASSERT_TRUE(log) << error;
    std::atomic<bool> done{false};
    std::thread rotator([&] {
      while (!done.load()) {
        log->reopen();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    for (int i = 0; i < lines; ++i) {
      s.record.status = 200 + i % 300;
      log->record(s.record);
      if (i % 97 == 0) log->hand_over();
    }
    done.store(true);
    rotator.join();
    EXPECT_EQ(log->dropped_lines(), 0u);
  }  // the destructor writes what is left
  FILE* f = fopen(path, "r");
  ASSERT_NE(f, nullptr);
  char buffer[64];
  int count = 0;
  long long status_sum = 0;
  while (fgets(buffer, sizeof buffer, f) != nullptr) {
    int status = 0;
    char rest[32];
    ASSERT_EQ(sscanf(buffer, "%d %31s", &status, rest), 2) << buffer;
    EXPECT_STREQ(rest, "/a/b");
    status_sum += status;
    ++count;
  }
  fclose(f);
  unlink(path);
  EXPECT_EQ(count, lines);
  long long expected = 0;
  for (int i = 0; i < lines; ++i) expected += 200 + i % 300;
  EXPECT_EQ(status_sum, expected);
}

}  // namespace
