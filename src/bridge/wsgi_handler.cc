#include "bridge/wsgi_handler.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "core/util/log.h"

namespace baton::bridge {
namespace {

// RFC 9110 8.6: no Content-Length on 204, and on 304 only the 200's; a HEAD
// answer with an empty list says nothing about the GET body either.
bool may_add_length(const wsgi_call& call, uint64_t total) {
  int s = call.status_code;
  if (s == 204 || s == 304) return false;
  return !(call.ex->head().is_head && total == 0);
}

// Environ keys, interned once per process.
struct environ_keys {
  PyObject* request_method;
  PyObject* script_name;
  PyObject* path_info;
  PyObject* query_string;
  PyObject* raw_uri;
  PyObject* server_protocol;
  PyObject* remote_addr;
  PyObject* remote_port;
  PyObject* wsgi_input;
  PyObject* http_1_1;
  PyObject* http_1_0;
  PyObject* empty;
};
environ_keys keys;

bool intern_keys() {
  keys.request_method = PyUnicode_InternFromString("REQUEST_METHOD");
  keys.script_name = PyUnicode_InternFromString("SCRIPT_NAME");
  keys.path_info = PyUnicode_InternFromString("PATH_INFO");
  keys.query_string = PyUnicode_InternFromString("QUERY_STRING");
  keys.raw_uri = PyUnicode_InternFromString("RAW_URI");
  keys.server_protocol = PyUnicode_InternFromString("SERVER_PROTOCOL");
  keys.remote_addr = PyUnicode_InternFromString("REMOTE_ADDR");
  keys.remote_port = PyUnicode_InternFromString("REMOTE_PORT");
  keys.wsgi_input = PyUnicode_InternFromString("wsgi.input");
  keys.http_1_1 = PyUnicode_InternFromString("HTTP/1.1");
  keys.http_1_0 = PyUnicode_InternFromString("HTTP/1.0");
  keys.empty = PyUnicode_InternFromString("");
  return keys.empty != nullptr && !PyErr_Occurred();
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// PEP 3333 PATH_INFO: the percent-decoded path as a latin-1 str.
PyObject* decode_path(std::string_view path) {
  if (path.find('%') == std::string_view::npos) {
    return PyUnicode_DecodeLatin1(path.data(), static_cast<Py_ssize_t>(path.size()), nullptr);
  }
  std::string decoded;
  decoded.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size() + 0 && hex_digit(path[i + 1]) >= 0 && hex_digit(path[i + 2]) >= 0) {
      decoded.push_back(static_cast<char>(hex_digit(path[i + 1]) * 16 + hex_digit(path[i + 2])));
      i += 2;
    } else {
      decoded.push_back(path[i]);
    }
  }
  return PyUnicode_DecodeLatin1(decoded.data(), static_cast<Py_ssize_t>(decoded.size()), nullptr);
}

PyObject* latin1(std::string_view s) {
  return PyUnicode_DecodeLatin1(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
}

bool set_item(PyObject* dict, PyObject* key, PyObject* value_new_ref) {
  if (value_new_ref == nullptr) return false;
  int rc = PyDict_SetItem(dict, key, value_new_ref);
  Py_DECREF(value_new_ref);
  return rc == 0;
}

constexpr const char* common_fields[] = {
    "host", "user-agent", "accept", "accept-encoding", "accept-language", "connection", "cookie",
    "cache-control", "referer", "origin", "authorization", "if-none-match", "if-modified-since", "pragma",
    "upgrade-insecure-requests", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-real-ip",
    "x-requested-with", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user", "dnt", "te",
    "upgrade", "expect", "range", "if-range", "x-csrftoken", "content-encoding"};

constexpr size_t max_cached_header_keys = 512;

}  // namespace

std::unique_ptr<wsgi_handler> wsgi_handler::create(const wsgi_options& options) {
  if (keys.empty == nullptr && !intern_keys()) return nullptr;
  std::unique_ptr<wsgi_handler> h(new wsgi_handler());
  h->app_ = py_ref::borrow(options.app);
  h->log_exception_ = py_ref::borrow(options.log_exception);
  h->root_path_ = options.root_path;
  h->close_name_ = py_ref::steal(PyUnicode_InternFromString("close"));

  py_ref errors = py_ref::borrow(PySys_GetObject("stderr"));
  py_ref version = py_ref::steal(Py_BuildValue("(ii)", 1, 0));
  py_ref t = py_ref::steal(PyDict_New());
  if (!t || !version) return nullptr;
  auto put = [&](const char* key, PyObject* value_new_ref) {
    if (value_new_ref == nullptr) return false;
    int rc = PyDict_SetItemString(t.get(), key, value_new_ref);
    Py_DECREF(value_new_ref);
    return rc == 0;
  };
  Py_INCREF(version.get());
  Py_INCREF(Py_False);
  Py_INCREF(Py_True);
  Py_INCREF(reinterpret_cast<PyObject*>(&file_wrapper_type));
  PyObject* multiprocess = options.multiprocess ? Py_True : Py_False;
  Py_INCREF(multiprocess);
  PyObject* stderr_obj = errors ? errors.get() : Py_None;
  Py_INCREF(stderr_obj);
  bool ok = put("wsgi.version", version.get()) && put("wsgi.url_scheme", PyUnicode_FromString(options.url_scheme.c_str())) &&
            put("wsgi.errors", stderr_obj) && put("wsgi.multithread", Py_False) &&
            put("wsgi.multiprocess", multiprocess) && put("wsgi.run_once", PyBool_FromLong(0)) &&
            put("wsgi.input_terminated", Py_True) &&
            put("wsgi.file_wrapper", reinterpret_cast<PyObject*>(&file_wrapper_type)) &&
            put("SERVER_NAME", PyUnicode_FromString(options.server_name.c_str())) &&
            put("SERVER_PORT", PyUnicode_FromString(options.server_port.c_str())) &&
            put("SCRIPT_NAME", PyUnicode_FromString(options.root_path.c_str()));
  if (!ok) return nullptr;
  h->template_ = std::move(t);

  for (const char* name : common_fields) h->header_key(name);
  for (const char* m : {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"}) {
    h->methods_.emplace(m, py_ref::steal(PyUnicode_InternFromString(m)));
  }
  if (PyErr_Occurred()) return nullptr;
  return h;
}

// The environ key for a request field: HTTP_ plus the name upper-cased with
// '-' as '_', or CONTENT_TYPE / CONTENT_LENGTH. A name that already holds
// '_' is dropped (null): it would be indistinguishable from its '-' twin
// once mapped, which lets a client spoof a header a proxy set.
PyObject* wsgi_handler::header_key(std::string_view name) {
  // Names are short; a long one (the head limit allows it) goes to the heap.
  char stack_buffer[256];
  std::string heap_buffer;
  char* lower = stack_buffer;
  if (name.size() > sizeof stack_buffer) {
    heap_buffer.resize(name.size());
    lower = heap_buffer.data();
  }
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  std::string_view lower_name(lower, name.size());
  auto it = header_keys_.find(lower_name);
  if (it != header_keys_.end()) return it->second.get();
  py_ref key;
  if (lower_name.find('_') == std::string_view::npos) {
    std::string k;
    if (lower_name == "content-type") k = "CONTENT_TYPE";
    else if (lower_name == "content-length") k = "CONTENT_LENGTH";
    else {
      k.reserve(5 + name.size());
      k = "HTTP_";
      for (char c : lower_name) k.push_back(c == '-' ? '_' : (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c);
    }
    key = py_ref::steal(PyUnicode_FromStringAndSize(k.data(), static_cast<Py_ssize_t>(k.size())));
    if (!key) {
      PyErr_Clear();
      return nullptr;
    }
  }
  PyObject* result = key.get();
  if (header_keys_.size() < max_cached_header_keys) {
    header_keys_.emplace(std::string(lower_name), std::move(key));
    return result;
  }
  // Not cached: keep it alive until the next call replaces it.
  uncached_key_ = std::move(key);
  return result;
}

bool wsgi_handler::add_header_fields(PyObject* environ, const http1::request& head) {
  for (size_t i = 0; i < head.header_count; ++i) {
    const http1::header& h = head.headers[i];
    PyObject* key = header_key(h.name);
    if (key == nullptr) continue;
    py_ref value = py_ref::steal(latin1(h.value));
    if (!value) return false;
    PyObject* existing = PyDict_SetDefault(environ, key, value.get());
    if (existing == nullptr) return false;
    if (existing != value.get()) {
      // A repeated field: join as RFC 9110 section 5.3 allows (cookies with
      // "; ", the separator their own syntax uses).
      bool cookie = http1::equals_ignore_case(h.name, "cookie");
      py_ref joined = py_ref::steal(PyUnicode_FromFormat(cookie ? "%U; %U" : "%U, %U", existing, value.get()));
      if (!joined || PyDict_SetItem(environ, key, joined.get()) < 0) return false;
    }
  }
  return true;
}

py_ref wsgi_handler::build_environ(http1::exchange& ex, PyObject* input) {
  const http1::request& head = ex.head();
  py_ref environ = py_ref::steal(PyDict_Copy(template_.get()));
  if (!environ) return {};
  PyObject* env = environ.get();

  auto method = methods_.find(head.method);
  PyObject* method_obj = method != methods_.end() ? method->second.get() : nullptr;
  bool ok = method_obj != nullptr ? PyDict_SetItem(env, keys.request_method, method_obj) == 0
                                  : set_item(env, keys.request_method, latin1(head.method));
  std::string_view path = head.path;
  if (!root_path_.empty() && path.substr(0, root_path_.size()) == root_path_ &&
      (path.size() == root_path_.size() || path[root_path_.size()] == '/')) {
    path.remove_prefix(root_path_.size());
  }
  ok = ok && set_item(env, keys.path_info, decode_path(path));
  ok = ok && (head.query.empty() ? PyDict_SetItem(env, keys.query_string, keys.empty) == 0
                                 : set_item(env, keys.query_string, latin1(head.query)));
  ok = ok && set_item(env, keys.raw_uri, latin1(head.target));
  ok = ok && PyDict_SetItem(env, keys.server_protocol, head.version_minor == 1 ? keys.http_1_1 : keys.http_1_0) == 0;
  http1::peer_info peer = ex.peer();
  ok = ok && set_item(env, keys.remote_addr, latin1(peer.address));
  ok = ok && set_item(env, keys.remote_port, PyUnicode_FromFormat("%d", static_cast<int>(peer.port)));
  ok = ok && PyDict_SetItem(env, keys.wsgi_input, input) == 0;
  ok = ok && add_header_fields(env, head);
  if (!ok) return {};
  return environ;
}

void wsgi_handler::log_current_exception(const char* message) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (value != nullptr && traceback != nullptr) PyException_SetTraceback(value, traceback);
  py_ref t = py_ref::steal(type), v = py_ref::steal(value), tb = py_ref::steal(traceback);
  py_ref msg = py_ref::steal(PyUnicode_FromString(message));
  if (log_exception_ && msg) {
    py_ref r = py_ref::steal(PyObject_CallFunctionObjArgs(log_exception_.get(), msg.get(),
                                                          v ? v.get() : Py_None, nullptr));
    if (r) return;
  }
  PyErr_Clear();
  log::write(log::level::error, "%s (and the error could not be logged)", message);
}

void wsgi_handler::call_close(PyObject* result) {
  py_ref close = py_ref::steal(PyObject_GetAttr(result, close_name_.get()));
  if (!close) {
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
    else log_current_exception("looking up close() on the response iterable failed");
    return;
  }
  py_ref r = py_ref::steal(PyObject_CallNoArgs(close.get()));
  if (!r) log_current_exception("the response iterable's close() raised");
}

// 1: sent with sendfile. 0: not a plain file, iterate instead. -1: error set.
int wsgi_handler::try_send_file(PyObject* result, wsgi_call& call) {
  auto* wrapper = reinterpret_cast<file_wrapper_object*>(result);
  if (wrapper->filelike == nullptr) return 0;
  py_ref fileno = py_ref::steal(PyObject_CallMethod(wrapper->filelike, "fileno", nullptr));
  if (!fileno) {
    PyErr_Clear();
    return 0;
  }
  long fileno_value = PyLong_AsLong(fileno.get());
  if (fileno_value < 0 || fileno_value > INT32_MAX) {
    PyErr_Clear();
    return 0;
  }
  int fd = static_cast<int>(fileno_value);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  // Python's buffered file may have read ahead; tell() is the logical position.
  py_ref position = py_ref::steal(PyObject_CallMethod(wrapper->filelike, "tell", nullptr));
  off_t offset = 0;
  if (position) offset = static_cast<off_t>(PyLong_AsLongLong(position.get()));
  if (!position || offset < 0) {
    PyErr_Clear();
    offset = lseek(fd, 0, SEEK_CUR);
    if (offset < 0) return 0;
  }
  uint64_t length = st.st_size > offset ? static_cast<uint64_t>(st.st_size - offset) : 0;
  if (!wsgi_prepare_head(call)) return -1;
  if (!call.ex->has_content_length() && may_add_length(call, length)) {
    char text[24];
    int n = std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(length));
    call.ex->add_header("content-length", std::string_view(text, static_cast<size_t>(n)));
  }
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    PyErr_SetFromErrno(PyExc_OSError);
    return -1;
  }
  call.ex->send_file(copy, offset, length);
  return 1;
}

