// Test support shared by the parser and chunked unit tests and the corpus
// replay: input held in a heap block of exactly its size, of which only a
// prefix is readable under AddressSanitizer, so a read past the bytes a
// parser was shown is caught as it happens.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#define BATON_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BATON_TEST_ASAN 1
#endif
#endif
#ifdef BATON_TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace baton::test {

// A heap copy of the input of exactly its size; show(k) makes only the first
// k bytes readable (under ASan).
class exact_bytes {
 public:
  explicit exact_bytes(std::string_view s) : size_(s.size()), data_(new char[s.empty() ? 1 : s.size()]) {
    if (!s.empty()) std::memcpy(data_.get(), s.data(), s.size());
  }
  ~exact_bytes() { unpoison(); }
  exact_bytes(const exact_bytes&) = delete;
  exact_bytes& operator=(const exact_bytes&) = delete;

  const char* show(size_t k) {
    (void)k;
    unpoison();
#ifdef BATON_TEST_ASAN
    if (k < size_) ASAN_POISON_MEMORY_REGION(data_.get() + k, size_ - k);
#endif
    return data_.get();
  }

 private:
  void unpoison() {
#ifdef BATON_TEST_ASAN
    if (size_ > 0) ASAN_UNPOISON_MEMORY_REGION(data_.get(), size_);
#endif
  }
  size_t size_;
  std::unique_ptr<char[]> data_;
};

// Bytes as a readable one-line string for failure messages, cut at `max`.
inline std::string printable(std::string_view s, size_t max = 300) {
  std::string out;
  for (unsigned char c : s) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    if (c == '\r') out += "\\r";
    else if (c == '\n') out += "\\n";
    else if (c == '\\') out += "\\\\";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace baton::test
