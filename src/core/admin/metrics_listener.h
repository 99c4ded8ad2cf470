// The metrics listener: GET /metrics answered from the region by a thread
// of its own, never by the app, so a scrape is answered while every app
// thread is busy and through a drain. Plain HTTP/1.1, one request a
// connection (it closes after the answer): an unknown path gets 404, another
// method 405, anything that is not an HTTP/1.1 request 400, and a client
// that sends no whole head within 10 s is closed.
#pragma once

#include <atomic>
#include <thread>

#include "core/metrics/exposition.h"

namespace baton::admin {

class metrics_listener {
 public:
  // Serves on `fd` (bound and listening; owned from here) until destroyed.
  metrics_listener(int fd, const metrics::region& r, metrics::build_info info);
  ~metrics_listener();
  metrics_listener(const metrics_listener&) = delete;
  metrics_listener& operator=(const metrics_listener&) = delete;

  // Scrapes answered (tests and logs).
  uint64_t scrapes() const { return scrapes_.load(std::memory_order_relaxed); }

 private:
  void serve();
  int fd_;
  int stop_fd_;
  const metrics::region& region_;
  metrics::build_info info_;
  std::atomic<uint64_t> scrapes_{0};
  std::thread thread_;
};

// The answer to one request head (exposed for tests): the whole response,
// head and body.
std::string answer(std::string_view head, const metrics::region& r, const metrics::build_info& info);

}  // namespace baton::admin
