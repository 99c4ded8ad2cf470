// How much storage an exchange keeps from one request to the next.
#pragma once

#include <cstddef>

namespace baton::exchange {

// Buffers that grew past this for one request are freed when the exchange
// is recycled, so one large upload does not pin memory in the pool.
inline constexpr size_t keep_capacity = size_t{64} * 1024;
// A WebSocket keeps no buffer of a message larger than this after it: the
// next message takes storage the allocator has just had back, warm in the
// cache, where hundreds of connections each keeping its own 16 KiB buffers
// run through more memory than the cache holds (the 16 KiB echo at 512
// connections carried about a tenth more with this than with 64 KiB).
inline constexpr size_t message_storage_kept = 4096;

}  // namespace baton::exchange
