// Where a callable the app is given (start_response and its write(),
// wsgi.input, wsgi.early_hints) finds the request it serves, and how the
// thread running the app keeps its other threads off the request once the
// app has returned.
//
// The call (wsgi.h) lives on the stack of the thread running the app; the
// callables outlive it when the app keeps them. A thread of the app may use
// one while the app runs (a write() from a worker thread the app joins),
// and may still be inside one when the app returns: a write() parked for a
// slow client, a read() waiting for body bytes. Such a thread read the
// call's address before and touched it after: the running thread's stack,
// by then another request's (a crash, or bytes sent on another request's
// connection); and on a free-threaded build it wrote the response beside
// the thread sending the app's result.
//
// So a use counts itself in before it reads the address, and out when it
// is done. When the app returns, the running thread marks the call
// returned, then waits (the GIL let go) until nobody is counted in, before
// it sends the result: from then on only it may use the callables (a
// generator's lazy start_response), and another thread's use raises. At
// the request's end it clears the address, and waits once more: a thread
// that came after the mark is counted in for as long as it takes to read
// the mark off the call and be refused.
// The two sides' order is sequentially consistent: a thread counted in
// either sees the mark or is seen and waited for.
//
// Plain fields in the objects' C structs (PyObject_New runs no
// constructor), used through std::atomic_ref.
#pragma once

#include <Python.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>

#include "bridge/wsgi/wsgi.h"

namespace baton::bridge {

struct call_slot {
  wsgi_call* call;  // null: the request has ended
  uint32_t inside;  // uses in progress

  // A new object's slot.
  void init(wsgi_call* c) {
    inside = 0;
    std::atomic_ref<wsgi_call*>(call).store(c, std::memory_order_release);
  }
  // The next request's, on an object nobody else holds (so nobody is inside).
  void arm(wsgi_call* c) { std::atomic_ref<wsgi_call*>(call).store(c, std::memory_order_release); }
  // Counted in, then the call; null (and counted out again) once it ended.
  wsgi_call* enter() {
    std::atomic_ref<uint32_t>(inside).fetch_add(1, std::memory_order_seq_cst);
    wsgi_call* c = std::atomic_ref<wsgi_call*>(call).load(std::memory_order_seq_cst);
    if (c == nullptr) leave();
    return c;
  }
  void leave() { std::atomic_ref<uint32_t>(inside).fetch_sub(1, std::memory_order_release); }
  // On the thread running the app, with the GIL (or an attached thread
  // state), after marking the call returned: waits until no use is in
  // progress, the GIL let go meanwhile so the thread inside can finish.
  // True when it had to wait.
  bool settle() {
    std::atomic_ref<uint32_t> users(inside);
    if (users.load(std::memory_order_seq_cst) == 0) return false;
    Py_BEGIN_ALLOW_THREADS
    while (users.load(std::memory_order_acquire) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    Py_END_ALLOW_THREADS
    return true;
  }
  // The request's end: later uses raise.
  void disarm() {
    std::atomic_ref<wsgi_call*>(call).store(nullptr, std::memory_order_seq_cst);
    settle();  // for a thread still reading the mark off the call, on its way to be refused
  }
};

// One use of a slot: the call while it lasts, or null with a Python error
// set (`error`, naming the callable `what`): the request has ended, or the
// app has returned and this is not the thread that ran it.
class call_use {
 public:
  call_use(call_slot& slot, PyObject* error, const char* what) : slot_(slot), call_(slot.enter()) {
    if (call_ == nullptr) {
      PyErr_Format(error, "%s used after its request ended", what);
      return;
    }
    if (PyThreadState_Get() == call_->runner) return;
    if (std::atomic_ref<bool>(call_->app_returned).load(std::memory_order_seq_cst)) {
      slot_.leave();
      call_ = nullptr;
      PyErr_Format(error, "%s used by another thread after the application returned", what);
      return;
    }
    // In the inline shape the loop thread is inside the app, waiting for
    // this thread (or, the app returned, for this use): this thread has
    // the loop meanwhile.
    borrow_.emplace(*call_->s);
  }
  ~call_use() {
    borrow_.reset();
    if (call_ != nullptr) slot_.leave();
  }
  call_use(const call_use&) = delete;
  call_use& operator=(const call_use&) = delete;
  wsgi_call* get() const { return call_; }

 private:
  call_slot& slot_;
  wsgi_call* call_;
  std::optional<exchange::exchange::loop_borrow> borrow_;
};

}  // namespace baton::bridge
