// The server options every entry point takes (serve() for WSGI and the
// native hello, AsgiServer for ASGI), read once from the keyword arguments
// into the core's configuration.
#pragma once

#include <memory>
#include <string>

#include "bridge/py_ref.h"
#include "core/http1/local_routes.h"
#include "core/server/access_log.h"
#include "core/server/server.h"

namespace baton::bridge {

// What a server_config points to, kept alive beside the server. Destroyed
// with the GIL held (it may hold a Python buffer).
struct server_extras {
  std::unique_ptr<http1::local_routes> local;
  std::unique_ptr<server::access_log> access;
  Py_buffer heartbeat{};
  bool has_heartbeat = false;
  server_extras() = default;
  server_extras(const server_extras&) = delete;
  server_extras& operator=(const server_extras&) = delete;
  ~server_extras() {
    access.reset();  // writes what is left before the server's memory goes
    if (has_heartbeat) PyBuffer_Release(&heartbeat);
  }
};

// Reads the options in `kwargs` (a dict; keys not listed here are ignored)
// into `config`. Returns false with a Python error set on a bad value.
// Known: keep_alive_timeout, header_read_timeout, body_read_timeout,
// write_timeout, graceful_timeout (seconds); max_header_size, max_headers,
// max_body_size; log_level; proxy_headers, forwarded_allow_ips;
// server_header (the Server field's value, "" for none); health_path;
// static_mounts (a sequence of (route, directory)), static_expires;
// access_log_format (None: no access log), access_logfile; and for a worker
// under a master: max_requests, app_timeout (seconds), heartbeat (a writable
// buffer of 8 aligned bytes), catch_hangup (SIGHUP drains and hands the
// listeners back for a reload), retire_signal (a signal that drains). `extras` keeps what the config
// points to.
bool read_server_options(PyObject* kwargs, server::server_config& config, server_extras& extras);

// A new list of the descriptors (null with an error set on failure).
PyObject* descriptor_list(const std::vector<int>& fds);

// What the app is told about the socket a request came in on: SERVER_NAME
// and SERVER_PORT, the ASGI scope's "server" ("" and 0 for a Unix socket).
struct listener_address {
  std::string name;
  int port = 0;
};

// The listening descriptors from a sequence whose items are a descriptor or
// a (descriptor, server name, server port) tuple; `addresses` gets one entry
// per descriptor, in order (empty name and port 0 for a bare descriptor).
bool read_listeners(PyObject* listeners, std::vector<int>& fds, std::vector<listener_address>& addresses);

}  // namespace baton::bridge
