// Incremental decoder for the chunked transfer coding (RFC 9112 section 7.1).
//
// It holds only the framing state; the bytes stay in the caller's buffer.
// Each step consumes framing and returns at most one run of body data as a
// view into the input, so a body is decoded without copying.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baton::http1 {

class chunked_decoder {
 public:
  enum class status : uint8_t { data, need_more, done, error };

  struct step_result {
    status state = status::need_more;
    size_t consumed = 0;       // input bytes used, including any data returned
    const char* data = nullptr;
    size_t data_length = 0;
    const char* reason = nullptr;  // for errors
  };

  static constexpr size_t max_size_line = 4096;
  static constexpr size_t max_trailer_bytes = 16384;

  // Decodes from in[0, len). Never reads past len.
  step_result step(const char* in, size_t len);

  bool done() const { return state_ == state::done; }
  void reset() { *this = chunked_decoder{}; }

 private:
  enum class state : uint8_t { size_line, data, data_crlf, trailer, done };
  // One line of the size or the trailer section at `pos`: true when `out`
  // is the step's result (more is needed, an error, the end); false when
  // the line was taken and `pos` moved past it.
  bool size_line(const char* in, size_t len, size_t& pos, step_result& out);
  bool trailer_line(const char* in, size_t len, size_t& pos, step_result& out);
  state state_ = state::size_line;
  uint64_t remaining_ = 0;
  size_t trailer_bytes_ = 0;
};

}  // namespace baton::http1
