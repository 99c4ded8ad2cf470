// The server: listening sockets, the connection registry, signals and the
// graceful stop, around one event loop.
//
// Shutdown has three steps. begin: stop accepting, close the listeners,
// close idle connections, and make every later response say
// Connection: close. drain: the loop keeps running until no connection is
// left or the budget (graceful_timeout_ms) runs out. finish: close whatever
// remains. A second SIGINT skips the drain.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/http1/connection.h"
#include "core/http1/exchange.h"
#include "core/loop/event_loop.h"
#include "core/server/signals.h"

namespace baton::server {

struct server_config {
  http1::connection_settings connection;
  int graceful_timeout_ms = 5000;
  int max_accepts_per_wake = 64;
};

class server final : private loop::io_handler {
 public:
  // Listener fds are already bound and listening; the server makes them
  // non-blocking and closes them when shutdown begins.
  server(const server_config& config, http1::request_handler& handler, std::vector<int> listeners);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  loop::event_loop& event_loop() { return loop_; }

  // Installs SIGTERM/SIGINT handlers for the duration of run() and restores
  // the previous ones after. Returns when the drain is over.
  void run();
  // Thread-safe: asks the loop to begin a graceful shutdown.
  void request_shutdown();
  bool stopped_by_signal() const { return signal_count_ > 0; }

 private:
  struct listener_watch final : loop::io_handler, loop::timer_handler {
    server* owner = nullptr;
    int fd = -1;
    bool paused = false;
    void on_io(uint32_t events) override;
    void on_timer() override;
  };
  struct drain_deadline final : loop::timer_handler {
    server* owner = nullptr;
    void on_timer() override;
  };

  void on_io(uint32_t events) override;  // the loop's wake
  void accept_from(listener_watch& l);
  void begin_shutdown();
  void close_all();
  void reap();
  static void on_connection_closed(void* owner, http1::connection* c);

  server_config config_;
  loop::event_loop loop_;
  http1::connection_context context_;
  std::vector<listener_watch> listeners_;
  drain_deadline drain_deadline_;
  http1::connection* live_ = nullptr;  // intrusive list of open connections
  std::vector<http1::connection*> closed_;
  size_t live_count_ = 0;
  loop_signals* signals_ = nullptr;
  std::atomic<bool> shutdown_requested_{false};
  bool shutting_down_ = false;
  int signal_count_ = 0;
};

}  // namespace baton::server
