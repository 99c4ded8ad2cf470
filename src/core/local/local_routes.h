// Answers the core gives on the loop thread without the application: the
// health path (200 while serving, 503 once a drain has begun) and static
// files from mounted directories (sendfile, validators with 304 and 412,
// one byte range and 206/416, a content type from the extension). They are
// given through the exchange's own API, as an app would give them, so any
// protocol carries them.
//
// A static path never leaves its directory: the request path is
// percent-decoded once, an encoded slash or backslash, a NUL or a ".."
// segment is refused, and the file is opened relative to the directory with
// openat2(RESOLVE_BENEATH), so a symbolic link that points out of it (or
// any ".." the kernel meets while resolving) fails to open. On a kernel
// without openat2 every component is opened with O_NOFOLLOW instead: no
// symbolic link is followed at all.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/exchange/exchange.h"

namespace baton::local {

// An HTTP-date (RFC 9110 section 5.6.7) as seconds since the epoch, or -1:
// the IMF-fixdate servers send ("Sun, 06 Nov 1994 08:49:37 GMT"), and the
// two obsolete forms a recipient must still accept, RFC 850's ("Sunday,
// 06-Nov-94 08:49:37 GMT", its year taken as the latest past one with those
// digits when it would be over 50 years ahead of `now`) and asctime's ("Sun
// Nov  6 08:49:37 1994").
time_t parse_http_date(std::string_view text, time_t now);

struct static_mount {
  std::string route;      // "/static" (no trailing slash; "/" for the root)
  std::string directory;  // opened once at start
  int dirfd = -1;
};

class local_routes {
 public:
  local_routes() = default;
  ~local_routes();
  local_routes(const local_routes&) = delete;
  local_routes& operator=(const local_routes&) = delete;

  void set_health_path(std::string path) { health_path_ = std::move(path); }
  const std::string& health_path() const { return health_path_; }
  // Opens `directory`; false with `error` set when it cannot be. A path
  // goes to the mount with the longest route it lies under, whatever the
  // order the mounts were added in.
  bool add_mount(std::string route, std::string directory, std::string& error);
  void set_expires(int seconds) { expires_seconds_ = seconds; }
  bool empty() const { return health_path_.empty() && mounts_.empty(); }

  // When the request of `x` is for a local route, answers it whole (the
  // exchange finished) and returns true. `draining`: a graceful stop has
  // begun (health says 503). The exchange runs directly on this thread.
  bool try_answer(exchange::exchange& x, bool draining) const;

  // The 503 a draining server gives a request it will not serve.
  static void refuse_draining(exchange::exchange& x);
  // The 501 every CONNECT gets (baton makes no tunnels).
  static void refuse_connect(exchange::exchange& x);
  // What every protocol asks before the app: CONNECT's 501, the health
  // path or a static file (`routes`, when there are any), or the 503 while `refusing`. True
  // when `x` was answered here, on the loop thread (it is then direct).
  static bool answer_before_app(const local_routes* routes, exchange::exchange& x, bool draining, bool refusing);

 private:
  bool answer_health(exchange::exchange& x, bool draining) const;
  bool answer_static(const static_mount& mount, std::string_view rest, exchange::exchange& x) const;
  int open_static(const static_mount& mount, std::string_view rest, exchange::exchange& x, std::string& relative,
                  struct stat& st) const;

  std::string health_path_;
  std::vector<static_mount> mounts_;
  int expires_seconds_ = 86400;
};

// Exposed for tests: the file path under a mount for the part of the request
// path after the route ("/css/a.css"), or false when it must not be served
// (an encoded slash, a NUL, a ".." segment, a malformed escape).
bool static_relative_path(std::string_view rest, std::string& out);
// The content type for a file name, from its extension.
std::string_view content_type_for(std::string_view name);
// Opens `relative` under `dirfd` without leaving it. Returns the descriptor
// or -1 with errno set.
int open_beneath(int dirfd, const std::string& relative);
// Process-wide: use the fallback walk (every component opened with
// O_NOFOLLOW) instead of openat2, as on a kernel without it. For the tests
// that run the escape checks through the fallback (BATON_X_STATIC_OPENAT2=0).
void use_open_fallback(bool fallback);

}  // namespace baton::local
