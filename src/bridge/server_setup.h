// One way to build a server, for every shape: serve() (WSGI and the native
// hello) and AsgiServer (both ASGI shapes) hand their listening sockets and
// keyword options here, and get the server with what its configuration
// points to. Each option is read through one table (server_setup.cc), from
// the keys Python's option table (baton/config.py) names.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bridge/py_ref.h"
#include "core/local/local_routes.h"
#include "core/server/access_log.h"
#include "core/server/server.h"

namespace baton::bridge {

// What a server_config points to, kept alive beside the server. Destroyed
// with the GIL held (it may hold a Python buffer).
struct server_extras {
  std::unique_ptr<local::local_routes> local;
  std::unique_ptr<server::access_log> access;
  Py_buffer heartbeat{};
  bool has_heartbeat = false;
  std::string access_logfile = "-";  // read before the access log is opened
  server::access_log_json_options access_json;  // the same
  net::tls_settings tls_settings;     // read by the option table, loaded after it
  std::unique_ptr<net::tls_context> tls;
  server_extras() = default;
  server_extras(const server_extras&) = delete;
  server_extras& operator=(const server_extras&) = delete;
  ~server_extras() {
    access.reset();  // writes what is left before the server's memory goes
    if (has_heartbeat) PyBuffer_Release(&heartbeat);
  }
};

// What the app is told about the socket a request came in on: SERVER_NAME
// and SERVER_PORT, the ASGI scope's "server" ("" and 0 for a Unix socket).
struct listener_address {
  std::string name;
  int port = 0;
};

struct assembled_server {
  std::unique_ptr<server_extras> extras;  // declared first: it outlives the server, which points into it
  std::unique_ptr<server::server> srv;
  std::vector<listener_address> addresses;  // one per listening socket, in order
};

// Builds the server from `listeners` (a sequence whose items are a
// descriptor or a (descriptor, server name, server port) tuple) and the
// options in `kwargs` (a dict; keys it does not know are left to the
// caller). From the call on the descriptors are owned: the server closes
// them, and so does a failure (false, with a Python error set). Signals are
// the server's own (installed by run()) unless `own_signals` is false.
bool assemble_server(PyObject* listeners, PyObject* kwargs, bool own_signals, assembled_server& out);

// A new list of the descriptors (null with an error set on failure).
PyObject* descriptor_list(const std::vector<int>& fds);

// A keyword option's value, or `fallback` when it is absent.
PyObject* keyword(PyObject* kwargs, const char* key, PyObject* fallback = nullptr);
bool keyword_flag(PyObject* kwargs, const char* key, bool fallback);
std::string keyword_text(PyObject* kwargs, const char* key, const char* fallback = "");

}  // namespace baton::bridge
