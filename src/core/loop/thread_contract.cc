#include "core/loop/thread_contract.h"

#ifndef NDEBUG

#include <cstdio>
#include <cstdlib>

namespace baton::loop {

namespace {
thread_local const event_loop* running = nullptr;
}  // namespace

const event_loop* running_loop() { return running; }

running_pass::running_pass(const event_loop* loop) : before_(running) { running = loop; }

running_pass::~running_pass() { running = before_; }

void called_off_loop(const char* call) {
  std::fprintf(stderr, "baton: %s called from a thread not running its loop (a loop-side call off the loop)\n", call);
  std::abort();
}

}  // namespace baton::loop

#endif
