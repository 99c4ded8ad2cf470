// The WSGI request handler, inline shape: called on the loop thread with the
// GIL held, it builds the environ, calls the app, and streams the result
// into the exchange.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "bridge/py_ref.h"
#include "bridge/wsgi.h"
#include "core/http1/exchange.h"

namespace baton::bridge {

struct wsgi_options {
  PyObject* app = nullptr;            // borrowed during create()
  PyObject* log_exception = nullptr;  // callable(message: str, exc: BaseException)
  std::string root_path;
  std::string server_name = "127.0.0.1";
  std::string server_port = "8000";
  std::string url_scheme = "http";
  bool multiprocess = false;
};

class wsgi_handler final : public http1::request_handler {
 public:
  // Returns null with a Python error set on failure. Needs the GIL.
  static std::unique_ptr<wsgi_handler> create(const wsgi_options& options);
  void handle(http1::exchange& ex) override;

  // Needs the GIL; for errors that happen outside a request.
  void log_current_exception(const char* message);

 private:
  wsgi_handler() = default;
  py_ref build_environ(http1::exchange& ex, PyObject* input);
  bool add_header_fields(PyObject* environ, const http1::request& head);
  PyObject* header_key(std::string_view name);
  bool send_result(PyObject* result, wsgi_call& call);
  bool send_sequence(PyObject* result, wsgi_call& call);
  bool send_iterable(PyObject* result, wsgi_call& call);
  int try_send_file(PyObject* result, wsgi_call& call);
  void call_close(PyObject* result);

  py_ref app_;
  py_ref log_exception_;
  py_ref template_;
  std::string root_path_;
  py_ref cached_input_;
  py_ref cached_start_response_;
  py_ref close_name_;
  py_ref uncached_key_;

  struct transparent_hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Lower-case field name -> interned environ key; null means "drop it".
  std::unordered_map<std::string, py_ref, transparent_hash, std::equal_to<>> header_keys_;
  std::unordered_map<std::string, py_ref, transparent_hash, std::equal_to<>> methods_;
};

}  // namespace baton::bridge
