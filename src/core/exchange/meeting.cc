#include "core/exchange/meeting.h"

#include "core/exchange/exchange.h"
#include "core/loop/event_loop.h"

namespace baton::exchange {

void meeting::notify_loop(bool urgent) {
  if (direct) {
    if (urgent) owner_.exchange_news(&exchange_);
    return;
  }
  if ((state.fetch_or(queued, std::memory_order_acq_rel) & queued) != 0) return;
  exchange_.add_ref();  // the inbox's reference, dropped by the loop when it takes the notice
  loop_.post(&exchange_);
}

void meeting::post_to_loop(handoff::notice_link* notice) { loop_.post(notice); }

}  // namespace baton::exchange
