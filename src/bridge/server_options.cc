#include "bridge/server_options.h"

#include <cmath>
#include <csignal>

#include "core/http1/response.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

// A number of seconds as milliseconds; false with an error set if it is not one.
bool seconds_option(PyObject* kwargs, const char* key, int& ms) {
  PyObject* v = PyDict_GetItemString(kwargs, key);
  if (v == nullptr || v == Py_None) return true;
  double seconds = PyFloat_AsDouble(v);
  if (seconds == -1.0 && PyErr_Occurred()) return false;
  // Milliseconds are kept in an int: 24 days fit (NaN fails both tests).
  if (!(seconds >= 0 && seconds <= 86400.0 * 24)) {
    PyErr_Format(PyExc_ValueError, "%s must be between 0 and 24 days, not %R", key, v);
    return false;
  }
  ms = static_cast<int>(std::lround(seconds * 1000.0));
  return true;
}

bool integer_option(PyObject* kwargs, const char* key, long long low, long long high, long long& out) {
  PyObject* v = PyDict_GetItemString(kwargs, key);
  if (v == nullptr || v == Py_None) return true;
  long long value = PyLong_AsLongLong(v);
  if (value == -1 && PyErr_Occurred()) return false;
  if (value < low || value > high) {
    PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, not %lld", key, low, high, value);
    return false;
  }
  out = value;
  return true;
}

bool string_option(PyObject* kwargs, const char* key, std::string& out) {
  PyObject* v = PyDict_GetItemString(kwargs, key);
  if (v == nullptr || v == Py_None) return true;
  Py_ssize_t n = 0;
  const char* text = PyUnicode_AsUTF8AndSize(v, &n);
  if (text == nullptr) return false;
  out.assign(text, static_cast<size_t>(n));
  return true;
}

}  // namespace

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

namespace {

bool read_local_routes(PyObject* kwargs, server::server_config& config, server_extras& extras) {
  std::string health;
  long long expires = 86400;
  if (!string_option(kwargs, "health_path", health) ||
      !integer_option(kwargs, "static_expires", 0, INT32_MAX, expires)) {
    return false;
  }
  PyObject* mounts = PyDict_GetItemString(kwargs, "static_mounts");
  Py_ssize_t mount_count = mounts != nullptr && mounts != Py_None ? PyObject_Length(mounts) : 0;
  if (mount_count < 0) return false;
  bool any_mount = mount_count > 0;
  if (health.empty() && !any_mount) return true;
  auto local = std::make_unique<http1::local_routes>();
  local->set_health_path(health);
  local->set_expires(static_cast<int>(expires));
  local->set_server_header(config.connection.streams.server_header);
  if (any_mount) {
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

bool read_worker_options(PyObject* kwargs, server::server_config& config, server_extras& extras) {
  long long max_requests = 0;
  int app_timeout_ms = 0;
  if (!integer_option(kwargs, "max_requests", 0, INT64_MAX, max_requests) ||
      !seconds_option(kwargs, "app_timeout", app_timeout_ms)) {
    return false;
  }
  config.max_requests = static_cast<uint64_t>(max_requests);
  config.app_timeout_ms = app_timeout_ms;
  PyObject* hup = PyDict_GetItemString(kwargs, "catch_hangup");
  int catch_hangup = hup != nullptr ? PyObject_IsTrue(hup) : 0;
  if (catch_hangup < 0) return false;
  config.catch_hangup = catch_hangup == 1;
  long long retire_signal = config.catch_hangup ? SIGHUP : 0;
  if (!integer_option(kwargs, "retire_signal", 0, 64, retire_signal)) return false;
  config.retire_signal = static_cast<int>(retire_signal);
  PyObject* beat = PyDict_GetItemString(kwargs, "heartbeat");
  if (beat != nullptr && beat != Py_None) {
    if (PyObject_GetBuffer(beat, &extras.heartbeat, PyBUF_WRITABLE) != 0) return false;
    extras.has_heartbeat = true;
    if (extras.heartbeat.len < 8 || reinterpret_cast<uintptr_t>(extras.heartbeat.buf) % 8 != 0) {
      PyErr_SetString(PyExc_ValueError, "heartbeat must be 8 aligned writable bytes");
      return false;
    }
    config.heartbeat = static_cast<std::atomic<int64_t>*>(extras.heartbeat.buf);
  }
  PyObject* format = PyDict_GetItemString(kwargs, "access_log_format");
  if (format != nullptr && format != Py_None) {
    std::string text, path = "-";
    if (!string_option(kwargs, "access_log_format", text) || !string_option(kwargs, "access_logfile", path)) {
      return false;
    }
    std::string error;
    extras.access = server::access_log::open(text, path, error);
    if (!extras.access) {
      PyErr_SetString(PyExc_OSError, error.c_str());
      return false;
    }
    config.access = extras.access.get();
  }
  return true;
}

}  // namespace

bool read_server_options(PyObject* kwargs, server::server_config& config, server_extras& extras) {
  http1::connection_settings& cs = config.connection;
  long long max_header_size = static_cast<long long>(cs.request_limits.max_header_bytes);
  long long max_headers = static_cast<long long>(cs.request_limits.max_headers);
  long long max_body = 0;
  long long log_level = 20;
  std::string allow = "127.0.0.1";
  std::string server_header = "baton";
  if (!seconds_option(kwargs, "keep_alive_timeout", cs.keep_alive_timeout_ms) ||
      !seconds_option(kwargs, "header_read_timeout", cs.header_read_timeout_ms) ||
      !seconds_option(kwargs, "body_read_timeout", cs.body_read_timeout_ms) ||
      !seconds_option(kwargs, "write_timeout", cs.write_timeout_ms) ||
      !seconds_option(kwargs, "graceful_timeout", config.graceful_timeout_ms) ||
      !integer_option(kwargs, "max_header_size", 256, 1 << 24, max_header_size) ||
      !integer_option(kwargs, "max_headers", 1, 10000, max_headers) ||
      !integer_option(kwargs, "max_body_size", 0, INT64_MAX, max_body) ||
      !integer_option(kwargs, "log_level", 0, 50, log_level) || !string_option(kwargs, "forwarded_allow_ips", allow) ||
      !string_option(kwargs, "server_header", server_header)) {
    return false;
  }
  cs.request_limits.max_header_bytes = static_cast<size_t>(max_header_size);
  cs.request_limits.max_request_line = std::min<size_t>(8192, static_cast<size_t>(max_header_size));
  cs.request_limits.max_headers = static_cast<size_t>(max_headers);
  cs.request_limits.max_body = static_cast<uint64_t>(max_body);
  PyObject* proxy = PyDict_GetItemString(kwargs, "proxy_headers");
  int proxy_enabled = proxy != nullptr ? PyObject_IsTrue(proxy) : 1;
  if (proxy_enabled < 0) return false;
  cs.proxy.enabled = proxy_enabled == 1;
  std::string error;
  if (!cs.proxy.trusted.parse(allow, error)) {
    PyErr_Format(PyExc_ValueError, "forwarded_allow_ips: %s", error.c_str());
    return false;
  }
  if (!http1::valid_header_value(server_header)) {
    PyErr_SetString(PyExc_ValueError, "server_header: not a valid header value");
    return false;
  }
  cs.streams.server_header = server_header.empty() ? std::string() : "server: " + server_header + "\r\n";
  log::set_level(static_cast<log::level>(log_level));
  return read_local_routes(kwargs, config, extras) && read_worker_options(kwargs, config, extras);
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
