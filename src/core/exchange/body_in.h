// The body-in part of an exchange: the request body's bytes on their way
// from the loop to the app, the credit window that paces them, and the
// zero-copy read (the app registers a destination, the loop reads the
// socket straight into it). After a protocol switch the same channel
// carries whole messages (see messages.h), counted as units.
//
// Threads. The loop appends to shared_in_ under the meeting's lock; the app
// swaps it with its own app_in_ when that runs dry, so each byte is copied
// at most once on the way in (and not at all when a socket read fills an
// empty channel, or the app's destination). Methods under "loop side" run
// on the loop thread only, those under "app side" on one app thread at a
// time. Neither side waits for the other: a read with nothing there says
// `pending`, and the loop wakes the app when bytes come.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/exchange/meeting.h"
#include "core/exchange/storage.h"
#include "core/util/byte_buffer.h"

namespace baton::exchange {

enum class read_status : uint8_t { data, pending, end, error };

class body_in {
 public:
  explicit body_in(meeting& m) : m_(m) {}
  body_in(const body_in&) = delete;
  body_in& operator=(const body_in&) = delete;

  // ------------------------------------------------------------ loop side
  // A new request whose head took `head_bytes`: empty channels (keeping
  // modest storage for reuse). `expects_continue`: the client waits for
  // 100 Continue before it sends the body. Inline: once per request.
  void reset(uint64_t head_bytes, bool expects_continue) {
    shared_in_.clear();
    app_in_.clear();
    loop_in_.clear();
    if (shared_in_.capacity() > keep_capacity) shared_in_ = byte_buffer();
    if (app_in_.capacity() > keep_capacity) app_in_ = byte_buffer();
    if (loop_in_.capacity() > keep_capacity) loop_in_ = byte_buffer();
    buffered_.store(0, std::memory_order_relaxed);
    units_waiting_.store(0, std::memory_order_relaxed);
    unit_limit_.store(0, std::memory_order_relaxed);
    app_reading_.store(false, std::memory_order_relaxed);
    target_ = nullptr;
    target_size_ = 0;
    target_filled_.store(0, std::memory_order_relaxed);
    target_active_.store(false, std::memory_order_relaxed);
    expects_continue_ = expects_continue;
    continue_asked_ = false;
    bytes_received_ = head_bytes;
    head_bytes_ = head_bytes;
  }
  // Body bytes for the app. `last`: they complete the body, and the app must
  // never see them without also seeing the end (its answer's keep-alive
  // depends on it), so the end is marked under the same lock.
  void deliver(const char* data, size_t length, bool last);
  void deliver_end();
  void deliver_error(int status);
  // For a socket read straight into the exchange (no copy on the way in):
  // room for `length` bytes, then how many arrived. The bytes go to the app
  // side by swapping buffers, not copying, when it has taken the last ones.
  char* space(size_t length) { return loop_in_.prepare(length); }
  void received(size_t length, bool last);
  // Where a direct read should go when the app has registered a destination
  // (read_into); null when it has not. `room` is what it takes.
  char* target_space(size_t& room);
  void target_received(size_t length, bool last);
  // A whole unit (a message: `header`, then `length` bytes of `data`), kept
  // whole so it never spans the two buffers the app side swaps.
  void deliver_unit(const char* header, size_t header_size, const char* data, size_t length);
  // The same from `unit`, which already holds header and payload: taken
  // instead of copied when the app has taken everything before it. `unit`
  // is left empty.
  void deliver_unit(byte_buffer& unit);
  bool ended() const { return m_.has(meeting::body_end | meeting::body_error); }
  // Unconsumed bytes anywhere in the channel. Sequentially consistent:
  // HTTP/2 reads it after raising the read-paused flag, against the app
  // side's consume (which lowers it, then reads the flag).
  size_t buffered() const { return buffered_.load(std::memory_order_seq_cst); }
  uint32_t units_waiting() const { return units_waiting_.load(std::memory_order_acquire); }
  // Reading stops because `window` is full (or more than `units` wait).
  // Returns false (and reading may continue) when the app consumed enough
  // meanwhile. Reading resumes once the app has consumed half of the
  // window, and of the units.
  bool pause_reading(size_t window, uint32_t units);
  // The app has asked for body bytes (read, consumed or registered a
  // destination). Until then the loop holds only a first, small window of
  // a large body: the rest waits in the socket, and a read_into() then
  // takes it from there with no copy in user space.
  bool app_reading() const { return app_reading_.load(std::memory_order_relaxed); }
  // The request's head and the body bytes delivered so far (the metrics).
  uint64_t bytes_received() const { return bytes_received_; }
  uint64_t body_bytes_received() const { return bytes_received_ - head_bytes_; }
  // The destination is the app's again (full, or nothing more is coming:
  // the body ended or failed, or the client is gone).
  void release_target();
  // After a switch: frees the loop side's empty buffers. Returns the bytes.
  size_t release_loop_memory();

