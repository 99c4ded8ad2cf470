// The pool shape: N Python threads run the app while the loop thread, never
// holding the GIL, does everything else.
//
// Each thread attaches to Python once, at start, and detaches only while it
// waits: for a job (spinning briefly, then parked on its futex parker) or
// for its stream (body bytes, output credit), and inside blocking calls the
// app makes. Jobs cross from the loop in a single-producer/single-consumer
// ring per thread, carrying stream pointers; the loop gives a job only to a
// thread that is idle, so no request waits behind a slow one while another
// thread is free (the surplus waits in the server's queue). Completions come
// back as the streams' done notices, through the loop's inbox.
//
// Threads: try_start() and finished() run on the loop thread; the workers
// run the handler with the GIL held.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "bridge/stream_wait.h"
#include "bridge/turn_barrier.h"
#include "bridge/wsgi_handler.h"
#include "core/handoff/parker.h"
#include "core/handoff/spsc_ring.h"
#include "core/server/dispatcher.h"

namespace baton::bridge {

struct pool_options {
  int threads = 1;
  bool turn_barrier = true;      // BATON_POOL_TURN=0 turns it off (for the probe)
  bool fallback_inline = false;  // BATON_POOL_FALLBACK=inline: run on the loop thread when all are busy
};

class worker_pool final : public server::dispatcher {
 public:
  // The inline fallback waits through the handler's inline waiter.
  worker_pool(wsgi_handler& handler, const pool_options& options);
  ~worker_pool();
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  // GIL held: starts the threads. They attach and park until work comes.
  void start();
  // GIL released (the threads need it to finish): asks the threads to end
  // once their rings are empty, and joins them.
  void stop_and_join();

  bool try_start(http1::stream* s) override;
  void finished(http1::stream* s) override;

  const turn_barrier& barrier() const { return barrier_; }

 private:
  struct worker final : stream_waiter, http1::app_waker {
    explicit worker(worker_pool& pool) : owner(pool), jobs(4) {}
    uint64_t prepare() override { return parker.prepare_wait(); }
    void cancel() override { parker.cancel_wait(); }
    void wait(http1::stream& s, uint64_t token) override;
    void wake() override { parker.notify(); }
    void run();

    worker_pool& owner;
    handoff::spsc_ring<http1::stream> jobs;
    handoff::parker parker;
    wsgi_thread_state state;
    std::thread thread;
  };

  void run_inline(http1::stream* s);

  wsgi_handler& handler_;
  pool_options options_;
  turn_barrier barrier_;
  std::vector<std::unique_ptr<worker>> workers_;
  std::vector<int> idle_;  // loop thread: workers with no job, most recently idle last
  std::atomic<bool> stopping_{false};
  bool inline_busy_ = false;
};

}  // namespace baton::bridge
