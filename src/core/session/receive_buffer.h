// The loop's receive buffer and the lease one read holds it under. An idle
// session owns no input memory: a read lands in the loop's buffer, and only
// bytes that must wait (a partial head or frame, a pipelined request) are
// copied into the session's own. The lease is the one place that lends it
// and takes it back, so that no exit path of a protocol can keep it: a
// buffer left marked as lent would send every session of the loop to
// private buffers, silently.
//
// Loop thread only. Leases nest (an inline app waits for its body inside a
// read, and the loop's pass it runs reads for other sessions): the shared
// buffer is lent to at most one of them at a time, the others read into
// their fallback.
#pragma once

#include "core/util/byte_buffer.h"

namespace baton::session {

struct receive_buffer {
  byte_buffer bytes;
  bool lent = false;
};

class receive_lease {
 public:
  // The shared buffer, emptied, when it is free and `may_share`; else
  // `fallback`, as it is (a read appends to what it holds). `current` is
  // the session's slot for its innermost lease (keep_unread finds it there).
  receive_lease(receive_buffer& shared, byte_buffer& fallback, bool may_share, receive_lease*& current)
      : shared_(shared), buffer_(&fallback), current_(current), outer_(current) {
    if (may_share && !shared.lent) {
      shared.bytes.clear();
      shared.lent = true;
      buffer_ = &shared.bytes;
      holding_ = true;
    }
    current_ = this;
  }
  ~receive_lease() {
    give_back();
    current_ = outer_;
  }
  receive_lease(const receive_lease&) = delete;
  receive_lease& operator=(const receive_lease&) = delete;

  byte_buffer& bytes() { return *buffer_; }
  // The read went into the loop's shared buffer (and it is still held).
  bool shared() const { return holding_; }
  // The bytes not consumed yet move into `own`, the read goes on with it,
  // and the shared buffer goes back now: before an inline app runs (its
  // waits run other sessions' reads), before a handoff, at the read's end.
  [[gnu::always_inline]] byte_buffer& keep_unread(byte_buffer& own) {
    if (holding_) {
      if (!buffer_->empty()) own.append(buffer_->view());
      give_back();
      buffer_ = &own;
    }
    return *buffer_;
  }

 private:
  [[gnu::always_inline]] void give_back() {
    if (!holding_) return;
    shared_.bytes.clear();
    shared_.lent = false;
    holding_ = false;
  }

  receive_buffer& shared_;
  byte_buffer* buffer_;
  receive_lease*& current_;
  receive_lease* outer_;
  bool holding_ = false;
};

}  // namespace baton::session
