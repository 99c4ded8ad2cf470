#include "core/server/admission.h"

#include <algorithm>

#include "core/util/log.h"

namespace baton::server {
namespace {
// Exchanges kept for reuse; more than this many idle ones are freed.
constexpr size_t max_free_exchanges = 1024;
}  // namespace

admission::admission(const server_config& config, loop::event_loop& loop, listener_set& listeners)
    : config_(config), loop_(loop), listeners_(listeners) {}

admission::~admission() {
  for (exchange::exchange* x : free_exchanges_) delete x;
}

void admission::recycle(exchange::exchange* x) {
  if (free_exchanges_.size() < max_free_exchanges) free_exchanges_.push_back(x);
  else delete x;
}

size_t admission::trim_free_list(size_t keep) {
  size_t freed = 0;
  while (free_exchanges_.size() > keep) {
    delete free_exchanges_.back();
    free_exchanges_.pop_back();
    freed += sizeof(exchange::exchange);
  }
  return freed;
}

void admission::drop_waiting() {
  while (exchange::exchange* x = stop_waiting()) drop_queued(x);
}

// Past --limit-concurrency: a 503 from here, as if the app had answered at
// once (the protocol sees its app done), without the app. The client is
// told when to come back; the health path and static files were answered
// before the request got here.
void admission::refuse_over_limit(exchange::exchange* x) {
  log::write(log::level::debug, "%u requests inside the app (--limit-concurrency): 503 for %.*s %.*s",
             in_app_, static_cast<int>(x->head().method.size()), x->head().method.data(),
             static_cast<int>(std::min<size_t>(x->head().target.size(), 200)), x->head().target.data());
  metrics::rejected(config_.metrics, metrics::rejection::overloaded);
  x->set_direct(true);
  x->answer(503, "text/plain; charset=utf-8", "the server is at its concurrency limit; try again\n",
            {"retry-after", "1"});
  x->app_done();
  app_finished(x);
}

}  // namespace baton::server
