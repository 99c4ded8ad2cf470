#include "core/metrics/exposition.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>

namespace baton::metrics {

namespace {

uint64_t value(const counter& c) { return c.load(std::memory_order_relaxed); }
int64_t value(const gauge& g) { return g.load(std::memory_order_relaxed); }

// What one scrape sums: every thread of every live worker, and the retired.
struct totals {
  thread_block all{};
  int64_t pool_queue = 0;
  int64_t pool_busy = 0;
  uint64_t pool_gil_wait_ns = 0;
};

void sum(const region& r, totals& t) {
  add_block(t.all, r.retired());
  t.pool_gil_wait_ns = value(r.master().retired_pool_gil_wait_ns);
  for (uint32_t w = 0; w < r.workers(); ++w) {
    const worker_slot& s = r.slot(w);
    if (s.pid.load(std::memory_order_relaxed) == 0) continue;
    for (uint32_t i = 0; i < r.threads(); ++i) add_block(t.all, r.thread(w, i));
    t.pool_queue += value(s.pool_queue);
    t.pool_busy += value(s.pool_busy);
    t.pool_gil_wait_ns += value(s.pool_gil_wait_ns);
  }
}

class writer {
 public:
  explicit writer(format f) : format_(f) {}
  std::string take() {
    if (format_ == format::openmetrics) out_ += "# EOF\n";
    return std::move(out_);
  }

  // A family's HELP and TYPE. `name` is the metric's name without a
  // counter's _total (OpenMetrics names the family so; the text format
  // names the samples').
  void family(const char* name, const char* type, const char* help) {
    bool counter = std::string_view(type) == "counter";
    bool info = std::string_view(type) == "info";
    std::string shown = name;
    if (format_ == format::prometheus && counter) shown += "_total";
    if (format_ == format::prometheus && info) shown += "_info";
    line("# HELP %s %s\n", shown.c_str(), help);
    line("# TYPE %s %s\n", shown.c_str(), info && format_ == format::prometheus ? "gauge" : type);
  }
  void sample(const char* name, const char* suffix, const std::string& labels, uint64_t v) {
    line("%s%s%s %" PRIu64 "\n", name, suffix, labels.c_str(), v);
  }
  void sample_signed(const char* name, const std::string& labels, int64_t v) {
    line("%s%s %" PRId64 "\n", name, labels.c_str(), v);
  }
  void sample_seconds(const char* name, const char* suffix, const std::string& labels, double seconds) {
    line("%s%s%s %.9g\n", name, suffix, labels.c_str(), seconds);
  }

