#include "bridge/server_setup.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <exception>
#include <string_view>

#include "bridge/metrics.h"
#include "core/exchange/fields.h"
#include "core/util/log.h"

namespace baton::bridge {

PyObject* keyword(PyObject* kwargs, const char* key, PyObject* fallback) {
  PyObject* v = kwargs != nullptr ? PyDict_GetItemString(kwargs, key) : nullptr;
  return v != nullptr ? v : fallback;
}

bool keyword_flag(PyObject* kwargs, const char* key, bool fallback) {
  PyObject* v = keyword(kwargs, key);
  return v == nullptr ? fallback : PyObject_IsTrue(v) == 1;
}

std::string keyword_text(PyObject* kwargs, const char* key, const char* fallback) {
  PyObject* v = keyword(kwargs, key);
  const char* t = v != nullptr && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : nullptr;
  return t != nullptr ? t : fallback;
}

namespace {

// --- the option table ---------------------------------------------------------
//
// Every option the core takes: its key (the name baton/config.py gives it),
// the kind of value, its bounds, and where it goes. A missing key or None
// leaves the core's default.

enum class kind : uint8_t { seconds, integer, text, flag, object };

struct option_value {
  int ms = 0;             // seconds
  long long number = 0;   // integer
  std::string text;       // text
  bool flag = false;      // flag
  PyObject* object = nullptr;  // object (borrowed)
};

using config_t = server::server_config;
// Applies a value; false with a Python error set when it cannot be.
using setter = bool (*)(config_t&, server_extras&, const option_value&);

struct option_entry {
  const char* key;
  kind type;
  long long low;
  long long high;
  setter apply;
};

bool set_allow_list(config_t& c, server_extras&, const option_value& v) {
  std::string error;
  if (c.requests.proxy.trusted.parse(v.text, error)) return true;
  PyErr_Format(PyExc_ValueError, "forwarded_allow_ips: %s", error.c_str());
  return false;
}

bool set_server_header(config_t& c, server_extras&, const option_value& v) {
  if (!exchange::valid_field_value(v.text)) {
    PyErr_SetString(PyExc_ValueError, "server_header: not a valid header value");
    return false;
  }
  c.server_header = v.text;
  return true;
}

// "auto", "off", or a field value sent as it is (server/alt_svc.h).
bool set_alt_svc(config_t& c, server_extras&, const option_value& v) {
  if (v.text.empty() || !exchange::valid_field_value(v.text)) {
    PyErr_SetString(PyExc_ValueError, "alt_svc: not auto, off or a valid header value");
    return false;
  }
  c.alt_svc = v.text;
  return true;
}

bool set_max_header_size(config_t& c, server_extras&, const option_value& v) {
  c.requests.request_limits.max_header_bytes = static_cast<size_t>(v.number);
  c.requests.request_limits.max_request_line = std::min<size_t>(8192, static_cast<size_t>(v.number));
  return true;
}

bool set_heartbeat(config_t& c, server_extras& x, const option_value& v) {
  if (PyObject_GetBuffer(v.object, &x.heartbeat, PyBUF_WRITABLE) != 0) return false;
  x.has_heartbeat = true;
  if (x.heartbeat.len < 8 || reinterpret_cast<uintptr_t>(x.heartbeat.buf) % 8 != 0) {
    PyErr_SetString(PyExc_ValueError, "heartbeat must be 8 aligned writable bytes");
    return false;
  }
  c.heartbeat = static_cast<std::atomic<int64_t>*>(x.heartbeat.buf);
  return true;
}

// Reading order matters only here: the access log is opened with the file
// and the JSON lines' settings read before it (they come first in the table).
bool set_access_log(config_t& c, server_extras& x, const option_value& v) {
  std::string error;
  x.access = server::access_log::open(v.text, x.access_logfile, error, x.access_json);
  if (!x.access) {
    PyErr_SetString(PyExc_OSError, error.c_str());
    return false;
  }
  c.access = x.access.get();
  return true;
}

const option_entry option_table[] = {
    {"keep_alive_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.keep_alive_timeout_ms = v.ms;
       return true;
     }},
    {"header_read_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.header_read_timeout_ms = v.ms;
       return true;
     }},
    {"body_read_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.body_read_timeout_ms = v.ms;
       return true;
     }},
    {"write_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.session.write_timeout_ms = v.ms;
       return true;
     }},
    {"graceful_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.graceful_timeout_ms = v.ms;
       return true;
     }},
    // How often each loop stamps its heartbeat: well inside the master's
    // --timeout, which judges a stamp's age (serve.py gives a quarter of it).
    {"heartbeat_interval", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.heartbeat_interval_ms = std::max(v.ms, 10);
       return true;
     }},
    {"max_header_size", kind::integer, 256, 1 << 24, set_max_header_size},
    {"max_headers", kind::integer, 1, 10000, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.request_limits.max_headers = static_cast<size_t>(v.number);
       return true;
     }},
    {"max_body_size", kind::integer, 0, INT64_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.request_limits.max_body = static_cast<uint64_t>(v.number);
       return true;
     }},
    {"log_level", kind::integer, 0, 50, [](config_t&, server_extras&, const option_value& v) {
       log::set_level(static_cast<log::level>(v.number));
       return true;
     }},
    {"proxy_headers", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.requests.proxy.enabled = v.flag;
       return true;
     }},
    {"forwarded_allow_ips", kind::text, 0, 0, set_allow_list},
    {"proxy_protocol", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.proxy_protocol = v.flag;
       return true;
     }},
    {"http3", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.http3 = v.flag;
       return true;
     }},
    // The loop's steered UDP socket: its index in the group, and the group's key.
    {"quic_cid_index", kind::integer, -1, 255, [](config_t& c, server_extras&, const option_value& v) {
       c.quic_cid.index = static_cast<int>(v.number);
       return true;
     }},
    {"quic_cid_key", kind::integer, 0, UINT32_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.quic_cid.key = static_cast<uint32_t>(v.number);
       return true;
     }},
    {"quic_retry", kind::text, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       if (v.text == "auto") {
         c.quic_retry = net::quic_retry_mode::automatic;
       } else if (v.text == "always") {
         c.quic_retry = net::quic_retry_mode::always;
       } else if (v.text == "off") {
         c.quic_retry = net::quic_retry_mode::off;
       } else {
         PyErr_SetString(PyExc_ValueError, "quic_retry: not auto, always or off");
         return false;
       }
       return true;
     }},
    // The server's stateless reset secret, 64 hex digits (a master's, the same in every loop).
    {"quic_reset_secret", kind::text, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       auto nibble = [](char h) {
         return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
       };
       std::string bytes;
       for (size_t i = 0; i + 1 < v.text.size(); i += 2) {
         int high = nibble(v.text[i]);
         int low = nibble(v.text[i + 1]);
         if (high < 0 || low < 0) break;
         bytes.push_back(static_cast<char>(high * 16 + low));
       }
       if (!v.text.empty() && (v.text.size() != 64 || bytes.size() != 32)) {
         PyErr_SetString(PyExc_ValueError, "quic_reset_secret is 64 lower-case hex digits");
         return false;
       }
       c.quic_reset_secret = std::move(bytes);
       return true;
     }},
    {"server_header", kind::text, 0, 0, set_server_header},
    {"alt_svc", kind::text, 0, 0, set_alt_svc},
    {"max_requests", kind::integer, 0, INT64_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.max_requests = static_cast<uint64_t>(v.number);
       return true;
     }},
    {"app_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.app_timeout_ms = v.ms;
       return true;
     }},
    {"catch_hangup", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.catch_hangup = v.flag;
       if (c.catch_hangup && c.retire_signal == 0) c.retire_signal = SIGHUP;
       return true;
     }},
    {"retire_signal", kind::integer, 0, 64, [](config_t& c, server_extras&, const option_value& v) {
       c.retire_signal = static_cast<int>(v.number);
       return true;
     }},
    {"stop_watchdog", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.stop_watchdog = v.flag;
       return true;
     }},
    {"heartbeat", kind::object, 0, 0, set_heartbeat},
    {"parent_pid", kind::integer, 0, INT32_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.parent_pid = static_cast<int>(v.number);
       return true;
     }},
    {"metrics", kind::object, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       return metrics_blocks(v.object, c.metrics, c.metrics_slot);
     }},
    {"limit_concurrency", kind::integer, 0, UINT32_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.limit_concurrency = static_cast<uint32_t>(v.number);
       return true;
     }},
    {"shared_listeners", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.shared_listeners = v.flag;
       return true;
     }},
    {"access_logfile", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.access_logfile = v.text;
       return true;
     }},
    {"access_log_request_id_header", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.access_json.request_id_header = v.text;
       return true;
     }},
    // Which loop of --threads this server is (for the JSON access log).
    {"loop_index", kind::integer, 0, 1023, [](config_t&, server_extras& x, const option_value& v) {
       x.access_json.loop_index = static_cast<int>(v.number);
       return true;
     }},
    {"access_log_format", kind::text, 0, 0, set_access_log},
    // WebSockets (an ASGI app: run_wsgi passes websocket=False).
    {"websocket", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.enabled = v.flag;
       return true;
     }},
    {"ws_max_size", kind::integer, 1, INT32_MAX, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.max_message = static_cast<size_t>(v.number);
       return true;
     }},
    {"ws_max_queue", kind::integer, 1, 1 << 20, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.max_queue = static_cast<uint32_t>(v.number);
       return true;
     }},
    {"ws_ping_interval", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.ping_interval_ms = v.ms;
       return true;
     }},
    {"ws_ping_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.ping_timeout_ms = v.ms;
       return true;
     }},
    {"ws_handshake_timeout", kind::seconds, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.handshake_timeout_ms = v.ms;
       return true;
     }},
    {"ws_per_message_deflate", kind::flag, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.deflate.enabled = v.flag;
       return true;
     }},
    {"ws_deflate_level", kind::integer, 1, 9, [](config_t& c, server_extras&, const option_value& v) {
       c.websocket.deflate.level = static_cast<int>(v.number);
       return true;
     }},
    // HTTP/2.
    {"http", kind::text, 0, 0, [](config_t& c, server_extras&, const option_value& v) {
       if (v.text == "auto") c.http = server::http_versions::automatic;
       else if (v.text == "1") c.http = server::http_versions::http1_only;
       else if (v.text == "2") c.http = server::http_versions::http2_only;
       else {
         PyErr_Format(PyExc_ValueError, "http: auto, 1 or 2, not %s", v.text.c_str());
         return false;
       }
       return true;
     }},
    {"h2_max_concurrent_streams", kind::integer, 1, UINT32_MAX >> 1, [](config_t& c, server_extras&, const option_value& v) {
       c.http2.max_concurrent_streams = static_cast<uint32_t>(v.number);
       return true;
     }},
    {"h2_max_header_list_size", kind::integer, 1024, UINT32_MAX >> 1, [](config_t& c, server_extras&, const option_value& v) {
       c.http2.max_header_list_size = static_cast<uint32_t>(v.number);
       return true;
     }},
    {"h2_initial_window_size", kind::integer, 65535, (1u << 31) - 1, [](config_t& c, server_extras&, const option_value& v) {
       c.http2.initial_window_size = static_cast<uint32_t>(v.number);
       return true;
     }},
    // TLS: read here, loaded once all are (load_tls).
    {"ssl_certfile", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.certfile = v.text;
       return true;
     }},
    {"ssl_keyfile", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.keyfile = v.text;
       return true;
     }},
    {"ssl_keyfile_password", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.password = v.text;
       return true;
     }},
    {"ssl_ca_certs", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.ca_certs = v.text;
       return true;
     }},
    {"ssl_cert_reqs", kind::integer, 0, 2, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.cert_reqs = static_cast<int>(v.number);
       return true;
     }},
    {"ssl_ciphers", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.ciphers = v.text;
       return true;
     }},
    {"ssl_version", kind::text, 0, 0, [](config_t&, server_extras& x, const option_value& v) {
       x.tls_settings.min_version = net::parse_tls_version(v.text);
       if (x.tls_settings.min_version != 0) return true;
       PyErr_Format(PyExc_ValueError, "ssl_version: not a TLS version: %s", v.text.c_str());
       return false;
     }},
};

