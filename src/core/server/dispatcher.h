// How requests reach the application: the server hands each exchange to a
// dispatcher, which runs its app side now (inline), on another thread (the
// pool, asyncio), or declines because every runner is busy (the server then
// queues the exchange and offers it again when one is free).
#pragma once

#include "core/exchange/exchange.h"

namespace baton::server {

// Produces a response for one exchange, on whatever thread calls it. It must
// leave the exchange finished (finish() or fail()); it never calls app_done(),
// which belongs to whoever ran it.
class request_handler {
 public:
  virtual void handle(exchange::exchange& s) = 0;

 protected:
  ~request_handler() = default;
};

class dispatcher {
 public:
  // Loop thread. Takes the exchange (and the app-side reference the server
  // attached) if a runner is free, or the dispatcher has its own place for
  // it to wait (the pool's queue), and returns true; false leaves it with
  // the server. An exchange run directly on the loop thread (set_direct) has had
  // app_done() called by the time this returns.
  virtual bool try_start(exchange::exchange* s) = 0;
  // Loop thread: the done notice of an exchange this dispatcher started on
  // another thread has arrived.
  virtual void finished(exchange::exchange*) {}
  // Loop thread: whether exchanges it started are still running on other
  // threads (their done notices are due: the loop spins briefly for them
  // before it parks).
  virtual bool expects_completions() const { return false; }
  // Loop thread, after each pass: looks after exchanges it took without
  // waking a runner (left for one already running, which takes them when it
  // is done); returns how soon, in nanoseconds, it must look again (-1: no
  // need). The loop blocks no longer than that.
  virtual int64_t look_after_waiting() { return -1; }

 protected:
  ~dispatcher() = default;
};

// Runs the handler on the loop thread, one request at a time: while an app
// call is in progress (it may run nested loop passes while it waits for a
// body or a slow client), further requests wait in the server's queue.
class inline_dispatcher final : public dispatcher {
 public:
  explicit inline_dispatcher(request_handler& handler) : handler_(handler) {}
  bool try_start(exchange::exchange* s) override {
    if (busy_) return false;
    busy_ = true;
    s->set_direct(true);
    handler_.handle(*s);
    s->app_done();
    busy_ = false;
    return true;
  }
  bool busy() const { return busy_; }

 private:
  request_handler& handler_;
  bool busy_ = false;
};

}  // namespace baton::server
