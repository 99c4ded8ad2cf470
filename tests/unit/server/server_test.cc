// The server with its thread pool, end to end over loopback sockets, with a
// C++ app: streams cross between the loop and the pool threads, requests
// queue when every thread is busy, clients vanish at random points. These
// tests carry the cross-thread protocol (rings, parkers, notices, the
// stream's shared fields) in the ThreadSanitizer build.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/metrics/layout.h"
#include "core/server/server.h"
#include "core/server/signals.h"
#include "core/server/exchange_wait.h"
#include "core/server/thread_pool.h"

namespace {

namespace h = baton::http1;
namespace srv = baton::server;

#if defined(__SANITIZE_THREAD__)
constexpr int scale = 5;
#else
constexpr int scale = 1;
#endif

// The app: echoes the request body after the path, so a response proves
// which request it answers. /slow?ms=N sleeps first; every path is logged.
struct echo_app final : srv::request_handler {
  void handle(baton::exchange::exchange& s) override {
    std::string path(s.head().path);
    {
      std::lock_guard<std::mutex> guard(lock);
      paths.push_back(path);
    }
    srv::exchange_waiter* waiter = srv::thread_pool::current_waiter();
    while (path == "/hold" && !release_hold.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (path == "/slow") {
      int ms = std::stoi(std::string(s.head().query.substr(3)));
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
    std::string body;
    bool failed = false;
    while (true) {
      std::string_view view;
      baton::exchange::exchange::read_status r = baton::exchange::exchange::read_status::pending;
      srv::wait_until(*waiter, s, [&] {
        r = s.try_read(view);
        return r != baton::exchange::exchange::read_status::pending;
      });
      if (r == baton::exchange::exchange::read_status::data) {
        body.append(view);
        s.consume(view.size());
        continue;
      }
      failed = r == baton::exchange::exchange::read_status::error;
      break;
    }
    if (failed) {
      read_errors.fetch_add(1);
      s.fail(400);
      return;
    }
    std::string answer = path + ":" + body;
    s.begin_response(200, "200 OK");
    s.add_header("content-length", std::to_string(answer.size()));
    size_t sent = 0;
    while (sent < answer.size()) {
      size_t piece = std::min<size_t>(answer.size() - sent, 4096);
      baton::exchange::exchange::send_status st = baton::exchange::exchange::send_status::pending;
      srv::wait_until(*waiter, s, [&] {
        st = s.try_send(answer.data() + sent, piece);
        return st != baton::exchange::exchange::send_status::pending;
      });
      if (st == baton::exchange::exchange::send_status::gone) {
        gone.fetch_add(1);
        return;
      }
      sent += piece;
    }
    s.finish();
  }
  std::mutex lock;
  std::vector<std::string> paths;
  std::atomic<int> read_errors{0};
  std::atomic<int> gone{0};
  std::atomic<bool> release_hold{false};
  std::vector<std::string> started() {
    std::lock_guard<std::mutex> guard(lock);
    return paths;
  }
  size_t calls(const std::string& path) {
    std::lock_guard<std::mutex> guard(lock);
    return static_cast<size_t>(std::count(paths.begin(), paths.end(), path));
  }
};

struct no_hooks final : srv::thread_pool_hooks {};

// A stand-in for the GIL that always goes to the thread that asked for it
// last: the order the real one does not promise, made certain, so that a test
// can show jobs starting in the order the loop handed them out even when the
// lock goes the wrong way.
struct last_in_first_lock final : srv::thread_pool_hooks {
  explicit last_in_first_lock(bool ordered) : ordered(ordered) {}
  void thread_started(int) override {
    acquire();
    std::lock_guard<std::mutex> guard(lock);
    ++started;
  }
  void thread_stopping(int) override { release(); }
  void detach() override { release(); }
  void attach() override { acquire(); }
  bool may_spin_attached() override { return false; }
  bool oldest_first() override { return ordered; }

  void acquire() {
    std::unique_lock<std::mutex> guard(lock);
    uint64_t ticket = next_ticket++;
    waiting.push_back(ticket);
    changed.wait(guard, [&] { return !held && waiting.back() == ticket; });
    waiting.pop_back();
    held = true;
  }
  void release() {
    std::lock_guard<std::mutex> guard(lock);
    held = false;
    changed.notify_all();
  }
  size_t waiters() {
    std::lock_guard<std::mutex> guard(lock);
    return waiting.size();
  }
  // Every thread has started and let go of the lock to wait for work.
  bool all_waiting_for_work(int threads) {
    std::lock_guard<std::mutex> guard(lock);
    return started == threads && !held && waiting.empty();
  }

  const bool ordered;
  std::mutex lock;
  std::condition_variable changed;
  std::vector<uint64_t> waiting;
  uint64_t next_ticket = 0;
  bool held = false;
  int started = 0;
};

// Whatever fails in a test, /hold must end, or stopping the pool would wait
// for it forever.
struct release_on_exit {
  std::atomic<bool>& flag;
  ~release_on_exit() { flag = true; }
};

struct running_server {
  // With `start_now` false the socket listens (connections wait in its
  // backlog) and the loop starts at start_loop().
  explicit running_server(int threads, srv::server_config config = {}, srv::thread_pool_hooks* with = nullptr,
                          size_t pool_queue = srv::thread_pool::default_queue_capacity, bool start_now = true) {
    listener = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listener, 1024);
    socklen_t length = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &length);
    port = ntohs(addr.sin_port);
    config.handle_signals = false;
    server = std::make_unique<srv::server>(config, std::vector<int>{listener});
    pool = std::make_unique<srv::thread_pool>(app, with != nullptr ? *with : hooks, threads, nullptr, pool_queue);
    server->set_dispatcher(pool.get());
    pool->start();
    if (start_now) start_loop();
  }
  void start_loop() {
    loop_thread = std::thread([this] { server->run(); });
  }
  ~running_server() { stop(); }
  void stop() {
    if (!loop_thread.joinable()) return;
    server->request_shutdown();
    loop_thread.join();
    pool->stop_and_join();
    server->set_dispatcher(nullptr);
    server.reset();
  }