bool wsgi_handler::send_sequence(PyObject* result, wsgi_call& call) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(result);
  PyObject** items = PySequence_Fast_ITEMS(result);
  uint64_t total = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyBytes_Check(items[i])) {
      PyErr_Format(PyExc_TypeError, "the application returned a %.100s in its body, not bytes",
                   Py_TYPE(items[i])->tp_name);
      return false;
    }
    total += static_cast<uint64_t>(PyBytes_GET_SIZE(items[i]));
  }
  if (!wsgi_prepare_head(call)) return false;
  // The whole body is known: give it a length rather than chunking it.
  if (!call.ex->has_content_length() && may_add_length(call, total)) {
    char text[24];
    int len = std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(total));
    call.ex->add_header("content-length", std::string_view(text, static_cast<size_t>(len)));
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t size = PyBytes_GET_SIZE(items[i]);
    if (size == 0) continue;
    if (!call.ex->write_body(PyBytes_AS_STRING(items[i]), static_cast<size_t>(size))) return true;
  }
  call.ex->finish();
  return true;
}

bool wsgi_handler::send_iterable(PyObject* result, wsgi_call& call) {
  py_ref iterator = py_ref::steal(PyObject_GetIter(result));
  if (!iterator) return false;
  while (true) {
    py_ref item = py_ref::steal(PyIter_Next(iterator.get()));
    if (!item) {
      if (PyErr_Occurred()) return false;
      break;
    }
    if (!PyBytes_Check(item.get())) {
      PyErr_Format(PyExc_TypeError, "the application yielded a %.100s, not bytes", Py_TYPE(item.get())->tp_name);
      return false;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(item.get());
    if (size == 0) continue;  // PEP 3333: empty items do not send the head
    if (!wsgi_prepare_head(call)) return false;
    bool ok = call.ex->write_body(PyBytes_AS_STRING(item.get()), static_cast<size_t>(size));
    if (ok) {
      Py_BEGIN_ALLOW_THREADS
      ok = call.ex->flush();
      Py_END_ALLOW_THREADS
    }
    if (!ok) return true;  // the client left; close() is still called
  }
  if (!wsgi_prepare_head(call)) return false;
  call.ex->finish();
  return true;
}

bool wsgi_handler::send_result(PyObject* result, wsgi_call& call) {
  if (Py_TYPE(result) == &file_wrapper_type) {
    int sent = try_send_file(result, call);
    if (sent < 0) return false;
    if (sent > 0) {
      call.ex->finish();
      return true;
    }
  }
  if (PyList_CheckExact(result) || PyTuple_CheckExact(result)) return send_sequence(result, call);
  return send_iterable(result, call);
}

void wsgi_handler::handle(http1::exchange& ex) {
  wsgi_call call;
  call.ex = &ex;
  // Reuse last request's input and start_response objects when the app
  // kept no reference to them; otherwise make fresh ones.
  if (!cached_input_ || Py_REFCNT(cached_input_.get()) != 1) {
    cached_input_ = py_ref::steal(wsgi_input_new(&call));
  } else {
    wsgi_input_rearm(cached_input_.get(), &call);
  }
  if (!cached_start_response_ || !start_response_reusable(cached_start_response_.get())) {
    cached_start_response_ = py_ref::steal(start_response_new(&call));
  } else {
    start_response_rearm(cached_start_response_.get(), &call);
  }
  {
    py_ref environ;
    if (cached_input_ && cached_start_response_) {
      environ = build_environ(ex, cached_input_.get());
    }
    if (environ) {
      PyObject* args[2] = {environ.get(), cached_start_response_.get()};
      py_ref result = py_ref::steal(PyObject_Vectorcall(app_.get(), args, 2, nullptr));
      if (result) {
        if (!send_result(result.get(), call)) {
          log_current_exception("error while sending the application's response");
          ex.fail(ex.body_error_status() != 0 && !ex.response_committed() ? ex.body_error_status() : 500);
        }
        call_close(result.get());
      } else {
        log_current_exception("the application raised");
        int status = ex.body_error_status();
        ex.fail(status == 400 || status == 408 || status == 413 ? status : 500);
      }
    } else {
      log_current_exception("could not build the WSGI environ");
      ex.fail(500);
    }
  }
  if (cached_input_) wsgi_input_disarm(cached_input_.get());
  if (cached_start_response_) start_response_disarm(cached_start_response_.get());
}

}  // namespace baton::bridge
