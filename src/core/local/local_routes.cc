#include "core/local/local_routes.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::local {
namespace {

constexpr std::string_view plain_text = "text/plain; charset=utf-8";

void format_http_date(time_t t, char* out, size_t size) {
  struct tm gmt;
  gmtime_r(&t, &gmt);
  strftime(out, size, "%a, %d %b %Y %H:%M:%S GMT", &gmt);
}

// Whether an If-None-Match list names `etag` (weak comparison) or is "*".
// With `strong` (If-Match, RFC 9110 section 8.8.3.2), a weak tag never matches.
bool etag_listed(std::string_view list, std::string_view etag, bool strong = false) {
  list = util::trim_ows(list);
  if (list == "*") return true;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = util::trim_ows(list.substr(0, comma));
    bool weak = item.substr(0, 2) == "W/";
    if (weak) item.remove_prefix(2);
    if (item == etag && !(weak && strong)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

// One "bytes=" range of a file of `size` bytes. Returns 1 with [first, last]
// set, 0 when the field is to be ignored (not bytes, several ranges,
// malformed), -1 when the one range cannot be satisfied.
int parse_range(std::string_view field, uint64_t size, uint64_t& first, uint64_t& last) {
  field = util::trim_ows(field);
  if (field.size() < 6 || !util::equals_ignore_case(field.substr(0, 6), "bytes=")) return 0;
  std::string_view spec = util::trim_ows(field.substr(6));
  if (spec.find(',') != std::string_view::npos) return 0;  // several ranges: the whole file instead
  size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return 0;
  std::string_view a = util::trim_ows(spec.substr(0, dash)), b = util::trim_ows(spec.substr(dash + 1));
  uint64_t x = 0, y = 0;
  if (a.empty()) {
    if (!util::parse_decimal(b, y)) return 0;
    if (y == 0 || size == 0) return -1;
    first = y >= size ? 0 : size - y;
    last = size - 1;
    return 1;
  }
  if (!util::parse_decimal(a, x)) return 0;
  if (b.empty()) {
    y = UINT64_MAX;
  } else if (!util::parse_decimal(b, y) || y < x) {
    return 0;
  }
  if (x >= size) return -1;
  first = x;
  last = y >= size ? size - 1 : y;
  return 1;
}

struct type_entry {
  std::string_view extension;
  std::string_view type;
};

constexpr type_entry content_types[] = {
    {"html", "text/html; charset=utf-8"},
    {"htm", "text/html; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"json", "application/json"},
    {"map", "application/json"},
    {"txt", "text/plain; charset=utf-8"},
    {"md", "text/markdown; charset=utf-8"},
    {"csv", "text/csv; charset=utf-8"},
    {"xml", "application/xml"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},
    {"gif", "image/gif"},
    {"webp", "image/webp"},
    {"avif", "image/avif"},
    {"ico", "image/vnd.microsoft.icon"},
    {"bmp", "image/bmp"},
    {"woff", "font/woff"},
    {"woff2", "font/woff2"},
    {"ttf", "font/ttf"},
    {"otf", "font/otf"},
    {"eot", "application/vnd.ms-fontobject"},
    {"pdf", "application/pdf"},
    {"zip", "application/zip"},
    {"gz", "application/gzip"},
    {"tar", "application/x-tar"},
    {"wasm", "application/wasm"},
    {"mp4", "video/mp4"},
    {"webm", "video/webm"},
    {"mp3", "audio/mpeg"},
    {"ogg", "audio/ogg"},
    {"wav", "audio/wav"},
    {"webmanifest", "application/manifest+json"},
};

// The kernel has no openat2 (before 5.6), or forbids it (a seccomp filter):
// found once, then the fallback is used.
std::atomic<bool> openat2_missing{false};

}  // namespace

std::string_view content_type_for(std::string_view name) {
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return "application/octet-stream";
  std::string_view extension = name.substr(dot + 1);
  for (const type_entry& e : content_types) {
    if (util::equals_ignore_case(e.extension, extension)) return e.type;
  }
  return "application/octet-stream";
}

bool static_relative_path(std::string_view rest, std::string& out) {
  out.clear();
  std::string segment;
  auto end_segment = [&]() {
    if (segment.empty() || segment == ".") {
      segment.clear();
      return true;
    }
    if (segment == "..") return false;
    if (!out.empty()) out.push_back('/');
    out += segment;
    segment.clear();
    return true;
  };
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '%') {
      if (i + 2 >= rest.size()) return false;
      int hi = util::hex_digit(rest[i + 1]), lo = util::hex_digit(rest[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
      // An encoded separator would name a different path than it shows.
      if (c == '/' || c == '\\' || c == '\0') return false;
      segment.push_back(c);
      continue;
    }
    if (c == '/') {
      if (!end_segment()) return false;
      continue;
    }
    if (c == '\\' || c == '\0') return false;
    segment.push_back(c);
  }
  if (!end_segment()) return false;
  return !out.empty();
}

void use_open_fallback(bool fallback) { openat2_missing.store(fallback, std::memory_order_relaxed); }

// O_NONBLOCK: opening a FIFO (or a device) that sits in the directory must
// not wait for a writer on the loop thread; such files are refused after the
// fstat anyway, and O_NONBLOCK does not change sendfile from a regular file.
int open_beneath(int dirfd, const std::string& relative) {
  if (!openat2_missing.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return static_cast<int>(fd);
    openat2_missing.store(true, std::memory_order_relaxed);
  }
  // No openat2: walk the path, refusing every symbolic link.
  int current = dirfd;
  size_t start = 0;
  while (true) {
    size_t slash = relative.find('/', start);
    bool last = slash == std::string::npos;
    std::string part = relative.substr(start, last ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") {  // as RESOLVE_BENEATH refuses them
      if (current != dirfd) ::close(current);
      errno = EXDEV;
      return -1;
    }
    int flags = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | (last ? O_RDONLY | O_NONBLOCK : (O_PATH | O_DIRECTORY));
    int next = openat(current, part.c_str(), flags);
    int saved = errno;
    if (current != dirfd) ::close(current);
    if (next < 0) {
      errno = saved;
      return -1;
    }
    if (last) return next;
    current = next;
    start = slash + 1;
  }
}

local_routes::~local_routes() {
  for (static_mount& m : mounts_) {
    if (m.dirfd >= 0) ::close(m.dirfd);
  }
}

time_t parse_http_date(std::string_view text, time_t now) {
  static constexpr std::string_view months = "JanFebMarAprMayJunJulAugSepOctNovDec";
  text = util::trim_ows(text);
  auto number = [](std::string_view digits) {
    int v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return digits.empty() ? -1 : v;
  };
  std::string_view day, month, year, clock;
  size_t comma = text.find(',');
  if (comma == 3) {
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
    if (text.size() != 29 || text[4] != ' ' || text[7] != ' ' || text[11] != ' ' || text[16] != ' ' ||
        text.substr(25) != " GMT") {
      return -1;
    }
    day = text.substr(5, 2), month = text.substr(8, 3), year = text.substr(12, 4), clock = text.substr(17, 8);
  } else if (comma != std::string_view::npos) {
    // rfc850-date: "Sunday, 06-Nov-94 08:49:37 GMT"
    std::string_view rest = text.substr(comma + 1);
    if (rest.size() != 23 || rest[0] != ' ' || rest[3] != '-' || rest[7] != '-' || rest[10] != ' ' ||
        rest.substr(19) != " GMT") {
      return -1;
    }
    day = rest.substr(1, 2), month = rest.substr(4, 3), year = rest.substr(8, 2), clock = rest.substr(11, 8);
  } else {
    // asctime-date: "Sun Nov  6 08:49:37 1994" (a one-digit day after a space)
    if (text.size() != 24 || text[3] != ' ' || text[7] != ' ' || text[10] != ' ' || text[19] != ' ') return -1;
    month = text.substr(4, 3), day = text.substr(8, 2), clock = text.substr(11, 8), year = text.substr(20, 4);
    if (day[0] == ' ') day.remove_prefix(1);
  }
  if (clock[2] != ':' || clock[5] != ':') return -1;
  size_t month_at = months.find(month);
  struct tm tm{};
  tm.tm_mday = number(day);
  tm.tm_hour = number(clock.substr(0, 2));
  tm.tm_min = number(clock.substr(3, 2));
  tm.tm_sec = number(clock.substr(6, 2));
  int full_year = number(year);
  if (month_at == std::string_view::npos || month_at % 3 != 0 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
      full_year < 0 || tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 ||
      tm.tm_sec > 60) {
    return -1;
  }
  if (year.size() == 2) {
    struct tm today;
    gmtime_r(&now, &today);
    int this_year = today.tm_year + 1900;
    full_year += this_year - this_year % 100;
    if (full_year > this_year + 50) full_year -= 100;
  }
  tm.tm_year = full_year - 1900;
  tm.tm_mon = static_cast<int>(month_at / 3);
  return timegm(&tm);
}

bool local_routes::add_mount(std::string route, std::string directory, std::string& error) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + directory + ": " + strerrordesc_np(errno);
    return false;
  }
  while (route.size() > 1 && route.back() == '/') route.pop_back();
  // Longest route first: try_answer takes the first that matches.
  auto at = std::find_if(mounts_.begin(), mounts_.end(),
                         [&](const static_mount& m) { return m.route.size() < route.size(); });
  mounts_.insert(at, {std::move(route), std::move(directory), fd});
  return true;
}

void local_routes::refuse_draining(exchange::exchange& x) {
  x.answer(503, plain_text, "the server is shutting down\n", {}, true);
}

// RFC 9110 9.3.6: CONNECT asks for a tunnel, which only a proxy makes.
// No app behind baton can answer it (a 2xx would promise a tunnel the
// server does not make), so it is answered here, over every protocol, and
// the connection closes after it (HTTP/1.1: what follows may be tunnel bytes).
void local_routes::refuse_connect(exchange::exchange& x) {
  exchange::peer_info peer = x.peer();
  // HTTP/1.1 names the tunnel's end in the target, HTTP/2 in :authority.
  std::string_view to = x.head().authority.empty() ? x.head().target : x.head().authority;
  log::write(log::level::info, "refused CONNECT %.*s from %.*s: baton is not a proxy (501)",
             static_cast<int>(std::min<size_t>(to.size(), 200)), to.data(),
             static_cast<int>(peer.address.size()), peer.address.data());
  x.answer(501, plain_text, "CONNECT is not served here: this server is not a proxy\n", {}, true);
}

bool local_routes::answer_before_app(const local_routes* routes, exchange::exchange& x, bool draining,
                                     bool refusing) {
  if (x.head().form == exchange::target_form::authority) {
    x.set_direct(true);
    refuse_connect(x);
    return true;
  }
  if (routes == nullptr && !refusing) return false;
  x.set_direct(true);
  if (routes == nullptr || !routes->try_answer(x, draining)) {
    if (!refusing) {
      x.set_direct(false);
      return false;
    }
    refuse_draining(x);
  }
  return true;
}

bool local_routes::try_answer(exchange::exchange& x, bool draining) const {
  std::string_view path = x.head().path;
  if (!health_path_.empty() && path == health_path_) return answer_health(x, draining);
  for (const static_mount& m : mounts_) {
    if (m.route == "/") return answer_static(m, path, x);
    if (path.substr(0, m.route.size()) != m.route) continue;
    if (path.size() > m.route.size() && path[m.route.size()] != '/') continue;
    return answer_static(m, path.substr(m.route.size()), x);
  }
  return false;
}

bool local_routes::answer_health(exchange::exchange& x, bool draining) const {
  std::string_view method = x.head().method;
  if (method != "GET" && method != "HEAD") {
    x.answer(405, plain_text, "GET or HEAD\n", {"allow", "GET, HEAD"});
  } else if (draining) {
    x.answer(503, plain_text, "draining\n", {"cache-control", "no-store"}, true);
  } else {
    x.answer(200, plain_text, "OK\n", {"cache-control", "no-store"});
  }
  return true;
}

namespace {

// A strong validator must change whenever the file does: the inode and
// the modification time to the nanosecond, not only the second and size.
void format_etag(const struct stat& st, char* out, size_t size) {
  std::snprintf(out, size, "\"%llx-%llx.%lx-%llx\"", static_cast<unsigned long long>(st.st_ino),
                static_cast<unsigned long long>(st.st_mtim.tv_sec), static_cast<long>(st.st_mtim.tv_nsec),
                static_cast<unsigned long long>(st.st_size));
}

// Conditions, in RFC 9110 section 13.2.2's order: If-Match, or else
// If-Unmodified-Since, can make the answer 412 (an unreadable date is
// ignored); then If-None-Match, or else If-Modified-Since, 304.
enum class precondition { none, failed, not_modified };

precondition evaluate(const exchange::request_head& head, const struct stat& st, std::string_view etag) {
  if (head.has("if-match")) {
    if (!etag_listed(head.find("if-match"), etag, true)) return precondition::failed;
  } else if (std::string_view ius = head.find("if-unmodified-since"); !ius.empty()) {
    time_t since = parse_http_date(ius, time(nullptr));
    if (since >= 0 && st.st_mtim.tv_sec > since) return precondition::failed;
  }
  if (head.has("if-none-match")) {
    if (etag_listed(head.find("if-none-match"), etag)) return precondition::not_modified;
  } else if (std::string_view ims = head.find("if-modified-since"); !ims.empty()) {
    time_t since = parse_http_date(ims, time(nullptr));
    if (since >= 0 && st.st_mtim.tv_sec <= since) return precondition::not_modified;
  }
  return precondition::none;
}

}  // namespace

// The regular file `rest` names beneath the mount, opened, with its
// metadata; -1 when the answer (405, 404, 403) has been given instead.
int local_routes::open_static(const static_mount& mount, std::string_view rest, exchange::exchange& x,
                              std::string& relative, struct stat& st) const {
  const exchange::request_head& head = x.head();
  if (head.method != "GET" && head.method != "HEAD") {
    x.answer(405, plain_text, "GET or HEAD\n", {"allow", "GET, HEAD"});
    return -1;
  }
  if (!static_relative_path(rest, relative)) {
    x.answer(404, plain_text, "not found\n");
    return -1;
  }
  int fd = open_beneath(mount.dirfd, relative);
  if (fd < 0) {
    bool denied = errno == EACCES;
    x.answer(denied ? 403 : 404, plain_text, denied ? "forbidden\n" : "not found\n");
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    x.answer(404, plain_text, "not found\n");
    return -1;
  }
  return fd;
}

bool local_routes::answer_static(const static_mount& mount, std::string_view rest, exchange::exchange& x) const {
  const exchange::request_head& head = x.head();
  std::string relative;
  struct stat st;
  int fd = open_static(mount, rest, x, relative, st);
  if (fd < 0) return true;
  uint64_t size = static_cast<uint64_t>(st.st_size);
  char etag[96];
  format_etag(st, etag, sizeof etag);
  precondition condition = evaluate(head, st, etag);
  if (condition == precondition::failed) {
    ::close(fd);
    x.answer(412, plain_text, "precondition failed\n");
    return true;
  }
  uint64_t first = 0, last = size == 0 ? 0 : size - 1;
  int ranged = 0;
  // Range applies to GET only (RFC 9110 section 14.2): HEAD answers as for the whole file.
  if (std::string_view range = head.is_head ? std::string_view() : head.find("range");
      !range.empty() && condition != precondition::not_modified) {
    std::string_view if_range = util::trim_ows(head.find("if-range"));
    bool applies = if_range.empty() || if_range == etag ||
                   (if_range.front() != '"' && parse_http_date(if_range, time(nullptr)) == st.st_mtim.tv_sec);
    if (applies) ranged = parse_range(range, size, first, last);
  }
  char line[96];
  if (ranged < 0) {
    ::close(fd);
    int n = std::snprintf(line, sizeof line, "bytes */%llu", static_cast<unsigned long long>(size));
    x.answer(416, plain_text, "range not satisfiable\n", {"content-range", std::string_view(line, static_cast<size_t>(n))});
    return true;
  }
  x.keep_alive_only_if_complete();
  if (condition == precondition::not_modified) {
    x.begin_response(304, "304 Not Modified");
  } else if (ranged > 0) {
    x.begin_response(206, "206 Partial Content");
    int n = std::snprintf(line, sizeof line, "bytes %llu-%llu/%llu", static_cast<unsigned long long>(first),
                          static_cast<unsigned long long>(last), static_cast<unsigned long long>(size));
    x.add_header("content-range", std::string_view(line, static_cast<size_t>(n)));
  } else {
    x.begin_response(200, "200 OK");
  }
  uint64_t length = ranged > 0 ? last - first + 1 : size;
  if (condition != precondition::not_modified) {
    x.add_header("content-type", content_type_for(relative));
    int n = std::snprintf(line, sizeof line, "%llu", static_cast<unsigned long long>(length));
    x.add_header("content-length", std::string_view(line, static_cast<size_t>(n)));
    x.add_header("accept-ranges", "bytes");
  }
  x.add_header("etag", etag);
  char modified[40];
  format_http_date(st.st_mtim.tv_sec, modified, sizeof modified);
  x.add_header("last-modified", modified);
  if (expires_seconds_ > 0) {
    int n = std::snprintf(line, sizeof line, "public, max-age=%d", expires_seconds_);
    x.add_header("cache-control", std::string_view(line, static_cast<size_t>(n)));
  }
  if (condition == precondition::not_modified || head.is_head || length == 0) {
    ::close(fd);
  } else {
    x.send_file(fd, static_cast<off_t>(first), length);
  }
  x.finish();
  return true;
}

}  // namespace baton::local