  // ------------------------------------------------------------- app side
  // `data`: `out` holds at least one byte, valid until the next try_read or
  // consume. `pending`: nothing yet; the waker will be called. `error`: see
  // meeting::body_error_status. The first `pending` of a request that
  // expects 100 Continue asks the loop to send it.
  read_status try_read(std::string_view& out);
  void consume(size_t n);
  // A unit taken whole (its bytes, and one off the units waiting).
  void consume_unit(size_t n);
  // Reads the next `length` body bytes into `destination` with no copy on
  // the loop's side: what is already buffered is copied now, and the loop
  // receives the rest straight into `destination`. Returns false when all of
  // it is there already; otherwise the destination stays registered (and
  // must stay valid) until target_active() is false, which the loop makes it
  // when the destination is full or the body ends, fails or is cancelled.
  // target_filled() then says how much arrived.
  bool read_into(char* destination, size_t length);
  bool target_active() const { return target_active_.load(std::memory_order_acquire); }
  size_t target_filled() const { return target_filled_.load(std::memory_order_acquire); }
  // Tests only: called inside read_into() between its last look at the
  // buffers and the registration, where a delivery can race it.
  static void (*before_register_for_tests)();
  // After a switch, asked by the loop: frees the app side's empty buffer.
  size_t release_app_memory();
  // App side, after a message: no buffer of a large one is kept.
  void trim_after_message(size_t kept);

  // Tests only (reads both sides unguarded).
  size_t storage_bytes() const { return shared_in_.capacity() + app_in_.capacity() + loop_in_.capacity(); }

 private:
  // True when this took the read-paused flag down: the loop must be told.
  bool consume_and_resume(size_t n);
  void mark_app_reading() {
    if (!app_reading_.load(std::memory_order_relaxed)) app_reading_.store(true, std::memory_order_relaxed);
  }
  size_t fill_target(const char*& data, size_t length, bool last);
  void advance_target(size_t length, bool last);

  meeting& m_;
  byte_buffer shared_in_;  // guarded by the meeting's lock
  byte_buffer app_in_;     // app side only
  byte_buffer loop_in_;    // loop side only: a socket read in progress
  // The app's registered destination (read_into): set by the app, filled
  // and released by the loop.
  char* target_ = nullptr;
  size_t target_size_ = 0;
  std::atomic<size_t> target_filled_{0};
  std::atomic<bool> target_active_{false};
  std::atomic<size_t> buffered_{0};
  std::atomic<uint32_t> units_waiting_{0};
  std::atomic<uint32_t> unit_limit_{0};     // the `units` of the last pause_reading
  std::atomic<bool> app_reading_{false};    // set by the app side only
  bool expects_continue_ = false;           // set by the loop before dispatch
  bool continue_asked_ = false;             // app side
  uint64_t bytes_received_ = 0;             // loop side
  uint64_t head_bytes_ = 0;                 // loop side: the part of bytes_received_ that was the head
};

}  // namespace baton::exchange
