// The WSGI request handler: called with the GIL held on whichever thread
// runs the app (the loop thread inline, or a pool thread), it builds the
// environ, calls the app, and streams the result into the stream.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "bridge/py_ref.h"
#include "bridge/server_setup.h"
#include "bridge/wsgi/environ_template.h"
#include "bridge/wsgi/wsgi.h"
#include "core/server/dispatcher.h"
#include "core/server/exchange_wait.h"

namespace baton::bridge {

struct wsgi_options {
  PyObject* app = nullptr;            // borrowed during create()
  PyObject* log_exception = nullptr;  // callable(message: str, exc: BaseException)
  std::string root_path;
  // SERVER_NAME and SERVER_PORT per listening socket, by listener index
  // (a Unix socket's empty name and port 0 read as localhost and 80).
  std::vector<listener_address> listeners;
  std::string url_scheme = "http";
  std::string server_software = "baton";
  bool multiprocess = false;
  bool multithread = false;  // the pool shape: several threads call the app
};

// What one app thread keeps between requests: the start_response object,
// reused when the app kept no reference to it, its environ template (with
// the wsgi.input and wsgi.early_hints objects), and the caches building an
// environ reads and fills. Each thread has its own, so that threads running
// the app at once (a free-threaded build) share nothing they change. Owned
// by the thread (its destructor needs the GIL).
struct wsgi_thread_state {
  py_ref start_response;
  server::exchange_waiter* waiter = nullptr;
  // This thread's copy of the handler's environ template (a copy of a dict
  // another thread copies too would take the dict's lock every request).
  environ_template environ;
  struct transparent_hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Lower-case field name -> interned environ key; null means "drop it".
  std::unordered_map<std::string, py_ref, transparent_hash, std::equal_to<>> header_keys;
  // Small caches for the client's address and port strings (keep-alive
  // clients send many requests from one of each).
  py_ref port_cache[256];
  uint16_t port_cache_key[256] = {};
  py_ref last_address;
  std::string last_address_text;
  field_memo memo;  // status lines and fields this thread's app sent, found valid
  void clear() {
    memo.clear();
    start_response.reset();
    environ.clear();
    header_keys.clear();
    for (py_ref& p : port_cache) p.reset();
    last_address.reset();
  }
};

class wsgi_handler final : public server::request_handler {
 public:
  // Returns null with a Python error set on failure. Needs the GIL.
  static std::unique_ptr<wsgi_handler> create(const wsgi_options& options);
  // GIL held. Uses the calling thread's state (set_thread_state), or the
  // handler's own for the loop thread.
  void handle(exchange::exchange& s) override;

  // The waiter for streams run on the loop thread (inline).
  void set_inline_waiter(server::exchange_waiter* waiter) { loop_thread_.waiter = waiter; }
  // Pool threads register their own state for the calls they make.
  static void set_thread_state(wsgi_thread_state* state);
  // GIL held: drops the loop thread's cached objects.
  void clear_loop_thread_state() { loop_thread_.clear(); }

  // Needs the GIL; logs the current Python error with `message`, naming the
  // request when there is one.
  void log_current_exception(const char* message, const exchange::exchange* s = nullptr);

 private:
  wsgi_handler() = default;
  py_ref build_environ(wsgi_thread_state& state, exchange::exchange& s);
  bool arm_objects(wsgi_thread_state& state, wsgi_call& call);
  bool add_header_fields(wsgi_thread_state& state, PyObject* environ, const exchange::request_head& head);
  static PyObject* cached_header_key(wsgi_thread_state& state, std::string_view name);
  static PyObject* remote_port(wsgi_thread_state& state, uint16_t port);
  static PyObject* remote_addr(wsgi_thread_state& state, std::string_view address);
  bool send_result(PyObject* result, wsgi_call& call);
  template <typename Visit>
  static void for_each_slot(wsgi_thread_state& state, Visit&& visit);
  void keep_other_threads_off(wsgi_thread_state& state, wsgi_call& call);
  bool send_sequence(PyObject* result, wsgi_call& call);
  bool send_iterable(PyObject* result, wsgi_call& call);
  int try_send_file(PyObject* result, wsgi_call& call);
  void call_close(PyObject* result, const exchange::exchange& s);

  py_ref app_;
  py_ref log_exception_;
  py_ref template_;
  std::string root_path_;
  wsgi_thread_state loop_thread_;

  // Environ keys of the request fields most clients send, found without
  // hashing (see common_field_index in the .cc); the rest go through each
  // thread's map. Made once, read-only after.
  std::vector<py_ref> common_keys_;
  // SERVER_NAME and SERVER_PORT of listeners after the first (whose are
  // in the template).
  std::vector<std::pair<py_ref, py_ref>> listener_names_;
  py_ref https_;          // "https", for requests a trusted proxy says came over TLS
  bool default_https_ = false;
};

}  // namespace baton::bridge
