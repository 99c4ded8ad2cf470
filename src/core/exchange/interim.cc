#include "core/exchange/interim.h"

#include <utility>

#include "core/exchange/storage.h"
#include "core/util/text.h"

namespace baton::exchange {

bool valid_interim_field(std::string_view name, std::string_view value) {
  if (!valid_field_name(name) || !valid_field_value(value)) return false;
  static constexpr std::string_view connection_fields[] = {"connection", "keep-alive", "transfer-encoding",
                                                           "content-length", "upgrade", "proxy-connection"};
  for (std::string_view own : connection_fields) {
    if (util::equals_ignore_case(name, own)) return false;
  }
  return true;
}

void interim_out::sent() {
  if (building_.capacity() > keep_capacity) building_.release();
}

void interim_out::queue(meeting& m, std::string_view status) {
  meeting::guard guard(m);
  // Down: what the queue holds (if anything) is a past request's, which
  // the loop never took.
  if (!m.has(meeting::interim)) {
    queued_.clear();
    if (queued_.capacity() > keep_capacity) queued_.release();
  }
  queued_.add(interim_status_name, status);
  building_.for_each([&](std::string_view name, std::string_view value) { queued_.add(name, value); });
  m.raise(meeting::interim);
}

bool interim_out::take(meeting& m, field_list& dest) {
  dest.clear();
  if (!m.has(meeting::interim)) return false;
  meeting::guard guard(m);
  std::swap(queued_, dest);
  queued_.clear();
  m.lower(meeting::interim);
  return true;
}

}  // namespace baton::exchange
