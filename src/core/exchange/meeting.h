// Where an exchange's two sides meet: the loop side (the thread that owns
// the connection) and the app side (whatever thread runs the application).
// Every part of an exchange (body_in, response_out, the messages) keeps its
// own fields; what they share across the two sides is here: one word of
// flags, a small lock for the bytes in transit, the app's waker, the status
// a failed body left, and the two ways to tell the other side something.
//
// Neither side waits for the other here: wake_app() calls the app's waker
// (cheap, never blocking) and notify_loop() posts the exchange to the
// loop's inbox (or, for a directly-run exchange, tells its owner at once).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/handoff/spin_lock.h"

namespace baton::loop {
class event_loop;
}

namespace baton::handoff {
struct notice_link;
}

namespace baton::exchange {

class exchange;

// Called by the loop when an exchange has news for the app side (body
// bytes, output credit, cancellation). Any thread may be the caller's;
// wake() must be cheap and must not block.
class app_waker {
 public:
  virtual void wake() = 0;

 protected:
  ~app_waker() = default;
};

// The loop side's owner of exchanges (the server).
class exchange_owner {
 public:
  // Loop thread: the app side of a directly-run exchange (inline) has news.
  virtual void exchange_news(exchange* x) = 0;
  // Loop thread: the last reference to `x` is gone.
  virtual void recycle(exchange* x) = 0;
  // The loop whose thread the loop-side calls come from (checked where
  // checks are built in: loop/thread_contract.h); none for an owner that
  // runs no loop (tests driving an exchange by hand).
  virtual const loop::event_loop* loop_of() const { return nullptr; }

 protected:
  ~exchange_owner() = default;
};

// Settings shared by every exchange of a server; read-only once serving.
struct exchange_settings {
  size_t body_window = size_t{1024} * 1024;  // request body bytes buffered ahead of the app
  size_t output_window = 1u << 20;   // response bytes queued and not yet written
  const std::atomic<bool>* stopping = nullptr;  // a graceful stop has begun: say close
};

class meeting {
 public:
  // The flags. Each says who raises it and who takes it down.
  static constexpr uint32_t cancelled = 1u << 0;       // loop: the client is gone
  static constexpr uint32_t body_end = 1u << 1;        // loop: the body (or, after a switch, the messages) ended
  static constexpr uint32_t body_error = 1u << 2;      // loop: the body failed (body_error_status says how)
  static constexpr uint32_t app_done = 1u << 3;        // app: it let go of the exchange
  static constexpr uint32_t queued = 1u << 4;          // app: posted to the inbox; loop: taken from it
  static constexpr uint32_t read_paused = 1u << 5;     // loop: reading waits for the app to consume
  static constexpr uint32_t wants_continue = 1u << 6;  // app: asks for 100 Continue
  static constexpr uint32_t wants_credit = 1u << 7;    // app: waits for output room
  static constexpr uint32_t flush = 1u << 8;           // app: its output should go out now
  static constexpr uint32_t wants_external = 1u << 9;  // app: waits for its external memory
  static constexpr uint32_t client_eof = 1u << 10;     // loop: the client half-closed
  static constexpr uint32_t switched = 1u << 11;       // app: its answer switched protocols (101, or h2 200)
  static constexpr uint32_t app_closed = 1u << 12;     // app: its close message is queued
  static constexpr uint32_t release_asked = 1u << 13;  // loop: the app should free its idle storage
  static constexpr uint32_t head_ready = 1u << 14;     // app: the response head is committed
  static constexpr uint32_t interim = 1u << 15;        // app: interim responses wait for the loop (interim.h)
  static constexpr uint32_t whole = 1u << 16;          // app: the response is whole, all of it published before

  meeting(exchange& x, exchange_owner& owner, loop::event_loop& loop, const exchange_settings& settings)
      : settings(settings), exchange_(x), owner_(owner), loop_(loop) {}
  meeting(const meeting&) = delete;
  meeting& operator=(const meeting&) = delete;

  // Loop side, for a new request: no flags, no waker, no status.
  void reset() {
    state.store(0, std::memory_order_relaxed);
    waker.store(nullptr, std::memory_order_relaxed);
    body_error_status.store(0, std::memory_order_relaxed);
    direct = false;
  }

  bool has(uint32_t flag) const { return (state.load(std::memory_order_acquire) & flag) != 0; }
  void raise(uint32_t flag) { state.fetch_or(flag, std::memory_order_acq_rel); }
  void lower(uint32_t flag) { state.fetch_and(~flag, std::memory_order_acq_rel); }
  // True once (and takes it down) when the flag was up.
  bool take(uint32_t flag) {
    if (!has(flag)) return false;
    return (state.fetch_and(~flag, std::memory_order_acq_rel) & flag) != 0;
  }

  void wake_app() {
    app_waker* w = waker.load(std::memory_order_acquire);
    if (w != nullptr) w->wake();
  }
  // App side: the exchange has news for the loop. A direct exchange tells
  // the owner only when `urgent` (the inline dispatcher looks at the
  // exchange after the app returns anyway); any other posts the exchange to
  // the loop's inbox once until the loop takes it (meeting.cc).
  void notify_loop(bool urgent);
  // App side: hands a notice to the loop's inbox (the done notice, which
  // carries the app side's reference: see exchange.h's Lifetime).
  void post_to_loop(handoff::notice_link* notice);

  // Held while touching what both sides share. A direct exchange's two
  // sides are one thread, so it takes no lock at all.
  class guard {
   public:
    explicit guard(meeting& m) : lock_(m.direct ? nullptr : &m.lock_) {
      if (lock_ != nullptr) lock_->lock();
    }
    ~guard() {
      if (lock_ != nullptr) lock_->unlock();
    }
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;

   private:
    handoff::spin_lock* lock_;
  };

  std::atomic<uint32_t> state{0};
  std::atomic<app_waker*> waker{nullptr};
  // 400 (malformed or incomplete), 408 (body timeout), 413 (too large), or
  // 0 when the client is gone: written before body_error is raised.
  std::atomic<int> body_error_status{0};
  // News goes to the owner directly (the app runs on the loop thread) or
  // through the loop's inbox (another thread). Loop side, before dispatch.
  bool direct = false;
  const exchange_settings& settings;

 private:
  exchange& exchange_;
  exchange_owner& owner_;
  loop::event_loop& loop_;
  handoff::spin_lock lock_;
};

}  // namespace baton::exchange