 private:
  template <typename... Args>
  void line(const char* pattern, Args... args) {
    char buffer[512];
    int n = std::snprintf(buffer, sizeof buffer, pattern, args...);
    if (n > 0) out_.append(buffer, static_cast<size_t>(n) < sizeof buffer ? static_cast<size_t>(n) : sizeof buffer - 1);
  }
  format format_;
  std::string out_;
};

std::string labels(std::initializer_list<std::pair<const char*, std::string>> pairs) {
  std::string s = "{";
  for (const auto& [name, text] : pairs) {
    if (s.size() > 1) s += ",";
    s += name;
    s += "=\"";
    s += text;
    s += "\"";
  }
  return s + "}";
}

// A process's resident memory, from /proc (0 when it is gone).
int64_t resident_bytes(int32_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return 0;
  long long size = 0, resident = 0;
  int got = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * sysconf(_SC_PAGESIZE) : 0;
}

const char* class_name(size_t c) {
  static const char* names[] = {"1xx", "2xx", "3xx", "4xx", "5xx"};
  return names[c];
}

void write_requests(writer& w, const thread_block& all) {
  w.family("baton_requests", "counter", "Requests answered (a WebSocket: its opening), by protocol and status class.");
  for (size_t p = 0; p < protocol_count; ++p) {
    for (size_t c = 0; c < status_class_count; ++c) {
      w.sample("baton_requests", "_total",
               labels({{"protocol", protocol_name(static_cast<protocol>(p))}, {"class", class_name(c)}}),
               value(all.answers[p].requests[c]));
    }
  }
  w.family("baton_request_duration_seconds", "histogram",
           "Time from a request's head to the last byte of its answer, by protocol.");
  for (size_t p = 0; p < protocol_count; ++p) {
    if (static_cast<protocol>(p) == protocol::websocket) continue;  // a WebSocket has no answer's end
    const char* name = protocol_name(static_cast<protocol>(p));
    uint64_t cumulative = 0;
    for (size_t b = 0; b < latency_bucket_count; ++b) {
      cumulative += value(all.answers[p].latency[b]);
      char le[32];
      if (b + 1 < latency_bucket_count) {
        std::snprintf(le, sizeof le, "%.6g", static_cast<double>(latency_bounds_us[b]) / 1e6);
      } else {
        std::snprintf(le, sizeof le, "+Inf");
      }
      w.sample("baton_request_duration_seconds", "_bucket", labels({{"protocol", name}, {"le", le}}), cumulative);
    }
    w.sample_seconds("baton_request_duration_seconds", "_sum", labels({{"protocol", name}}),
                     static_cast<double>(value(all.answers[p].latency_sum_us)) / 1e6);
    w.sample("baton_request_duration_seconds", "_count", labels({{"protocol", name}}), cumulative);
  }
  w.family("baton_request_bytes", "counter", "Request bytes received (heads and bodies), by protocol.");
  for (size_t p = 0; p < protocol_count; ++p) {
    w.sample("baton_request_bytes", "_total", labels({{"protocol", protocol_name(static_cast<protocol>(p))}}),
             value(all.answers[p].request_bytes));
  }
  w.family("baton_response_bytes", "counter", "Response body bytes sent, by protocol.");
  for (size_t p = 0; p < protocol_count; ++p) {
    w.sample("baton_response_bytes", "_total", labels({{"protocol", protocol_name(static_cast<protocol>(p))}}),
             value(all.answers[p].response_bytes));
  }
}

void write_saturation(writer& w, const totals& t) {
  struct one {
    const char* name;
    const char* help;
    int64_t v;
  };
  const one gauges[] = {
      {"baton_requests_in_flight", "Requests inside the app now (an open WebSocket counts).", value(t.all.in_flight)},
      {"baton_connections", "Open client connections.", value(t.all.connections)},
      {"baton_websockets", "Open WebSockets.", value(t.all.websockets)},
      {"baton_http2_streams", "Open HTTP/2 streams.", value(t.all.h2_streams)},
      {"baton_quic_connections", "Open QUIC connections (HTTP/3).", value(t.all.quic_connections)},
      {"baton_pool_queue_depth", "Requests waiting for a WSGI pool thread.", t.pool_queue},
      {"baton_pool_busy_threads", "WSGI pool threads inside the app.", t.pool_busy},
  };
  for (const one& g : gauges) {
    w.family(g.name, "gauge", g.help);
    w.sample_signed(g.name, "", g.v);
  }
  w.family("baton_loop_gil_wait_seconds", "counter", "Time loop threads spent waiting to take the GIL.");
  w.sample_seconds("baton_loop_gil_wait_seconds", "_total", "", static_cast<double>(value(t.all.loop_gil_wait_ns)) / 1e9);
  w.family("baton_pool_gil_wait_seconds", "counter", "Time WSGI pool threads spent waiting to take the GIL.");
  w.sample_seconds("baton_pool_gil_wait_seconds", "_total", "", static_cast<double>(t.pool_gil_wait_ns) / 1e9);
}

void write_quic(writer& w, const quic_counts& q) {
  struct one {
    const char* name;
    const char* help;
    const counter& c;
  };
  const one counters[] = {
      {"baton_quic_datagrams_received", "UDP datagrams read by the HTTP/3 sockets.", q.datagrams_received},
      {"baton_quic_datagrams_sent", "UDP datagrams sent by the HTTP/3 sockets.", q.datagrams_sent},
      {"baton_quic_handshakes", "QUIC connections whose handshake completed.", q.handshakes},
      {"baton_quic_handshakes_failed", "QUIC connections that ended before their handshake completed.",
       q.handshakes_failed},
      {"baton_quic_packets_lost", "QUIC packets declared lost (counted as each connection ends).", q.packets_lost},
      {"baton_quic_version_negotiations", "First QUIC packets in a version not spoken, answered with those spoken.",
       q.version_negotiations_sent},
      {"baton_quic_stateless_resets", "Stateless resets sent for packets of a QUIC connection that is gone.",
       q.stateless_resets_sent},
      {"baton_quic_retries", "New QUIC connections asked to prove their address with a Retry.", q.retries_sent},
  };
  for (const one& c : counters) {
    w.family(c.name, "counter", c.help);
    w.sample(c.name, "_total", "", value(c.c));
  }
}

void write_refusals(writer& w, const thread_block& all) {
  w.family("baton_rejections", "counter", "What the core refused or cut without the app, by cause.");
  for (size_t r = 0; r < rejection_count; ++r) {
    w.sample("baton_rejections", "_total", labels({{"cause", rejection_name(static_cast<rejection>(r))}}),
             value(all.rejections[r]));
  }
  w.family("baton_websocket_closes", "counter", "WebSockets closed, by close code.");
  for (size_t c = 0; c < ws_close_class_count; ++c) {
    std::string code = c + 1 < ws_close_class_count ? std::to_string(ws_close_codes[c]) : "other";
    w.sample("baton_websocket_closes", "_total", labels({{"code", code}}), value(all.ws_closes[c]));
  }
}

void write_workers(writer& w, const region& r, const build_info& info) {
  const master_block& m = r.master();
  w.family("baton_workers_started", "counter", "Worker processes started by the master.");
  w.sample("baton_workers_started", "_total", "", value(m.workers_started));
  w.family("baton_worker_respawns", "counter", "Workers replaced, by cause.");
  for (size_t c = 0; c < 4; ++c) {
    w.sample("baton_worker_respawns", "_total", labels({{"cause", respawn_cause_name(static_cast<respawn_cause>(c))}}),
             value(m.respawns[c]));
  }
  w.family("baton_worker_restarts", "counter", "Processes a worker slot has had after its first.");
  for (uint32_t i = 0; i < r.workers(); ++i) {
    const worker_slot& s = r.slot(i);
    // Slots that have had a worker (a slot never used has no series).
    if (s.pid.load(std::memory_order_relaxed) == 0 && value(s.restarts) == 0) continue;
    w.sample("baton_worker_restarts", "_total", labels({{"worker", std::to_string(i)}}), value(s.restarts));
  }
  w.family("baton_worker_rss_bytes", "gauge", "Resident memory of each live worker.");
  for (uint32_t i = 0; i < r.workers(); ++i) {
    int32_t pid = r.slot(i).pid.load(std::memory_order_relaxed);
    if (pid == 0) continue;
    w.sample_signed("baton_worker_rss_bytes", labels({{"worker", std::to_string(i)}}), resident_bytes(pid));
  }
  w.family("baton_build", "info", "The build serving: baton's version and the Python it runs.");
  w.sample("baton_build", "_info",
           labels({{"version", info.version}, {"python", info.python}, {"gil", info.free_threaded ? "off" : "on"}}), 1);
}

}  // namespace

format format_for(std::string_view accept) {
  return accept.find("application/openmetrics-text") != std::string_view::npos ? format::openmetrics
                                                                                 : format::prometheus;
}

const char* content_type(format f) {
  return f == format::openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                  : "text/plain; version=0.0.4; charset=utf-8";
}

std::string render(const region& r, format f, const build_info& info) {
  writer w(f);
  std::lock_guard<std::mutex> hold(r.fold_lock());
  totals t;
  sum(r, t);
  write_requests(w, t.all);
  write_saturation(w, t);
  write_refusals(w, t.all);
  write_quic(w, t.all.quic);
  write_workers(w, r, info);
  return w.take();
}

}  // namespace baton::metrics