// With a certificate, every connection is TLS: the context is loaded here,
// in the process that serves (each worker its own, and a reload's workers
// read the files again).
bool load_tls(config_t& config, server_extras& extras) {
  if (extras.tls_settings.certfile.empty()) return true;
  std::string error;
  extras.tls_settings.offer_h2 = config.http != server::http_versions::http1_only;
  extras.tls = net::tls_context::load(extras.tls_settings, error);
  extras.tls_settings.password.clear();
  if (!extras.tls) {
    PyErr_SetString(PyExc_OSError, error.c_str());
    return false;
  }
  config.tls = extras.tls.get();
  return true;
}

// Reads one option's value by its kind; false with an error set on a bad one.
bool read_value(const option_entry& e, PyObject* v, option_value& out) {
  switch (e.type) {
    case kind::seconds: {
      double seconds = PyFloat_AsDouble(v);
      if (seconds == -1.0 && PyErr_Occurred()) return false;
      // Milliseconds are kept in an int: 24 days fit (NaN fails both tests).
      if (!(seconds >= 0 && seconds <= 86400.0 * 24)) {
        PyErr_Format(PyExc_ValueError, "%s must be between 0 and 24 days, not %R", e.key, v);
        return false;
      }
      out.ms = static_cast<int>(std::lround(seconds * 1000.0));
      return true;
    }
    case kind::integer: {
      long long value = PyLong_AsLongLong(v);
      if (value == -1 && PyErr_Occurred()) return false;
      if (value < e.low || value > e.high) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not %lld", e.key, e.low, e.high, value);
        return false;
      }
      out.number = value;
      return true;
    }
    case kind::text: {
      Py_ssize_t n = 0;
      const char* text = PyUnicode_AsUTF8AndSize(v, &n);
      if (text == nullptr) return false;
      out.text.assign(text, static_cast<size_t>(n));
      return true;
    }
    case kind::flag: {
      int truth = PyObject_IsTrue(v);
      if (truth < 0) return false;
      out.flag = truth == 1;
      return true;
    }
    case kind::object:
      out.object = v;
      return true;
  }
  return false;
}

