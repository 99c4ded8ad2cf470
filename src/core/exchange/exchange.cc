#include "core/exchange/exchange.h"

#include "core/loop/event_loop.h"
#include "core/util/log.h"

namespace baton::exchange {

exchange::exchange(exchange_owner& owner, loop::event_loop& loop, const exchange_settings& settings)
    : owner_(owner), meeting_(*this, owner, loop, settings), in_(meeting_), out_(meeting_),
      messages_(meeting_, in_, out_) {
  done_notice_.owner = this;
  done_notice_.notice_kind = k_done_notice;
}

exchange::~exchange() = default;

void exchange::release() {
  loop_side("exchange::release");
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) owner_.recycle(this);
}

void exchange::reset_for(const request_head& parsed, const char* raw, size_t raw_length, const peer_info& peer,
                         const response_wire& wire, const proxy_settings* proxy) {
  request_.assign(parsed, raw, raw_length);
  reset_rest(raw_length, peer, wire, proxy);
}

void exchange::reset_for(const request_head& parsed, byte_buffer& bytes, std::vector<field>& fields,
                         const peer_info& peer, const response_wire& wire, const proxy_settings* proxy) {
  uint64_t head_bytes = bytes.size();
  request_.adopt(parsed, bytes, fields);
  reset_rest(head_bytes, peer, wire, proxy);
}

void exchange::reset_rest(uint64_t head_bytes, const peer_info& peer, const response_wire& wire,
                          const proxy_settings* proxy) {
  ++generation;
  meeting_.reset();
  links = loop_links();
  request_.set_client(peer, proxy);
  in_.reset(head_bytes, request_.head().expect_continue);
  out_.reset(wire, request_.head());
  messages_.reset();
  refs_.store(1, std::memory_order_relaxed);  // the protocol's
}

void exchange::mark_client_finished() {
  loop_side("exchange::mark_client_finished");
  meeting_.raise(meeting::client_eof);
  meeting_.wake_app();
}

void exchange::cancel() {
  loop_side("exchange::cancel");
  meeting_.raise(meeting::cancelled);
  in_.release_target();
  meeting_.wake_app();
}

size_t exchange::release_app_memory_if_asked() {
  if (!meeting_.take(meeting::release_asked)) return 0;
  return in_.release_app_memory() + out_.release_app_memory();
}

void exchange::app_done() {
  if (!out_.state().finished && !cancelled()) {
    log::write(log::level::error, "the request handler produced no complete response");
    out_.fail(500, false);
  }
  out_.publish();
  meeting_.waker.store(nullptr, std::memory_order_release);
  meeting_.raise(meeting::app_done);
  // A direct exchange's dispatcher, on the loop thread, takes it from here.
  // Otherwise the app side's reference travels to the loop in the done
  // notice; after post() this thread must not touch the exchange.
  if (!meeting_.direct) meeting_.post_to_loop(&done_notice_);
}

}  // namespace baton::exchange
