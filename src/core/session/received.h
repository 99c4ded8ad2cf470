// What one read from a connection came to, sorted once: the protocols and
// the session branch on this, never on errno. A read that would block and
// one a signal interrupted are the same to them (wait for the next
// readable event); every other error ends the connection.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace baton::session {

enum class receive_status : uint8_t {
  data,    // `bytes` bytes arrived
  end,     // the client shut its side: nothing more will come
  again,   // nothing yet (EAGAIN, EWOULDBLOCK, EINTR): wait for readable
  failed,  // the connection broke (a reset, any other error): close it
};

struct received {
  receive_status status;
  size_t bytes;  // of a read that brought data, else 0
};

// Sorts what recv(2) (or a transport's receive) returned, reading errno
// when it failed: call it straight after the read.
inline received sort_receive(ssize_t n) {
  if (n > 0) return {receive_status::data, static_cast<size_t>(n)};
  if (n == 0) return {receive_status::end, 0};
  bool retry = errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
  return {retry ? receive_status::again : receive_status::failed, 0};
}

}  // namespace baton::session
