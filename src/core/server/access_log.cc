#include "core/server/access_log.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::server {
namespace {

constexpr size_t hand_over_bytes = size_t{64} * 1024;  // wake the writer early past this
constexpr size_t max_waiting_bytes = 16u << 20;  // drop lines past this
constexpr auto write_interval = std::chrono::milliseconds(50);

// "HTTP/1.1", "HTTP/2.0" and so on, for the request line and %(H)s.
void append_protocol(std::string& out, const exchange::request_head& h) {
  out.append("HTTP/");
  out.push_back(static_cast<char>('0' + h.version_major % 10));
  out.push_back('.');
  out.push_back(static_cast<char>('0' + h.version_minor % 10));
}

// Client-supplied text goes into the line with quotes, backslashes and
// anything unprintable escaped, so no request can forge a log line.
void append_escaped(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  size_t clean = 0;
  while (clean < text.size()) {
    auto c = static_cast<unsigned char>(text[clean]);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') break;
    ++clean;
  }
  out.append(text.data(), clean);  // the common case: all of it, at once
  for (size_t i = clean; i < text.size(); ++i) {
    char ch = text[i];
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(ch);
    } else if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
}

void append_or_dash(std::string& out, std::string_view text) {
  if (text.empty()) out.push_back('-');
  else append_escaped(out, text);
}

void append_number(std::string& out, uint64_t v) {
  char digits[20];
  out.append(digits, util::write_decimal(digits, v));
}

// The user of a Basic Authorization field, or "".
std::string basic_user(std::string_view field) {
  field = util::trim_ows(field);
  if (field.size() < 6 || !util::equals_ignore_case(field.substr(0, 6), "basic ")) return {};
  std::string decoded;
  uint32_t bits = 0;
  int count = 0;
  for (char c : util::trim_ows(field.substr(6))) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    else if (c == '=') break;
    else return {};
    bits = (bits << 6) | static_cast<uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      decoded.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  size_t colon = decoded.find(':');
  return colon == std::string::npos ? std::string() : decoded.substr(0, colon);
}

}  // namespace

std::unique_ptr<access_log> access_log::open(std::string_view format, const std::string& path, std::string& error,
                                             const access_log_json_options& json) {
  std::unique_ptr<access_log> log(new access_log());
  if (format == "json") log->json_.emplace(json.request_id_header, json.loop_index, log->pid_);
  else log->compile(format);
  log->path_ = path == "-" ? std::string() : path;
  if (!log->open_file()) {
    error = "cannot open the access log " + path + ": " + strerrordesc_np(errno);
    return nullptr;
  }
  log->thread_ = std::thread([p = log.get()] { p->writer(); });
  return log;
}

access_log::~access_log() {
  hand_over();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  if (own_fd_ && fd_ >= 0) ::close(fd_);
}

bool access_log::open_file() {
  int fd = 1;
  bool own = false;
  if (!path_.empty()) {
    fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    own = true;
  }
  struct stat st{};
  bool pipe = fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
  if (own_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = fd;
  own_fd_ = own;
  pipe_ = pipe;
  return true;
}

bool access_log::times_requests() const {
  if (json_) return true;  // its duration
  for (const piece& p : pieces_) {
    if (p.kind == atom::seconds || p.kind == atom::micros || p.kind == atom::millis ||
        p.kind == atom::decimal_seconds) {
      return true;
    }
  }
  return false;
}

void access_log::compile(std::string_view format) {
  struct name_entry {
    std::string_view name;
    atom kind;
  };
  static constexpr name_entry names[] = {
      {"h", atom::remote}, {"l", atom::dash}, {"u", atom::user}, {"t", atom::time},
      {"r", atom::request_line}, {"m", atom::method}, {"U", atom::path}, {"q", atom::query},
      {"H", atom::protocol}, {"s", atom::status}, {"B", atom::bytes}, {"b", atom::bytes_or_dash},
      {"f", atom::referer}, {"a", atom::agent}, {"T", atom::seconds}, {"D", atom::micros},
      {"M", atom::millis}, {"L", atom::decimal_seconds}, {"p", atom::pid}, {"R", atom::received},
  };
  std::string literal;
  auto flush_literal = [&]() {
    if (!literal.empty()) pieces_.push_back({atom::literal, std::move(literal)});
    literal.clear();
  };
  size_t i = 0;
  while (i < format.size()) {
    if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == '%') {
      literal.push_back('%');
      i += 2;
      continue;
    }
    size_t close = format.find(")s", i);
    if (format[i] != '%' || i + 1 >= format.size() || format[i + 1] != '(' || close == std::string_view::npos) {
      literal.push_back(format[i++]);
      continue;
    }
    std::string_view name = format.substr(i + 2, close - i - 2);
    i = close + 2;
    flush_literal();
    if (name.size() > 3 && name.front() == '{' && name[name.size() - 2] == '}') {
      char kind = name.back();
      std::string field(name.substr(1, name.size() - 3));
      if (kind == 'i') pieces_.push_back({atom::request_header, field});
      else if (kind == 'o') pieces_.push_back({atom::response_header, field});
      else pieces_.push_back({atom::environ, field});
      continue;
    }
    atom kind = atom::dash;
    for (const name_entry& e : names) {
      if (e.name == name) kind = e.kind;
    }
    pieces_.push_back({kind, {}});
  }
  flush_literal();
}