bool read_options(PyObject* kwargs, config_t& config, server_extras& extras) {
  for (const option_entry& e : option_table) {
    PyObject* v = keyword(kwargs, e.key);
    if (v == nullptr || v == Py_None) continue;
    option_value value;
    if (!read_value(e, v, value) || !e.apply(config, extras, value)) return false;
  }
  return true;
}

// The health path and static mounts (static_mounts: (route, directory) pairs).
bool read_local_routes(PyObject* kwargs, config_t& config, server_extras& extras) {
  std::string health = keyword_text(kwargs, "health_path");
  PyObject* expires = keyword(kwargs, "static_path_expires");
  long long expires_seconds = expires != nullptr && expires != Py_None ? PyLong_AsLongLong(expires) : 86400;
  if (expires_seconds == -1 && PyErr_Occurred()) return false;
  PyObject* mounts = keyword(kwargs, "static_mounts");
  Py_ssize_t mount_count = mounts != nullptr && mounts != Py_None ? PyObject_Length(mounts) : 0;
  if (mount_count < 0) return false;
  if (health.empty() && mount_count == 0) return true;
  if (keyword_flag(kwargs, "static_open_fallback", false)) local::use_open_fallback(true);
  auto local = std::make_unique<local::local_routes>();
  local->set_health_path(health);
  local->set_expires(static_cast<int>(std::clamp<long long>(expires_seconds, 0, INT32_MAX)));
  if (mount_count > 0) {
    py_ref seq = py_ref::steal(PySequence_Fast(mounts, "static_mounts must be a sequence of (route, directory)"));
    if (!seq) return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
      const char* route = nullptr;
      const char* directory = nullptr;
      if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq.get(), i), "ss:static mount", &route, &directory)) {
        return false;
      }
      std::string error;
      if (!local->add_mount(route, directory, error)) {
        PyErr_SetString(PyExc_OSError, error.c_str());
        return false;
      }
    }
  }
  // A health path says 503 through a stop's drain, which it can only do
  // while the listeners stay open.
  config.refuse_while_draining = !health.empty();
  config.local = local.get();
  extras.local = std::move(local);
  return true;
}

