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

namespace baton::metrics {

class listener {
 public:
  // Serves on `fd` (bound and listening; owned from here) until destroyed.
  listener(int fd, const region& r, build_info info);
  ~listener();
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;

  // Scrapes answered (tests and logs).
  uint64_t scrapes() const { return scrapes_.load(std::memory_order_relaxed); }

 private:
  void serve();
  int fd_;
  int stop_fd_;
  const region& region_;
  build_info info_;
  std::atomic<uint64_t> scrapes_{0};
  std::thread thread_;
};

// The answer to one request head (exposed for tests): the whole response,
// head and body.
std::string answer(std::string_view head, const region& r, const build_info& info);

}  // namespace baton::metrics