void access_log::append(std::string& out, const access_record& r) {
  if (json_) {
    json_->append(out, r);
    return;
  }
  const exchange::request_head& h = *r.head;
  for (const piece& p : pieces_) {
    switch (p.kind) {
      case atom::literal: out += p.text; break;
      // The client can come from a forwarding header: escaped like every other field a client sent.
      case atom::remote: append_or_dash(out, r.client); break;
      case atom::dash:
      case atom::environ: out.push_back('-'); break;
      case atom::user: append_or_dash(out, basic_user(h.find("authorization"))); break;
      case atom::time: {
        time_t now = time(nullptr);
        if (now != time_for_) {
          struct tm local;
          localtime_r(&now, &local);
          time_length_ = strftime(time_text_, sizeof time_text_, "[%d/%b/%Y:%H:%M:%S %z]", &local);
          time_for_ = now;
        }
        out.append(time_text_, time_length_);
        break;
      }
      case atom::request_line:
        append_escaped(out, h.method);
        out.push_back(' ');
        append_escaped(out, h.target);
        out.push_back(' ');
        append_protocol(out, h);
        break;
      case atom::method: append_escaped(out, h.method); break;
      case atom::path: append_escaped(out, h.path); break;
      case atom::query: append_escaped(out, h.query); break;
      case atom::protocol: append_protocol(out, h); break;
      case atom::status: append_number(out, static_cast<uint64_t>(r.status)); break;
      case atom::bytes: append_number(out, r.body_bytes); break;
      case atom::bytes_or_dash:
        if (r.body_bytes == 0) out.push_back('-');
        else append_number(out, r.body_bytes);
        break;
      case atom::received: append_number(out, r.received_bytes); break;
      case atom::referer: append_or_dash(out, h.find("referer")); break;
      case atom::agent: append_or_dash(out, h.find("user-agent")); break;
      case atom::seconds: append_number(out, static_cast<uint64_t>(r.duration_us / 1000000)); break;
      case atom::micros: append_number(out, static_cast<uint64_t>(r.duration_us)); break;
      case atom::millis: append_number(out, static_cast<uint64_t>(r.duration_us / 1000)); break;
      case atom::decimal_seconds: {
        append_number(out, static_cast<uint64_t>(r.duration_us / 1000000));
        std::string fraction = std::to_string(1000000 + r.duration_us % 1000000);  // "1" and six digits
        out.push_back('.');
        out.append(fraction, 1, 6);
        break;
      }
      case atom::pid: append_number(out, static_cast<uint64_t>(pid_)); break;
      case atom::request_header: append_or_dash(out, h.find(p.text)); break;
      case atom::response_header:
        append_or_dash(out, r.response_fields != nullptr ? r.response_fields->find(p.text) : std::string_view());
        break;
    }
  }
  out.push_back('\n');
}

std::string access_log::format_line(const access_record& r) {
  std::string line;
  append(line, r);
  return line;
}

void access_log::record(const access_record& r) {
  append(pending_, r);
  if (pending_.size() >= hand_over_bytes) hand_over();
}

void access_log::hand_over() {
  if (pending_.empty()) return;
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shared_.size() > max_waiting_bytes) {
      size_t lines = 0;
      for (char c : pending_) lines += c == '\n';
      dropped_.fetch_add(lines, std::memory_order_relaxed);
    } else if (shared_.empty()) {
      shared_.swap(pending_);
    } else {
      shared_ += pending_;
    }
    wake = shared_.size() >= hand_over_bytes;
  }
  pending_.clear();
  if (wake) wake_.notify_one();
}

void access_log::reopen() {
  reopen_.store(true, std::memory_order_relaxed);
  wake_.notify_one();
}

void access_log::write_out(const std::string& bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    size_t length = bytes.size() - at;
    if (pipe_ && length > PIPE_BUF) {
      // Whole lines, at most PIPE_BUF: writes of that size into a pipe are atomic.
      size_t end = bytes.rfind('\n', at + PIPE_BUF - 1);
      length = end != std::string::npos && end >= at ? end + 1 - at : PIPE_BUF;
    }
    ssize_t n = ::write(fd_, bytes.data() + at, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // a closed pipe or a full disk: these lines are lost, the server goes on
    }
    at += static_cast<size_t>(n);
  }
}

void access_log::writer() {
  std::string batch;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait_for(lock, write_interval, [this] {
      return stop_ || shared_.size() >= hand_over_bytes || reopen_.load(std::memory_order_relaxed);
    });
    batch.swap(shared_);
    bool stopping = stop_;
    lock.unlock();
    if (reopen_.exchange(false, std::memory_order_relaxed) && !path_.empty() && !open_file()) {
      log::write(log::level::error, "cannot reopen the access log %s: %s", path_.c_str(), strerrordesc_np(errno));
    }
    if (!batch.empty()) write_out(batch);
    batch.clear();
    if (stopping) return;
    lock.lock();
  }
}

}  // namespace baton::server
