// The Date field every protocol sends with a response (RFC 9110 section
// 6.6.1), as HTTP/1's line: "date: <IMF-fixdate>\r\n".
#pragma once

#include <cstddef>
#include <ctime>
#include <string_view>

namespace baton::util {

// Formatted at most once per second. One per loop thread; not shared
// between threads.
class date_cache {
 public:
  std::string_view line(time_t now) {
    if (now != formatted_for_) format(now);
    return {line_, length_};
  }

 private:
  void format(time_t now);
  time_t formatted_for_ = -1;
  char line_[64] = {};
  size_t length_ = 0;
};

// The Date line for now, from a cache private to the calling thread.
std::string_view current_date_line();

}  // namespace baton::util
