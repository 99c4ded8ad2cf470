#include "core/admin/metrics_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "core/http1/parser.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::admin {

namespace {

constexpr size_t max_head = 8192;
constexpr size_t max_clients = 64;
constexpr int64_t head_timeout_ms = 10000;

std::string response(int status, const char* reason, const char* type, const std::string& body,
                     const char* extra = "") {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\n";
  out += "Content-Type: ";
  out += type;
  out += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n";
  out += extra;
  out += "\r\n";
  return out + body;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The answer in one blocking send, bounded by a send timeout: this thread
// serves only scrapes, and a scraper that takes nothing for two seconds is
// dropped.
void send_whole(int fd, const std::string& out) {
  int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  timeval limit{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  size_t sent = 0;
  while (sent < out.size()) {
    ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

struct client {
  int fd;
  int64_t since_ms;
  std::string head;
};

}  // namespace

std::string answer(std::string_view head, const metrics::region& r, const metrics::build_info& info) {
  exchange::request_limits lim;
  lim.max_request_line = 2048;
  lim.max_header_bytes = max_head;
  lim.max_headers = 32;
  http1::header storage[32];
  http1::parse_cursor cursor;
  http1::request req;
  http1::parse_result parsed = http1::parse_request(head.data(), head.size(), cursor, lim, storage, req);
  const char* plain = "text/plain; charset=utf-8";
  if (parsed.status != http1::parse_status::complete) {
    return response(400, "Bad Request", plain, "this listener serves GET /metrics over HTTP/1.1\n");
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return response(405, "Method Not Allowed", plain, "GET or HEAD\n", "Allow: GET, HEAD\r\n");
  }
  if (req.path != "/metrics") return response(404, "Not Found", plain, "the metrics are at /metrics\n");
  std::string_view accept;
  for (size_t i = 0; i < req.field_count; ++i) {
    if (util::equals_ignore_case(req.fields[i].name, "accept")) accept = req.fields[i].value;
  }
  metrics::format f = metrics::format_for(accept);
  std::string body = metrics::render(r, f, info);
  std::string out = response(200, "OK", metrics::content_type(f), body);
  if (req.is_head) out.resize(out.size() - body.size());
  return out;
}

metrics_listener::metrics_listener(int fd, const metrics::region& r, metrics::build_info info)
    : fd_(fd), stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), region_(r), info_(std::move(info)) {
  thread_ = std::thread([this] { serve(); });
}

metrics_listener::~metrics_listener() {
  uint64_t one = 1;
  ssize_t ignored = ::write(stop_fd_, &one, sizeof one);
  (void)ignored;
  if (thread_.joinable()) thread_.join();
  ::close(stop_fd_);
  ::close(fd_);
}

// One poll set: the stop eventfd, the listening socket (while there is room
// for another client) and each client reading its head. An answer is small
// and written in one go (a scrape of a few kilobytes; a client that cannot
// take it is dropped), then the client is closed.
void metrics_listener::serve() {
  std::vector<client> clients;
  std::vector<pollfd> set;
  char buffer[4096];
  while (true) {
    set.clear();
    set.push_back({stop_fd_, POLLIN, 0});
    set.push_back({fd_, static_cast<short>(clients.size() < max_clients ? POLLIN : 0), 0});
    for (const client& c : clients) set.push_back({c.fd, POLLIN, 0});
    if (::poll(set.data(), set.size(), 1000) < 0 && errno != EINTR) return;
    if (set[0].revents != 0) break;
    if ((set[1].revents & POLLIN) != 0) {
      int accepted = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (accepted >= 0) clients.push_back({accepted, now_ms(), {}});
    }
    int64_t now = now_ms();
    for (size_t i = 0; i < clients.size();) {
      client& c = clients[i];
      bool done = false;
      if (i + 2 < set.size() && set[i + 2].revents != 0) {
        ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
        if (n <= 0) {
          done = n == 0 || (errno != EAGAIN && errno != EINTR);
        } else {
          c.head.append(buffer, static_cast<size_t>(n));
          bool whole = c.head.find("\r\n\r\n") != std::string::npos;
          if (whole || c.head.size() > max_head) {
            std::string out = answer(c.head, region_, info_);
            send_whole(c.fd, out);
            scrapes_.fetch_add(1, std::memory_order_relaxed);
            done = true;
          }
        }
      }
      if (!done && now - c.since_ms > head_timeout_ms) done = true;
      if (done) {
        ::close(c.fd);
        clients.erase(clients.begin() + static_cast<long>(i));
        set.erase(set.begin() + static_cast<long>(i) + 2);
      } else {
        ++i;
      }
    }
  }
  for (client& c : clients) ::close(c.fd);
}

}  // namespace baton::admin
