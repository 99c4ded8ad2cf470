// Admission: which requests reach the app, and when. It keeps the
// exchanges' free list (an exchange is recycled, not freed, when its last
// reference goes); offers each submitted exchange to the dispatcher, or
// queues it, oldest first, when no runner is free (its protocol stops
// reading meanwhile, and accepting pauses once max_queued_requests wait);
// answers 503 past --limit-concurrency without the app; and takes the app
// sides' notices (news, and done).
//
// The counts live here and move together, each through one function:
// entered_app() / left_app() move the requests inside the app (in_app_,
// what --limit-concurrency compares) and the loop's in-flight gauge;
// wait() / stop_waiting() move the queue, its length for other threads
// (queued_requests()) and the worker's pool-queue gauge. Every way out of
// the queue (a runner, a client that left, the end) goes through
// stop_waiting(), and every exchange that entered the app leaves it once,
// whether it ran or not, so no path can leave a gauge raised.
//
// Loop thread only, except queued_requests(). The per-request calls are
// defined below, in this header, so the server's calls to them inline.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/exchange/exchange.h"
#include "core/handoff/notice_queue.h"
#include "core/loop/event_loop.h"
#include "core/metrics/record.h"
#include "core/server/dispatcher.h"
#include "core/server/listeners.h"
#include "core/server/server_config.h"
#include "core/util/intrusive_fifo.h"

namespace baton::server {

inline exchange::exchange*& queue_link(exchange::exchange& x) { return x.links.fifo_next; }
// Exchanges waiting for a runner, linked through their loop links.
using exchange_queue = util::intrusive_fifo<exchange::exchange, &queue_link>;

class admission final : private exchange::exchange_owner {
 public:
  admission(const server_config& config, loop::event_loop& loop, listener_set& listeners);
  // Frees the free list: every exchange must be back in it by now.
  ~admission();
  admission(const admission&) = delete;
  admission& operator=(const admission&) = delete;

  void set_dispatcher(baton::server::dispatcher* d) { dispatcher_ = d; }
  // Runners are out with exchanges whose done notices are due.
  bool expects_completions() const { return dispatcher_ != nullptr && dispatcher_->expects_completions(); }
  // The dispatcher's look at what it left waiting (dispatcher::look_after_waiting).
  int64_t look_after_waiting() { return dispatcher_ != nullptr ? dispatcher_->look_after_waiting() : -1; }

  // A fresh exchange for a request (one reference: the caller's).
  exchange::exchange* take_exchange();
  // Hands an exchange to the app: starts it, queues it, or refuses it.
  void submit(exchange::exchange* x);
  // What the app sides posted to the loop: news, and done.
  void take_notices(handoff::notice_link* list);
  // Starts queued exchanges, oldest first, while runners are free.
  void pump();
  bool has_waiting() const { return !waiting_.empty(); }
  // The end: requests that never reached a runner will not now; each
  // leaves the counts as a cancelled one does.
  void drop_waiting();
  // Frees recycled exchanges past `keep`; returns the bytes freed.
  size_t trim_free_list(size_t keep);

  size_t queued_requests() const { return queued_.load(std::memory_order_relaxed); }
  uint32_t in_app() const { return in_app_; }

 private:
  void exchange_news(exchange::exchange* x) override;
  void recycle(exchange::exchange* x) override;
  const loop::event_loop* loop_of() const override { return &loop_; }

  bool start_or_queue(exchange::exchange* x, bool front);
  void refuse_over_limit(exchange::exchange* x);
  void app_finished(exchange::exchange* x);
  void app_returned(exchange::exchange* x);
  void drop_queued(exchange::exchange* x);

  // The counts (see the top of this file): nothing else moves them.
  void entered_app() {
    ++in_app_;
    metrics::move(config_.metrics, &metrics::thread_block::in_flight, 1);
  }
  void left_app() {
    --in_app_;
    metrics::move(config_.metrics, &metrics::thread_block::in_flight, -1);
  }
  void wait(exchange::exchange* x, bool front);
  exchange::exchange* stop_waiting();
  void waiting_moved(int64_t by);

