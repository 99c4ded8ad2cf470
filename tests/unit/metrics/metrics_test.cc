// The metrics region, its sums and the scrape's answer (src/core/metrics):
// counts from several workers and threads add up, a dead worker's are kept
// (no counter goes backwards), the histogram is cumulative, both formats
// name their families as Prometheus and OpenMetrics want, the listener's
// answers to what is not a scrape, and a forked child's counts seen by its
// parent.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/metrics/exposition.h"
#include "core/admin/metrics_listener.h"
#include "core/metrics/record.h"
#include "core/metrics/region.h"
#include "core/metrics/stopwatch.h"

namespace {

namespace m = baton::metrics;

const m::build_info info{"0.1.0", "3.13.5", true};

// The value of the sample whose line starts with `prefix ` in a scrape.
long long sample(const std::string& scrape, const std::string& prefix) {
  size_t at = scrape.find("\n" + prefix + " ");
  if (at == std::string::npos) return -1;
  return std::stoll(scrape.substr(at + prefix.size() + 2));
}

// The bucket a latency falls in, the slow way: the first bound it does not exceed.
size_t bucket_by_walking(uint64_t us) {
  size_t i = 0;
  while (i < m::latency_bound_count && us > m::latency_bounds_us[i]) ++i;
  return i;
}

TEST(MetricsLatency, TheConstantTimeBucketIsTheFirstBoundNotExceeded) {
  std::vector<uint64_t> values = {0, 1, 2, 3, UINT64_MAX, UINT64_MAX - 1, uint64_t{1} << 63};
  for (uint64_t bound : m::latency_bounds_us) {
    for (uint64_t v : {bound - 1, bound, bound + 1, bound * 2 - 1, bound * 2}) values.push_back(v);
  }
  for (int bit = 0; bit < 64; ++bit) {
    uint64_t p = uint64_t{1} << bit;
    for (uint64_t v : {p - 1, p, p + 1}) values.push_back(v);
  }
  std::mt19937_64 random(7);
  for (int i = 0; i < 200000; ++i) values.push_back(random() >> (random() % 64));
  for (uint64_t v : values) ASSERT_EQ(m::latency_bucket_of(v), bucket_by_walking(v)) << v;
  EXPECT_EQ(m::latency_bucket_of(50), 0u);
  EXPECT_EQ(m::latency_bucket_of(51), 1u);
  EXPECT_EQ(m::latency_bucket_of(10000001), m::latency_bucket_count - 1);
}

TEST(MetricsStatus, TheClassIsTheHundredsDigitAndAnythingElseIs5xx) {
  for (int status = -1000; status < 3000; ++status) {
    size_t expected = status >= 100 && status < 600 ? static_cast<size_t>(status / 100 - 1) : 4;
    ASSERT_EQ(m::status_class_of(status), expected) << status;
  }
}

TEST(MetricsStopwatch, TimesASleepToWithinAFewPercent) {
  m::stopwatch::calibrate();
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  source >> name;
#if defined(__x86_64__)
  EXPECT_EQ(m::stopwatch::chosen.tsc, name == "tsc");
#endif
  for (int round = 0; round < 3; ++round) {
    int64_t ns0 = m::stopwatch::monotonic_ns();
    int64_t start = m::stopwatch::now();
    usleep(20000);
    int64_t end = m::stopwatch::now();
    int64_t ns1 = m::stopwatch::monotonic_ns();
    double timed = static_cast<double>(m::stopwatch::elapsed_ns(start, end));
    double truth = static_cast<double>(ns1 - ns0);
    EXPECT_GT(timed, 0.97 * truth - 20000) << round;
    EXPECT_LT(timed, 1.03 * truth) << round;
  }
  EXPECT_EQ(m::stopwatch::elapsed_ns(5, 5), 0u);
  EXPECT_EQ(m::stopwatch::elapsed_ns(6, 5), 0u);
}

TEST(MetricsRegion, CountsOfEveryWorkerAndThreadAddUp) {
  m::region r(2, 2);
  r.slot(0).pid = 100;
  r.slot(1).pid = 101;
  m::request_done(r.thread(0, 0), m::protocol::http1, 200, 80, 100, 13);
  m::request_done(r.thread(0, 1), m::protocol::http1, 204, 800, 100, 0);
  m::request_done(r.thread(1, 1), m::protocol::h2, 503, 20000, 50, 20);
  m::rejected(r.thread(1, 0), m::rejection::header_too_large);
  std::string s = m::render(r, m::format::prometheus, info);
  EXPECT_EQ(sample(s, R"(baton_requests_total{protocol="http/1.1",class="2xx"})"), 2);
  EXPECT_EQ(sample(s, R"(baton_requests_total{protocol="h2",class="5xx"})"), 1);
  EXPECT_EQ(sample(s, R"(baton_request_bytes_total{protocol="http/1.1"})"), 200);
  EXPECT_EQ(sample(s, R"(baton_rejections_total{cause="header_too_large"})"), 1);
  // Cumulative buckets: 80 us is over 50 and under 100; 800 us under 1 ms.
  EXPECT_EQ(sample(s, R"(baton_request_duration_seconds_bucket{protocol="http/1.1",le="5e-05"})"), 0);
  EXPECT_EQ(sample(s, R"(baton_request_duration_seconds_bucket{protocol="http/1.1",le="0.0001"})"), 1);
  EXPECT_EQ(sample(s, R"(baton_request_duration_seconds_bucket{protocol="http/1.1",le="0.001"})"), 2);
  EXPECT_EQ(sample(s, R"(baton_request_duration_seconds_bucket{protocol="http/1.1",le="+Inf"})"), 2);
  EXPECT_EQ(sample(s, R"(baton_request_duration_seconds_count{protocol="http/1.1"})"), 2);
  EXPECT_NE(s.find("# TYPE baton_requests_total counter\n"), std::string::npos);
  EXPECT_NE(s.find(R"(baton_build_info{version="0.1.0",python="3.13.5",gil="off"} 1)"), std::string::npos);
}

TEST(MetricsRegion, ADeadWorkersCountsAreKeptAndItsGaugesDropped) {
  m::region r(2, 1);
  r.slot(0).pid = 100;
  r.slot(1).pid = 101;
  for (int i = 0; i < 5; ++i) m::request_done(r.thread(0, 0), m::protocol::http1, 200, 100, 10, 10);
  m::request_done(r.thread(1, 0), m::protocol::http1, 200, 100, 10, 10);
  m::move(r.thread(0, 0).connections, 3);
  m::move(r.thread(1, 0).connections, 1);
  std::string before = m::render(r, m::format::prometheus, info);
  r.retire_slot(0);
  std::string after = m::render(r, m::format::prometheus, info);
  const std::string requests = R"(baton_requests_total{protocol="http/1.1",class="2xx"})";
  EXPECT_EQ(sample(before, requests), 6);
  EXPECT_EQ(sample(after, requests), 6);
  EXPECT_EQ(sample(before, "baton_connections"), 4);
  EXPECT_EQ(sample(after, "baton_connections"), 1);
  EXPECT_EQ(r.slot(0).pid.load(), 0);
  // The slot's next worker counts from zero, and the total goes on growing.
  r.slot(0).pid = 102;
  m::request_done(r.thread(0, 0), m::protocol::http1, 200, 100, 10, 10);
  EXPECT_EQ(sample(m::render(r, m::format::prometheus, info), requests), 7);
}

TEST(MetricsRegion, OpenMetricsNamesCounterFamiliesWithoutTotalAndEndsWithEof) {
  m::region r(1, 1);
  std::string s = m::render(r, m::format::openmetrics, info);
  EXPECT_NE(s.find("# TYPE baton_requests counter\n"), std::string::npos);
  EXPECT_NE(s.find("# TYPE baton_build info\n"), std::string::npos);
  EXPECT_EQ(s.substr(s.size() - 6), "# EOF\n");
  EXPECT_EQ(m::format_for("application/openmetrics-text; version=1.0.0,text/plain;q=0.5"), m::format::openmetrics);
  EXPECT_EQ(m::format_for("*/*"), m::format::prometheus);
}

TEST(MetricsRegion, AForkedWorkersCountsAreSeenByItsParent) {
  m::region r(1, 1);
  r.slot(0).pid = 1;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    m::request_done(r.thread(0, 0), m::protocol::websocket, 101, 0, 0, 0);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_EQ(r.thread(0, 0).answers[2].requests[0].load(), 1u);
}

TEST(MetricsListener, WhatIsNotAScrapeGetsItsOwnAnswer) {
  m::region r(1, 1);
  auto status = [&](std::string_view head) { return baton::admin::answer(head, r, info).substr(0, 12); };
  EXPECT_EQ(status("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 200");
  EXPECT_EQ(status("GET /other HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 404");
  EXPECT_EQ(status("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"), "HTTP/1.1 405");
  EXPECT_EQ(status("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), "HTTP/1.1 400");
  EXPECT_EQ(status(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15)), "HTTP/1.1 400");
  std::string head = baton::admin::answer("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n", r, info);
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");  // no body
  std::string open = baton::admin::answer("GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text\r\n\r\n",
                               r, info);
  EXPECT_NE(open.find("Content-Type: application/openmetrics-text"), std::string::npos);
}

TEST(MetricsListener, AScrapeOverASocketIsAnsweredByItsThread) {
  m::region r(1, 1);
  r.slot(0).pid = 1;
  m::request_done(r.thread(0, 0), m::protocol::http1, 200, 100, 10, 10);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  baton::admin::metrics_listener served(fd, r, info);
  int c = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_EQ(send(c, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string got;
  char buffer[4096];
  ssize_t n;
  while ((n = recv(c, buffer, sizeof buffer, 0)) > 0) got.append(buffer, static_cast<size_t>(n));
  close(c);
  EXPECT_EQ(got.substr(0, 12), "HTTP/1.1 200");
  EXPECT_EQ(sample(got, R"(baton_requests_total{protocol="http/1.1",class="2xx"})"), 1);
  EXPECT_EQ(served.scrapes(), 1u);
}

}  // namespace