// The keys the bridge reads itself, beside the table's: the health path and
// static mounts above, and what serve() (module.cc), AsgiServer
// (asgi/server.cc) and the stop handle take. With the table, every key a
// server may be given: any other is a mistake between baton/serve.py and
// this file, refused at start rather than silently ignored.
constexpr const char* bridge_keys[] = {
    "health_path", "static_path_expires", "static_mounts", "static_open_fallback",  // read_local_routes
    "own_signals", "blocking_threads", "native_hello", "log_exception", "root_path", "url_scheme",
    "server_software", "multiprocess", "pool_turn", "pool_turn_forced", "pool_runner",
    "pool_fallback_inline",
    "loop_attached",                                       // serve()
    "pump", "eager_tasks", "schedule_pass",                // AsgiServer
    "stop_handle",                                         // both
};

bool known_key(std::string_view key) {
  for (const option_entry& e : option_table) {
    if (key == e.key) return true;
  }
  for (const char* k : bridge_keys) {
    if (key == k) return true;
  }
  return false;
}

// Every key given is one the table or the bridge reads.
bool check_keys(PyObject* kwargs) {
  if (kwargs == nullptr) return true;
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t at = 0;
  while (PyDict_Next(kwargs, &at, &key, &value)) {
    const char* name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : nullptr;
    if (name == nullptr || !known_key(name)) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "unknown server option %R", key);
      return false;
    }
  }
  return true;
}