  const server_config& config_;
  loop::event_loop& loop_;
  listener_set& listeners_;
  baton::server::dispatcher* dispatcher_ = nullptr;
  std::vector<exchange::exchange*> free_exchanges_;
  exchange_queue waiting_;
  std::atomic<size_t> queued_{0};  // waiting_.size(), readable from other threads
  uint32_t in_app_ = 0;            // requests submitted and not yet done (--limit-concurrency)
  bool pumping_ = false;
};

// --- the per-request calls ----------------------------------------------------

inline exchange::exchange* admission::take_exchange() {
  if (!free_exchanges_.empty()) {
    exchange::exchange* x = free_exchanges_.back();
    free_exchanges_.pop_back();
    return x;
  }
  return new exchange::exchange(*this, loop_, config_.requests.exchanges);
}

inline void admission::submit(exchange::exchange* x) {
  x->attach_app();
  if (config_.limit_concurrency != 0 && in_app_ >= config_.limit_concurrency) {
    refuse_over_limit(x);
    return;
  }
  entered_app();
  // Requests already waiting go first.
  if (!waiting_.empty()) wait(x, false);
  else start_or_queue(x, false);
}

// Offers `x` to the dispatcher; queues it (at the back, or the front when
// it came from the queue) when no runner is free. True when it started.
inline bool admission::start_or_queue(exchange::exchange* x, bool front) {
  if (dispatcher_ != nullptr && dispatcher_->try_start(x)) {
    if (x->direct()) {
      // It ran to completion on this thread, maybe for seconds: deadlines
      // set from here on must not start from the time the pass began.
      loop_.refresh_clock();
      app_returned(x);
    }
    return true;
  }
  wait(x, front);
  return false;
}

inline void admission::wait(exchange::exchange* x, bool front) {
  if (front) waiting_.push_front(x);
  else waiting_.push_back(x);
  waiting_moved(1);
  if (waiting_.size() >= config_.max_queued_requests) listeners_.pause_for_queue(waiting_.size());
}

inline exchange::exchange* admission::stop_waiting() {
  exchange::exchange* x = waiting_.pop_front();
  if (x != nullptr) waiting_moved(-1);
  return x;
}

// The worker's pool queue counts every loop's waiting requests (its loops
// share the slot, so an atomic add).
inline void admission::waiting_moved(int64_t by) {
  queued_.store(waiting_.size(), std::memory_order_relaxed);
  if (config_.metrics_slot != nullptr) config_.metrics_slot->pool_queue.fetch_add(by, std::memory_order_relaxed);
}

// A client that left while its request waited: dropped without the app.
inline void admission::pump() {
  if (pumping_) return;
  pumping_ = true;
  while (exchange::exchange* x = stop_waiting()) {
    if (x->cancelled()) {
      drop_queued(x);
      continue;
    }
    if (!start_or_queue(x, true)) break;
  }
  pumping_ = false;
  if (waiting_.size() < config_.max_queued_requests / 2) listeners_.resume_for_queue();
}

// A queued exchange that will never reach a runner leaves the count of
// those in the app, and the app side's reference goes (it never ran).
inline void admission::drop_queued(exchange::exchange* x) {
  left_app();
  x->release();
}

// The app side of `x` is done (on this thread, or its done notice came in).
inline void admission::app_finished(exchange::exchange* x) {
  if (x->links.sink != nullptr) x->links.sink->on_app_done(x);
  x->release();  // the app side's reference
}

// A submitted request's app side is done: it leaves the count of those in the app.
inline void admission::app_returned(exchange::exchange* x) {
  left_app();
  app_finished(x);
}

inline void admission::exchange_news(exchange::exchange* x) {
  if (x->links.sink != nullptr) x->links.sink->on_exchange_news(x);
}

inline void admission::take_notices(handoff::notice_link* list) {
  while (list != nullptr) {
    handoff::notice_link* next = list->notice_next;
    bool done = false;
    exchange::exchange* x = exchange::exchange::from_notice(list, done);
    if (done) {
      if (dispatcher_ != nullptr) dispatcher_->finished(x);
      app_returned(x);
    } else {
      x->clear_queued();
      exchange_news(x);
      x->release();  // the inbox's reference
    }
    list = next;
  }
}

}  // namespace baton::server
