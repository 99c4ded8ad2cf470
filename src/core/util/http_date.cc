#include "core/util/http_date.h"

#include <time.h>

namespace baton::util {

void date_cache::format(time_t now) {
  struct tm gmt;
  gmtime_r(&now, &gmt);
  length_ = strftime(line_, sizeof line_, "date: %a, %d %b %Y %H:%M:%S GMT\r\n", &gmt);
  formatted_for_ = now;
}

std::string_view current_date_line() {
  thread_local date_cache cache;
  return cache.line(time(nullptr));
}

}  // namespace baton::util