bool read_listeners(PyObject* listeners, std::vector<int>& fds, std::vector<listener_address>& addresses) {
  py_ref seq = py_ref::steal(PySequence_Fast(listeners, "listeners must be a sequence of file descriptors"));
  if (!seq) return false;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq.get(), i);
    listener_address address;
    long fd = -1;
    if (PyTuple_Check(item)) {
      const char* name = nullptr;
      if (!PyArg_ParseTuple(item, "lsi:listener", &fd, &name, &address.port)) return false;
      address.name = name;
    } else {
      fd = PyLong_AsLong(item);
      if (fd == -1 && PyErr_Occurred()) return false;
    }
    fds.push_back(static_cast<int>(fd));
    addresses.push_back(std::move(address));
  }
  if (fds.empty()) {
    PyErr_SetString(PyExc_ValueError, "no listening sockets");
    return false;
  }
  if (fds.size() > UINT16_MAX) {
    PyErr_SetString(PyExc_ValueError, "too many listening sockets");
    return false;
  }
  return true;
}

}  // namespace

bool assemble_server(PyObject* listeners, PyObject* kwargs, bool own_signals, assembled_server& out) {
  std::vector<int> fds;
  bool listed = read_listeners(listeners, fds, out.addresses) && check_keys(kwargs);
  // From here the descriptors are ours: the server closes them once it is
  // made, and every failure before that closes them here.
  auto close_all = [&fds] {
    for (int fd : fds) ::close(fd);
  };
  if (!listed) {
    close_all();
    return false;
  }
  server::server_config config;
  config.handle_signals = own_signals;
  out.extras = std::make_unique<server_extras>();
  if (!read_options(kwargs, config, *out.extras) || !read_local_routes(kwargs, config, *out.extras) ||
      !load_tls(config, *out.extras)) {
    close_all();
    return false;
  }
  try {
    out.srv = std::make_unique<server::server>(config, fds);
  } catch (const std::exception& e) {
    close_all();
    PyErr_Format(PyExc_RuntimeError, "baton server failed: %s", e.what());
    return false;
  }
  return true;
}

PyObject* descriptor_list(const std::vector<int>& fds) {
  py_ref list = py_ref::steal(PyList_New(0));
  if (!list) return nullptr;
  for (int fd : fds) {
    py_ref number = py_ref::steal(PyLong_FromLong(fd));
    if (!number || PyList_Append(list.get(), number.get()) != 0) return nullptr;
  }
  return list.release();
}

}  // namespace baton::bridge
