// Who may call: the check behind "loop thread only". While a thread runs a
// pass of an event loop (run_once, or the inbox and timers of a pass
// another program schedules) the loop is this thread's running loop; an
// object that belongs to a loop checks its loop-side calls against it.
// That is the contract whatever thread it is: the loop's own, an asyncio
// thread running the inverted shape's passes, the thread that settles a
// server's last notices as it is destroyed, or a thread a WSGI app started
// that uses its request in the inline shape while the loop thread waits in
// the app for it (exchange::loop_borrow).
//
// Built into builds without NDEBUG (the unit, ASan, TSan and fuzz builds,
// and the sanitizer build the Python tests run under); in a release build
// there is nothing to record and nothing to check. A broken contract is
// never a state to recover from: the check names the call and aborts.
#pragma once

namespace baton::loop {

class event_loop;

#ifndef NDEBUG

// The loop whose pass this thread is running, or nullptr.
const event_loop* running_loop();

// Marks the calling thread as running `loop` for its lifetime (nesting restores).
class running_pass {
 public:
  explicit running_pass(const event_loop* loop);
  ~running_pass();
  running_pass(const running_pass&) = delete;
  running_pass& operator=(const running_pass&) = delete;

 private:
  const event_loop* before_;
};

// Aborts: `call`, a loop-side call of an object of `loop`, came from a
// thread not running that loop.
[[noreturn]] void called_off_loop(const char* call);

// The check itself: a no-op for an object that belongs to no loop.
inline void expect_loop(const event_loop* loop, const char* call) {
  if (loop != nullptr && running_loop() != loop) called_off_loop(call);
}

#else

class running_pass {
 public:
  explicit running_pass(const event_loop*) {}
};
inline void expect_loop(const event_loop*, const char*) {}

#endif

}  // namespace baton::loop