  echo_app app;
  no_hooks hooks;
  int listener = -1;
  uint16_t port = 0;
  std::unique_ptr<srv::server> server;
  std::unique_ptr<srv::thread_pool> pool;
  std::thread loop_thread;
};

int connect_to(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

// Closes with a reset (SO_LINGER 0): the server sees the client vanish.
void reset_close(int fd) {
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  ::close(fd);
}

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Reads one response with a Content-Length; returns its body, or "" with
// `ok` false when the connection ended first.
std::string read_body(int fd, std::string& carry, bool& ok) {
  ok = false;
  while (true) {
    size_t end = carry.find("\r\n\r\n");
    if (end != std::string::npos) {
      size_t cl = carry.find("content-length: ");
      if (cl == std::string::npos || cl > end) return {};
      size_t length = std::stoul(carry.substr(cl + 16));
      if (carry.size() >= end + 4 + length) {
        std::string body = carry.substr(end + 4, length);
        carry.erase(0, end + 4 + length);
        ok = true;
        return body;
      }
    }
    char buffer[65536];
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return {};
    carry.append(buffer, static_cast<size_t>(n));
  }
}

// Opens a connection whose /hold keeps one thread in the app until the test
// sets release_hold; returns it once the app has the request (or after five
// seconds: the caller checks calls("/hold")).
int start_hold(running_server& srv) {
  int fd = connect_to(srv.port);
  send_all(fd, "GET /hold HTTP/1.1\r\nHost: t\r\n\r\n");
  for (int i = 0; i < 5000 && srv.app.calls("/hold") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return fd;
}

// Reads the one answer a connection is owed, then closes it: whether it came.
bool answered_then_closed(int fd) {
  bool ok = false;
  std::string carry;
  read_body(fd, carry, ok);
  ::close(fd);
  return ok;
}

std::string post(std::string_view path, std::string_view body) {
  return "POST " + std::string(path) + " HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + std::string(body);
}

// Returns how many jobs started in another thread's place (and, in `left`,
// how many were left to a running thread).
uint64_t every_client_gets_the_answer_to_its_own_request(srv::thread_pool_hooks* hooks, uint64_t* left = nullptr) {
  running_server srv(4, {}, hooks);
  constexpr int clients = 12;
  const int requests = 300 / scale;
  std::atomic<int> wrong{0};
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 rng(static_cast<unsigned>(c * 7 + 1));
      int fd = connect_to(srv.port);
      std::string carry;
      for (int i = 0; i < requests; ++i) {
        if (fd < 0) fd = connect_to(srv.port);
        std::string id = "c" + std::to_string(c) + "-r" + std::to_string(i);
        // Bodies from nothing to well past the pre-read size.
        size_t size = (rng() % 4 == 0) ? 100000 + rng() % 200000 : rng() % 2000;
        std::string body = id + std::string(size, static_cast<char>('a' + (i % 26)));
        std::string request = post("/echo/" + id, body);
        int fate = static_cast<int>(rng() % 10);
        if (fate == 0) {  // vanish halfway through the request
          send_all(fd, std::string_view(request).substr(0, request.size() / 2));
          reset_close(fd);
          fd = -1;
          carry.clear();
          continue;
        }
        if (!send_all(fd, request)) {
          ::close(fd);
          fd = -1;
          carry.clear();
          continue;
        }
        if (fate == 1) {  // vanish before reading the answer
          reset_close(fd);
          fd = -1;
          carry.clear();
          continue;
        }
        bool ok = false;
        std::string answer = read_body(fd, carry, ok);
        if (!ok) {
          wrong.fetch_add(1);
          ::close(fd);
          fd = -1;
          carry.clear();
          continue;
        }
        if (answer != "/echo/" + id + ":" + body) wrong.fetch_add(1);
        answered.fetch_add(1);
      }
      if (fd >= 0) ::close(fd);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(answered.load(), clients * requests / 2);
  srv.stop();
  if (left != nullptr) *left = srv.pool->left_to_runner();
  return srv.pool->order_swaps();
}

// The server's end of the test's connection `client`, found among this
// process's descriptors by its peer (the client's own address); -1 if none.
int server_end_of(int client) {
  sockaddr_in mine{};
  socklen_t length = sizeof mine;
  getsockname(client, reinterpret_cast<sockaddr*>(&mine), &length);
  for (int fd = 3; fd < 4096; ++fd) {
    sockaddr_in peer{};
    socklen_t peer_length = sizeof peer;
    if (fd == client || getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_length) != 0) continue;
    if (peer.sin_family == AF_INET && peer.sin_port == mine.sin_port && peer.sin_addr.s_addr == mine.sin_addr.s_addr) {
      return fd;
    }
  }
  return -1;
}

// Small answers leave at once: every accepted TCP connection has Nagle off,
// the first (where the listener's setting is checked) and those after it
// (which take it from the listener without a call of their own).
TEST(ServerWithPool, EveryAcceptedConnectionHasNagleOff) {
  running_server srv(1);
  for (int i = 0; i < 3; ++i) {
    int fd = connect_to(srv.port);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(send_all(fd, "GET /n HTTP/1.1\r\nHost: t\r\n\r\n"));
    bool ok = false;
    std::string carry;
    read_body(fd, carry, ok);
    ASSERT_TRUE(ok);
    int server_fd = server_end_of(fd);
    ASSERT_GE(server_fd, 0);
    int value = 0;
    socklen_t length = sizeof value;
    ASSERT_EQ(getsockopt(server_fd, IPPROTO_TCP, TCP_NODELAY, &value, &length), 0);
    EXPECT_NE(value, 0) << "connection " << i;
    ::close(fd);
  }
}

TEST(ServerWithPool, EveryClientGetsTheAnswerToItsOwnRequestWhileOthersVanish) {
  every_client_gets_the_answer_to_its_own_request(nullptr);
}

// The same with one lock for all threads, handed out last-asked-first, and
// jobs started oldest first: threads swap jobs in hand, and no answer goes to
// the wrong client.
//
// A swap needs two threads each handed a job while a third holds the lock,
// which the scheduler decides: with both cores busy, one round in six saw
// none. So rounds, each on a new server and each checking every answer, go
// on until the threads have swapped `wanted` jobs; only a pool that never
// (or almost never) swaps runs out of time, and a wrong answer ends them.
TEST(ServerWithPool, EveryClientGetsTheAnswerToItsOwnRequestWhileThreadsSwapJobs) {
  constexpr uint64_t wanted = 50;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  uint64_t swaps = 0;
  int rounds = 0;
  while (swaps < wanted && std::chrono::steady_clock::now() < deadline && !HasFailure()) {
    last_in_first_lock lock(true);
    swaps += every_client_gets_the_answer_to_its_own_request(&lock);
    ++rounds;
  }
  // After a failed round the count says nothing: the rounds stopped early.
  if (!HasFailure()) {
    EXPECT_GE(swaps, wanted) << "the threads swapped " << swaps << " jobs in " << rounds << " rounds";
  }
}

// Counts how often the threads let go of what they hold (the GIL, for the
// Python pool) to wait.
struct counting_hooks final : srv::thread_pool_hooks {
  void detach() override { detaches.fetch_add(1); }
  bool may_spin_attached() override { return false; }
  std::atomic<uint64_t> detaches{0};
};

// Both threads busy, twenty requests waiting: as each thread finishes, it
// takes the next waiting job from the pool's queue itself, neither letting go
// of what it holds nor being woken for it (before the pool had a queue, each
// of those jobs cost a park, a wake and a GIL hand-over).
TEST(ServerWithPool, BusyThreadsTakeWaitingJobsThemselvesWithoutLettingGoOrAWake) {
  constexpr int waiting = 20;
  counting_hooks hooks;
  running_server srv(2, {}, &hooks);
  release_on_exit release{srv.app.release_hold};
  auto wait_for = [](auto done) {
    for (int i = 0; i < 5000 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done();
  };
  std::vector<int> fds;
  for (int i = 0; i < 2; ++i) {
    fds.push_back(connect_to(srv.port));
    send_all(fds.back(), "GET /hold HTTP/1.1\r\nHost: t\r\n\r\n");
  }
  ASSERT_TRUE(wait_for([&] { return srv.app.calls("/hold") == 2; }));
  for (int i = 0; i < waiting; ++i) {
    fds.push_back(connect_to(srv.port));
    send_all(fds.back(), "GET /q" + std::to_string(i) + " HTTP/1.1\r\nHost: t\r\n\r\n");
  }
  ASSERT_TRUE(wait_for([&] { return srv.pool->queued_jobs() == waiting; }));
  uint64_t detaches = hooks.detaches.load();
  uint64_t wakes = srv.pool->job_wakes();
  srv.app.release_hold = true;
  for (int fd : fds) {
    bool ok = false;
    std::string carry;
    read_body(fd, carry, ok);
    EXPECT_TRUE(ok);
    ::close(fd);
  }
  // Each thread lets go once at the end, when nothing is left.
  ASSERT_TRUE(wait_for([&] { return srv.pool->idle_threads() == 2; }));
  EXPECT_LE(hooks.detaches.load() - detaches, 2u);
  EXPECT_EQ(srv.pool->job_wakes() - wakes, 0u);
  srv.stop();
}

// Jobs left to a running thread (runner_budget_ns), with what the pool
// counts around them.
struct runner_hooks final : srv::thread_pool_hooks {
  explicit runner_hooks(int64_t budget_ns) : budget_ns(budget_ns) {}
  void detach() override { detaches.fetch_add(1); }
  bool may_spin_attached() override { return false; }
  int64_t runner_budget_ns() override { return budget_ns; }
  int64_t budget_ns;
  std::atomic<uint64_t> detaches{0};
};

// One thread in a job it started just now, the other idle: a new request is
// left in the pool's queue for the running thread, not handed to the idle
// one with a wake, and the running thread answers it when its job is done.
TEST(ServerWithPool, AJobIsLeftToTheRunningThreadRatherThanWakingAnIdleOne) {
  runner_hooks hooks(2'000'000'000);  // no stall noticed within the test
  running_server srv(2, {}, &hooks);
  release_on_exit release{srv.app.release_hold};
  int hold = start_hold(srv);
  ASSERT_EQ(srv.app.calls("/hold"), 1u);
  for (int i = 0; i < 5000 && srv.pool->idle_threads() != 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(srv.pool->idle_threads(), 1u);
  uint64_t wakes = srv.pool->job_wakes();
  int next = connect_to(srv.port);
  send_all(next, "GET /next HTTP/1.1\r\nHost: t\r\n\r\n");
  for (int i = 0; i < 5000 && srv.pool->queued_jobs() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(srv.pool->queued_jobs(), 1u) << "the job went to the idle thread";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(srv.app.calls("/next"), 0u) << "an idle thread took the job";
  EXPECT_EQ(srv.pool->idle_threads(), 1u);
  srv.app.release_hold = true;
  for (int fd : {hold, next}) EXPECT_TRUE(answered_then_closed(fd));
  EXPECT_EQ(srv.pool->job_wakes(), wakes);
  EXPECT_EQ(srv.pool->left_to_runner(), 1u);
  EXPECT_EQ(srv.pool->runner_stalls(), 0u);
}

// A job left to a running thread whose job then blocks (a sleep here; a
// query or a lock in an app): nothing else happens on the server, yet the
// loop wakes an idle thread for it once nobody has started a job for the
// budget, and it is answered long before the sleeper is done.
TEST(ServerWithPool, AJobLeftToARunningThreadThatBlocksIsTakenByAnIdleOneAfterTheBudget) {
  runner_hooks hooks(1'000'000'000);
  running_server srv(2, {}, &hooks);
  int slow = connect_to(srv.port);
  send_all(slow, "GET /slow?ms=6000 HTTP/1.1\r\nHost: t\r\n\r\n");
  // Spun for (the request below must come within the budget of the
  // sleeper's start), up to seconds: five thousand yields were not enough
  // on a loaded machine (the app was not yet called).
  auto spin_until = [](auto done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  };
  spin_until([&] { return srv.app.calls("/slow") != 0; });
  ASSERT_EQ(srv.app.calls("/slow"), 1u);
  spin_until([&] { return srv.pool->idle_threads() == 1; });
  ASSERT_EQ(srv.pool->idle_threads(), 1u);
  auto start = std::chrono::steady_clock::now();
  int fast = connect_to(srv.port);
  std::string carry;
  send_all(fast, post("/fast", "x"));
  bool ok = false;
  EXPECT_EQ(read_body(fast, carry, ok), "/fast:x");
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_LT(waited, std::chrono::milliseconds(4000)) << "the job waited for the sleeping thread";
  // Sent within the budget of the sleeper's start: left to it, then taken
  // by the idle thread when the loop saw the stall.
  if (srv.pool->left_to_runner() == 1) {
    EXPECT_GE(srv.pool->runner_stalls(), 1u);
  } else {
    ADD_FAILURE() << "the request came later than the budget after the sleeper started; the test proved nothing";
  }
  std::string slow_carry;
  EXPECT_EQ(read_body(slow, slow_carry, ok), "/slow:");
  ::close(fast);
  ::close(slow);
}

// The answer-to-its-own-request stress with jobs left to running threads: a
// budget short enough that the loop both leaves jobs and wakes for stalls
// (a thread waiting for a body stops counting as running). How many are
// left is the scheduler's to say, so rounds go on until enough were.
TEST(ServerWithPool, EveryClientGetsTheAnswerToItsOwnRequestWhileJobsAreLeftToRunningThreads) {
  constexpr uint64_t wanted = 50;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  uint64_t left = 0;
  int rounds = 0;
  while (left < wanted && std::chrono::steady_clock::now() < deadline && !HasFailure()) {
    runner_hooks hooks(1'000'000);
    uint64_t round_left = 0;
    every_client_gets_the_answer_to_its_own_request(&hooks, &round_left);
    left += round_left;
    ++rounds;
  }
  if (!HasFailure()) EXPECT_GE(left, wanted) << left << " jobs left to running threads in " << rounds << " rounds";
}

// Round after round, three requests at once on three connections, each
// answer awaited for at most two seconds: how many never came (the rounds
// stop at the first).
int requests_left_unanswered(uint16_t port, int rounds) {
  int fds[3];
  for (int& fd : fds) {
    fd = connect_to(port);
    timeval tv{2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  std::string carries[3];
  int stuck = 0;
  for (int round = 0; round < rounds && stuck == 0; ++round) {
    for (int fd : fds) send_all(fd, "GET /r HTTP/1.1\r\nHost: t\r\n\r\n");
    for (int i = 0; i < 3; ++i) {
      bool ok = false;
      read_body(fds[i], carries[i], ok);
      if (!ok) ++stuck;
    }
  }
  for (int fd : fds) ::close(fd);
  return stuck;
}

// Round after round, three requests at once to two threads: the third finds
// no idle thread and goes to the pool's queue just as the threads finish and
// go idle. A thread that parked without seeing it, unwoken, would leave it
// there for good (nothing else arrives in the round): every round must end.
TEST(ServerWithPool, AJobQueuedAsTheThreadsGoIdleIsNeverLeftWaiting) {
  counting_hooks hooks;  // no attached spin: a thread goes idle as soon as it finds nothing
  running_server srv(2, {}, &hooks);
  EXPECT_EQ(requests_left_unanswered(srv.port, 3000 / scale), 0);
}

// One of three threads sits in a view that does not return until the test
// ends; round after round, three requests at once go to the other two, so
// one waits in the pool's queue as they finish and go idle. A job left
// waiting for the held thread, or beside a thread asleep, would never be
// answered: every round must end.
TEST(ServerWithPool, NoJobWaitsForAHeldThreadWhileAnotherIsFree) {
  counting_hooks hooks;  // no attached spin: threads go idle at once
  running_server srv(3, {}, &hooks);
  release_on_exit release{srv.app.release_hold};
  int hold = start_hold(srv);
  ASSERT_EQ(srv.app.calls("/hold"), 1u);
  EXPECT_EQ(requests_left_unanswered(srv.port, 2000 / scale), 0);
  srv.app.release_hold = true;
  EXPECT_TRUE(answered_then_closed(hold));
}

// The same rounds with jobs left to running threads: a job left as the
// running thread finishes and parks must still be answered (the loop looks
// until the queue is empty), every round, also beside a held thread.
TEST(ServerWithPool, AJobLeftToARunningThreadAsItGoesIdleIsNeverLeftWaiting) {
  runner_hooks hooks(200'000);
  running_server srv(3, {}, &hooks);
  release_on_exit release{srv.app.release_hold};
  EXPECT_EQ(requests_left_unanswered(srv.port, 3000 / scale), 0);
  int hold = start_hold(srv);
  ASSERT_EQ(srv.app.calls("/hold"), 1u);
  EXPECT_EQ(requests_left_unanswered(srv.port, 2000 / scale), 0);
  EXPECT_GT(srv.pool->left_to_runner(), 0u);
  srv.app.release_hold = true;
  EXPECT_TRUE(answered_then_closed(hold));
}

TEST(ServerWithPool, ASlowRequestOccupiesOneThreadAndOthersKeepFlowing) {
  running_server srv(2);
  int slow = connect_to(srv.port);
  send_all(slow, "GET /slow?ms=800 HTTP/1.1\r\nHost: t\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto start = std::chrono::steady_clock::now();
  int fast = connect_to(srv.port);
  std::string carry;
  for (int i = 0; i < 20; ++i) {
    send_all(fast, post("/fast", "x"));
    bool ok = false;
    EXPECT_EQ(read_body(fast, carry, ok), "/fast:x");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(600))
      << "fast requests waited for the slow one";
  bool ok = false;
  std::string slow_carry;
  EXPECT_EQ(read_body(slow, slow_carry, ok), "/slow:");
  ::close(fast);
  ::close(slow);
}

// Three threads: one holds the lock in a job while two more jobs wait for
// it, the older on one thread and the newer on another; the lock then goes
// to the newer one's thread. With oldest_first() that thread starts the
// older job and leaves the newer in the other thread's hand; without it,
// the newer job overtakes (the convoy the pool-fairness probe measures).
TEST(ServerWithPool, JobsStartInTheOrderTheLoopHandedThemOutWhicheverThreadWinsTheLock) {
  for (bool ordered : {true, false}) {
    last_in_first_lock lock(ordered);
    running_server srv(3, {}, &lock);
    release_on_exit release{srv.app.release_hold};
    auto wait_for = [](auto done) {
      for (int i = 0; i < 5000 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return done();
    };
    ASSERT_TRUE(wait_for([&] { return lock.all_waiting_for_work(3); }));
    int hold = connect_to(srv.port);
    send_all(hold, "GET /hold HTTP/1.1\r\nHost: t\r\n\r\n");
    ASSERT_TRUE(wait_for([&] { return srv.app.calls("/hold") == 1; }));
    int older = connect_to(srv.port);
    send_all(older, "GET /older HTTP/1.1\r\nHost: t\r\n\r\n");
    ASSERT_TRUE(wait_for([&] { return lock.waiters() == 1; }));
    int newer = connect_to(srv.port);
    send_all(newer, "GET /newer HTTP/1.1\r\nHost: t\r\n\r\n");
    ASSERT_TRUE(wait_for([&] { return lock.waiters() == 2; }));
    srv.app.release_hold = true;
    for (int fd : {hold, older, newer}) {
      bool ok = false;
      std::string carry;
      read_body(fd, carry, ok);
      EXPECT_TRUE(ok);
      ::close(fd);
    }
    std::vector<std::string> expected = {"/hold", "/older", "/newer"};
    if (!ordered) std::swap(expected[1], expected[2]);
    EXPECT_EQ(srv.app.started(), expected) << (ordered ? "oldest first" : "bound to their threads");
    srv.stop();
  }
}

// Two threads, both busy: requests wait in the pool's queue, and once that
// is full (two places here) in the server's; either way, a request whose
// client has gone never reaches the app.
TEST(ServerWithPool, ARequestWhoseClientVanishesWhileQueuedNeverReachesTheApp) {
  for (int queued_count : {1, 3}) {
    running_server srv(2, {}, nullptr, 2);
    int busy[2];
    for (int& b : busy) {
      b = connect_to(srv.port);
      send_all(b, "GET /slow?ms=400 HTTP/1.1\r\nHost: t\r\n\r\n");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::vector<int> queued;
    for (int i = 0; i < queued_count; ++i) {
      queued.push_back(connect_to(srv.port));
      send_all(queued.back(), "GET /queued HTTP/1.1\r\nHost: t\r\n\r\n");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(srv.pool->queued_jobs(), std::min<size_t>(static_cast<size_t>(queued_count), 2));
    EXPECT_EQ(srv.server->queued_requests(), queued_count > 2 ? 1u : 0u);
    for (int fd : queued) reset_close(fd);
    for (int b : busy) {
      bool ok = false;
      std::string carry;
      EXPECT_EQ(read_body(b, carry, ok), "/slow:");
      send_all(b, post("/after", "y"));
      EXPECT_EQ(read_body(b, carry, ok), "/after:y");
      ::close(b);
    }
    EXPECT_EQ(srv.app.calls("/queued"), 0u);
  }
}

// A pool of one: a request waiting in the pool's queue whose client vanishes
// before its turn is skipped just the same.
TEST(ServerWithPool, ARequestWhoseClientVanishesWhileInAPoolOfOnesQueueNeverReachesTheApp) {
  running_server srv(1);
  int busy = connect_to(srv.port);
  send_all(busy, "GET /slow?ms=400 HTTP/1.1\r\nHost: t\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  int queued = connect_to(srv.port);
  send_all(queued, "GET /queued HTTP/1.1\r\nHost: t\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  reset_close(queued);
  bool ok = false;
  std::string carry;
  EXPECT_EQ(read_body(busy, carry, ok), "/slow:");
  send_all(busy, post("/after", "y"));
  EXPECT_EQ(read_body(busy, carry, ok), "/after:y");
  EXPECT_EQ(srv.app.calls("/queued"), 0u);
  ::close(busy);
}

TEST(ServerWithPool, AClientThatVanishesMidBodyFailsTheAppsReadAndFreesTheThread) {
  running_server srv(1);
  int fd = connect_to(srv.port);
  send_all(fd, "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\n");
  send_all(fd, std::string(200000, 'u'));
  // Wait until the app is inside the request, reading.
  for (int i = 0; i < 200 && srv.app.calls("/upload") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(srv.app.calls("/upload"), 1u);
  reset_close(fd);
  for (int i = 0; i < 400 && srv.app.read_errors.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(srv.app.read_errors.load(), 1);
  // The only thread is free again.
  int next = connect_to(srv.port);
  send_all(next, post("/next", "z"));
  bool ok = false;
  std::string carry;
  EXPECT_EQ(read_body(next, carry, ok), "/next:z");
  ::close(next);
}

TEST(ServerWithPool, AGracefulStopAnswersTheRequestInFlightFirst) {
  running_server srv(2);
  int fd = connect_to(srv.port);
  send_all(fd, "GET /slow?ms=300 HTTP/1.1\r\nHost: t\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto start = std::chrono::steady_clock::now();
  srv.server->request_shutdown();
  bool ok = false;
  std::string carry;
  EXPECT_EQ(read_body(fd, carry, ok), "/slow:");
  srv.loop_thread.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2000));
  srv.pool->stop_and_join();
  srv.server->set_dispatcher(nullptr);
  srv.server.reset();
  ::close(fd);
}

// Everything closes while requests still wait in the server's queue (the
// graceful timeout ends the drain, or an immediate stop skips it): they never
// reach the app, and leave the counts of those in the app and waiting (the
// in-flight and pool-queue gauges, which a server reloaded in this process
// goes on counting into) as a cancelled one does. What stays counted is what
// the pool still holds, until its done notices come in: then every count is 0.
void queued_requests_leave_the_gauges_when_everything_closes(bool immediate) {
  baton::metrics::thread_block block{};
  baton::metrics::worker_slot slot{};
  srv::server_config config;
  config.metrics = &block;
  config.metrics_slot = &slot;
  config.graceful_timeout_ms = 200;
  running_server srv(1, config, nullptr, 1);  // one thread, a small queue of its own
  release_on_exit release{srv.app.release_hold};
  std::vector<int> clients;
  for (int i = 0; i < 6; ++i) {
    clients.push_back(connect_to(srv.port));
    send_all(clients.back(), i == 0 ? "GET /hold HTTP/1.1\r\nHost: t\r\n\r\n" : "GET /waits HTTP/1.1\r\nHost: t\r\n\r\n");
  }
  // Every request arrived and the counts are still: one in the app (not
  // merely handed to the pool, whose queue holds it until its thread takes
  // it), the pool's queue full again behind it, the rest in the server's.
  auto settled = [&] {
    return srv.app.calls("/hold") == 1 && srv.pool->queued_jobs() == srv.pool->queue_slots() &&
           srv.server->queued_requests() + srv.pool->queued_jobs() == 5;
  };
  for (int i = 0; i < 4000 && !settled(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(settled());
  int64_t in_server_queue = static_cast<int64_t>(srv.server->queued_requests());
  ASSERT_EQ(in_server_queue + static_cast<int64_t>(srv.pool->queued_jobs()), 5);
  ASSERT_GE(in_server_queue, 1);
  EXPECT_EQ(slot.pool_queue.load(), in_server_queue);
  EXPECT_EQ(block.in_flight.load(), 6);
  srv.server->request_shutdown(immediate);
  srv.loop_thread.join();  // the graceful timeout (or the immediate stop) closed what was left
  EXPECT_EQ(srv.server->queued_requests(), 0u);
  EXPECT_EQ(srv.server->requests_in_app(), static_cast<uint32_t>(6 - in_server_queue));
  EXPECT_EQ(block.in_flight.load(), 6 - in_server_queue);
  EXPECT_EQ(slot.pool_queue.load(), 0);
  // The pool finishes what it holds (its clients are gone) and its done
  // notices wait in the loop's inbox: one pass on this thread takes them.
  srv.app.release_hold = true;
  srv.pool->stop_and_join();
  srv.server->set_dispatcher(nullptr);
  srv.server->run_posted_pass();
  EXPECT_EQ(srv.server->requests_in_app(), 0u);
  EXPECT_EQ(block.in_flight.load(), 0);
  EXPECT_EQ(slot.pool_queue.load(), 0);
  srv.server.reset();
  EXPECT_EQ(block.in_flight.load(), 0);
  EXPECT_EQ(slot.pool_queue.load(), 0);
  for (int fd : clients) ::close(fd);
}

TEST(ServerWithPool, RequestsStillQueuedWhenTheDrainEndsLeaveTheGauges) {
  queued_requests_leave_the_gauges_when_everything_closes(false);
}

TEST(ServerWithPool, RequestsStillQueuedAtAnImmediateStopLeaveTheGauges) {
  queued_requests_leave_the_gauges_when_everything_closes(true);
}

// A worker whose master died is handed to init, and the death signal may
// not have told it (see baton.master.die_with_parent): the heartbeat finds
// getppid() no longer the master's and the worker retires, finishing the
// request in flight. A pid above the kernel's pid_max stands in for a
// master that is gone. The request waits in the backlog before the loop
// starts: the first look (as the loop starts) already retires the server,
// which closes its listener.
TEST(ServerWithPool, AWorkerWhoseMasterIsGoneRetiresAtItsHeartbeatFinishingItsRequests) {
  srv::server_config config;
  config.parent_pid = INT32_MAX;
  config.retire_signal = SIGUSR2;
  config.heartbeat_interval_ms = 20;
  running_server srv(2, config, nullptr, srv::thread_pool::default_queue_capacity, false);
  int fd = connect_to(srv.port);
  send_all(fd, "GET /slow?ms=300 HTTP/1.1\r\nHost: t\r\n\r\n");
  srv.start_loop();
  bool ok = false;
  std::string carry;
  EXPECT_EQ(read_body(fd, carry, ok), "/slow:");
  srv.loop_thread.join();  // the loop ended by itself
  EXPECT_EQ(srv.server->why_stopped(), srv::stop_reason::hangup);
  srv.pool->stop_and_join();
  srv.server->set_dispatcher(nullptr);
  srv.server.reset();
  ::close(fd);
}

// The same heartbeat leaves a worker whose master lives serving.
TEST(ServerWithPool, AWorkerWhoseMasterLivesServesOnPastManyHeartbeats) {
  srv::server_config config;
  config.parent_pid = static_cast<int>(::getppid());
  config.retire_signal = SIGUSR2;
  config.heartbeat_interval_ms = 10;
  running_server srv(2, config);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int fd = connect_to(srv.port);
  send_all(fd, "GET /still HTTP/1.1\r\nHost: t\r\n\r\n");
  bool ok = false;
  std::string carry;
  EXPECT_EQ(read_body(fd, carry, ok), "/still:");
  EXPECT_EQ(srv.server->why_stopped(), srv::stop_reason::none);
  ::close(fd);
}

}  // namespace

// --- signals: several loops in one process (--threads) ---------------------

namespace signals_test {

struct registered_loop {
  int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  std::atomic<bool> stopping{false};
  ~registered_loop() { ::close(fd); }
  bool woken() const {
    uint64_t n = 0;
    return ::read(fd, &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n > 0;
  }
};

void (*current_handler(int signo))(int) {
  struct sigaction now{};
  sigaction(signo, nullptr, &now);
  return now.sa_handler;
}

}  // namespace signals_test

TEST(LoopSignals, EveryRegisteredLoopCountsADeliveredSignalAndIsWoken) {
  signals_test::registered_loop a, b;
  srv::loop_signals first(a.fd, &a.stopping, SIGHUP, false);
  srv::loop_signals second(b.fd, &b.stopping, SIGHUP, false);
  srv::loop_signals::deliver(SIGTERM);
  srv::loop_signals::deliver(SIGHUP);
  for (auto* s : {&first, &second}) {
    srv::loop_signals::counts c = s->take();
    EXPECT_EQ(c.terminate, 1);
    EXPECT_EQ(c.hangup, 1);
    EXPECT_EQ(s->take().terminate, 0);  // taken once
  }
  EXPECT_TRUE(a.woken() && b.woken());
  EXPECT_TRUE(a.stopping.load() && b.stopping.load());
}

TEST(LoopSignals, ALoopThatUnregisteredIsNeitherCountedNorWoken) {
  signals_test::registered_loop a, b;
  srv::loop_signals staying(a.fd, &a.stopping, 0, false);
  {
    srv::loop_signals leaving(b.fd, &b.stopping, 0, false);
  }
  srv::loop_signals::deliver(SIGUSR1);
  EXPECT_EQ(staying.take().reopen, 1);
  EXPECT_TRUE(a.woken());
  EXPECT_FALSE(b.woken());
  EXPECT_FALSE(b.stopping.load());
}

TEST(LoopSignals, HandlersAreInstalledOnceForTheProcessAndRestoredWhenTheLastLoopGoes) {
  signals_test::registered_loop a, b;
  auto before = signals_test::current_handler(SIGTERM);
  auto first = std::make_unique<srv::loop_signals>(a.fd, &a.stopping, 0, true);
  auto installed = signals_test::current_handler(SIGTERM);
  EXPECT_NE(installed, before);
  auto second = std::make_unique<srv::loop_signals>(b.fd, &b.stopping, 0, true);
  EXPECT_EQ(signals_test::current_handler(SIGTERM), installed);
  // A real signal, sent to the process: each loop counts it.
  ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
  EXPECT_EQ(first->take().terminate, 1);
  EXPECT_EQ(second->take().terminate, 1);
  first.reset();
  EXPECT_EQ(signals_test::current_handler(SIGTERM), installed);  // the other loop still needs them
  second.reset();
  EXPECT_EQ(signals_test::current_handler(SIGTERM), before);
}
