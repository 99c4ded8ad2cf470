#include "bridge/wsgi/handler.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "bridge/app_error_log.h"
#include "bridge/names.h"
#include "bridge/py_compat.h"
#include "bridge/wsgi/call_slot.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::bridge {
namespace {

// RFC 9110 8.6: no Content-Length on 204, and on 304 only the 200's; a HEAD
// answer with an empty list says nothing about the GET body either.
bool may_add_length(const wsgi_call& call, uint64_t total) {
  int s = call.status_code;
  if (s == 204 || s == 304) return false;
  return !(call.s->head().is_head && total == 0);
}

// PEP 3333 PATH_INFO: the percent-decoded path as a latin-1 str.
PyObject* decode_path(std::string_view path) {
  if (path.find('%') == std::string_view::npos) {
    return PyUnicode_DecodeLatin1(path.data(), static_cast<Py_ssize_t>(path.size()), nullptr);
  }
  std::string decoded = util::percent_decoded(path);
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

// Request fields most clients send, lower case. Their environ keys are made
// once; a request's field name is matched against this list by its length
// and a case-insensitive compare, with no lower-casing copy and no hash.
constexpr std::string_view common_fields[] = {
    "host", "user-agent", "accept", "accept-encoding", "accept-language", "connection", "cookie",
    "cache-control", "referer", "origin", "authorization", "if-none-match", "if-modified-since", "pragma",
    "upgrade-insecure-requests", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-real-ip",
    "x-requested-with", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user", "dnt", "te",
    "upgrade", "expect", "range", "if-range", "x-csrftoken", "content-encoding", "content-type", "content-length",
    "forwarded", "x-forwarded-port", "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform", "priority"};
constexpr size_t common_count = sizeof common_fields / sizeof common_fields[0];

int common_field_index(std::string_view name) {
  for (size_t i = 0; i < common_count; ++i) {
    if (common_fields[i].size() == name.size() && util::equals_ignore_case(common_fields[i], name)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// The environ key for a lower-case field name: HTTP_ plus the name
// upper-cased with '-' as '_', or CONTENT_TYPE / CONTENT_LENGTH. A name that
// already holds '_' gets null: it would be indistinguishable from its '-'
// twin once mapped, which lets a client spoof a header a proxy set.
py_ref environ_key_for(std::string_view lower_name) {
  if (lower_name.find('_') != std::string_view::npos) return {};
  std::string k;
  if (lower_name == "content-type") {
    k = "CONTENT_TYPE";
  } else if (lower_name == "content-length") {
    k = "CONTENT_LENGTH";
  } else {
    k.reserve(5 + lower_name.size());
    k = "HTTP_";
    for (char c : lower_name) k.push_back(c == '-' ? '_' : (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c);
  }
#ifdef Py_GIL_DISABLED
  // Not interned: the loops of --threads make their keys at the same time,
  // and CPython 3.13t's interning of one string by two threads at once is a
  // race of its own (ThreadSanitizer shows it). A lookup then compares text.
  PyObject* key = PyUnicode_FromString(k.c_str());
#else
  PyObject* key = PyUnicode_InternFromString(k.c_str());
#endif
  if (key == nullptr) PyErr_Clear();
  return py_ref::steal(key);
}

constexpr size_t max_cached_header_keys = 512;

// The keys an environ table holds before it grows: the template's 21 and
// as many request fields.
constexpr Py_ssize_t environ_room = 42;

// Body items at least this large are sent from the app's own bytes object
// rather than copied (the 1 MiB echo: one memcpy of the body fewer).
constexpr size_t zero_copy_threshold = size_t{256} * 1024;

thread_local wsgi_thread_state* current_thread_state = nullptr;

// A body iterable that has no close(): skipping the lookup for the types
// apps return most saves raising and clearing an AttributeError per request.
bool has_no_close(PyObject* result) {
  return PyList_CheckExact(result) || PyTuple_CheckExact(result) || PyBytes_CheckExact(result);
}

}  // namespace

void wsgi_handler::set_thread_state(wsgi_thread_state* state) { current_thread_state = state; }

std::unique_ptr<wsgi_handler> wsgi_handler::create(const wsgi_options& options) {
  std::unique_ptr<wsgi_handler> h(new wsgi_handler());
  h->app_ = py_ref::borrow(options.app);
  h->log_exception_ = py_ref::borrow(options.log_exception);
  h->root_path_ = options.root_path;

  // SERVER_NAME and SERVER_PORT of every listener.
  std::vector<std::pair<py_ref, py_ref>> listener_names;
  for (const listener_address& a : options.listeners) {
    std::string port = a.port != 0 ? std::to_string(a.port) : options.url_scheme == "https" ? "443" : "80";
    listener_names.emplace_back(py_ref::steal(PyUnicode_FromString(a.name.empty() ? "localhost" : a.name.c_str())),
                       py_ref::steal(PyUnicode_FromString(port.c_str())));
    if (!listener_names.back().first || !listener_names.back().second) return nullptr;
  }
  if (listener_names.empty()) {
    PyErr_SetString(PyExc_ValueError, "no listeners");
    return nullptr;
  }
  py_ref errors = py_ref::steal(sys_attribute("stderr"));
  py_ref version = py_ref::steal(Py_BuildValue("(ii)", 1, 0));
  py_ref t = py_ref::steal(PyDict_New());
  if (!t || !version) return nullptr;
  // The keys are the names interned at the module's import: interning a
  // string here, where the loops of --threads make their handlers at the
  // same time, is a race of CPython 3.13t's own (as for environ_key_for).
  auto put = [&](PyObject* key, PyObject* value_new_ref) {
    if (value_new_ref == nullptr) return false;
    int rc = PyDict_SetItem(t.get(), key, value_new_ref);
    Py_DECREF(value_new_ref);
    return rc == 0;
  };
  auto put_key = [&](PyObject* key) { return PyDict_SetItem(t.get(), key, names.empty) == 0; };
  auto owned = [](PyObject* o) {
    Py_INCREF(o);
    return o;
  };
  PyObject* stderr_obj = errors ? errors.get() : Py_None;
  // Every key each request sets is in the template already (with a
  // placeholder), so the per-request copy is sized for them and setting
  // them replaces rather than grows.
  bool ok = put(names.wsgi_version, owned(version.get())) &&
            put(names.wsgi_url_scheme, PyUnicode_FromString(options.url_scheme.c_str())) &&
            put(names.wsgi_errors, owned(stderr_obj)) &&
            put(names.wsgi_multithread, owned(options.multithread ? Py_True : Py_False)) &&
            put(names.wsgi_multiprocess, owned(options.multiprocess ? Py_True : Py_False)) &&
            put(names.wsgi_run_once, owned(Py_False)) && put(names.wsgi_input_terminated, owned(Py_True)) &&
            put(names.wsgi_file_wrapper, owned(reinterpret_cast<PyObject*>(types.file_wrapper))) &&
            put(names.SERVER_NAME, owned(listener_names.front().first.get())) &&
            put(names.SERVER_PORT, owned(listener_names.front().second.get())) &&
            put(names.SCRIPT_NAME, PyUnicode_FromString(options.root_path.c_str())) &&
            put(names.SERVER_SOFTWARE, PyUnicode_FromString(options.server_software.c_str())) &&
            put_key(names.REQUEST_METHOD) &&
            put_key(names.PATH_INFO) && put_key(names.QUERY_STRING) && put_key(names.RAW_URI) &&
            put_key(names.SERVER_PROTOCOL) && put_key(names.REMOTE_ADDR) && put_key(names.REMOTE_PORT) &&
            put_key(names.wsgi_input) && put_key(names.wsgi_early_hints);
  if (!ok) return nullptr;
  // Room for a request's fields beside the template's own keys: each
  // request's copy then takes them without growing its table (a copy of
  // a full table grows, all of it, for every request).
  h->template_ = py_ref::steal(dict_with_room(t.get(), environ_room));
  if (!h->template_) return nullptr;
  listener_names.erase(listener_names.begin());
  h->listener_names_ = std::move(listener_names);
  h->https_ = py_ref::borrow(names.https);
  h->default_https_ = options.url_scheme == "https";

  h->common_keys_.reserve(common_count);
  for (std::string_view name : common_fields) h->common_keys_.push_back(environ_key_for(name));
  if (PyErr_Occurred()) return nullptr;
  return h;
}

// The environ key for a field name outside the common list, through a map
// from the lower-cased name (bounded: a client sending random names cannot
// grow it without limit). Returns a new reference, or null to drop the field.
PyObject* wsgi_handler::cached_header_key(wsgi_thread_state& state, std::string_view name) {
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
  auto it = state.header_keys.find(lower_name);
  if (it != state.header_keys.end()) {
    Py_XINCREF(it->second.get());
    return it->second.get();
  }
  py_ref key = environ_key_for(lower_name);
  PyObject* result = key.get();
  Py_XINCREF(result);
  if (state.header_keys.size() < max_cached_header_keys) {
    state.header_keys.emplace(std::string(lower_name), std::move(key));
  }
  return result;
}

bool wsgi_handler::add_header_fields(wsgi_thread_state& state, PyObject* environ,
                                     const exchange::request_head& head) {
  for (size_t i = 0; i < head.field_count; ++i) {
    const exchange::field& h = head.fields[i];
    int common = common_field_index(h.name);
    py_ref key = common >= 0 ? py_ref::borrow(common_keys_[static_cast<size_t>(common)].get())
                             : py_ref::steal(cached_header_key(state, h.name));
    if (!key) continue;
    py_ref value = py_ref::steal(latin1(h.value));
    if (!value) return false;
    PyObject* existing_ref = nullptr;
    int present = dict_set_default_ref(environ, key.get(), value.get(), &existing_ref);
    py_ref existing = py_ref::steal(existing_ref);
    if (present < 0) return false;
    if (present == 1) {
      // A repeated field: join as RFC 9110 section 5.3 allows (cookies with
      // "; ", the separator their own syntax uses).
      bool cookie = util::equals_ignore_case(h.name, "cookie");
      py_ref joined =
          py_ref::steal(PyUnicode_FromFormat(cookie ? "%U; %U" : "%U, %U", existing.get(), value.get()));
      if (!joined || PyDict_SetItem(environ, key.get(), joined.get()) < 0) return false;
    }
  }
  return true;
}

PyObject* wsgi_handler::remote_port(wsgi_thread_state& state, uint16_t port) {
  size_t slot = port & 255u;
  if (state.port_cache[slot] && state.port_cache_key[slot] == port) {
    Py_INCREF(state.port_cache[slot].get());
    return state.port_cache[slot].get();
  }
  char text[8];
  int n = std::snprintf(text, sizeof text, "%u", static_cast<unsigned>(port));
  PyObject* s = PyUnicode_FromStringAndSize(text, n);
  if (s == nullptr) return nullptr;
  state.port_cache[slot] = py_ref::borrow(s);
  state.port_cache_key[slot] = port;
  return s;
}

PyObject* wsgi_handler::remote_addr(wsgi_thread_state& state, std::string_view address) {
  if (!state.last_address || address != state.last_address_text) {
    PyObject* s = latin1(address);
    if (s == nullptr) return nullptr;
    state.last_address = py_ref::steal(s);
    state.last_address_text.assign(address);
  }
  Py_INCREF(state.last_address.get());
  return state.last_address.get();
}

py_ref wsgi_handler::build_environ(wsgi_thread_state& state, exchange::exchange& s) {
  const exchange::request_head& head = s.head();
  environ_template& t = state.environ;
  exchange::peer_info peer = s.peer();
  // Set in the thread's template, where a value the last request had too
  // is found there already (environ_template.h).
  PyObject* protocol = head.version_major == 1   ? (head.version_minor == 1 ? names.HTTP_1_1 : names.HTTP_1_0)
                       : head.version_major == 2 ? names.HTTP_2_0
                                                 : names.HTTP_3_0;
  bool ok = t.keep(environ_template::request_method, names.REQUEST_METHOD, method_text(head.method)) &&
            t.keep(environ_template::server_protocol, names.SERVER_PROTOCOL, Py_NewRef(protocol)) &&
            t.keep(environ_template::remote_addr, names.REMOTE_ADDR, remote_addr(state, peer.address)) &&
            t.keep(environ_template::remote_port, names.REMOTE_PORT, remote_port(state, peer.port));
  if (!ok) return {};
  py_ref environ = t.copy();
  if (!environ) return {};
  PyObject* env = environ.get();

  std::string_view path = head.path;
  if (!root_path_.empty() && path.substr(0, root_path_.size()) == root_path_ &&
      (path.size() == root_path_.size() || path[root_path_.size()] == '/')) {
    path.remove_prefix(root_path_.size());
  }
  ok = set_item(env, names.PATH_INFO, decode_path(path));
  // The template's QUERY_STRING is the empty string.
  if (ok && !head.query.empty()) ok = set_item(env, names.QUERY_STRING, latin1(head.query));
  ok = ok && set_item(env, names.RAW_URI, latin1(head.target));
  // What a trusted proxy said: the scheme and the port the client used.
  if (ok && !default_https_ && s.scheme() == "https") ok = PyDict_SetItem(env, names.wsgi_url_scheme, https_.get()) == 0;
  if (ok && peer.listener != 0 && peer.listener <= listener_names_.size()) {
    const auto& [name, port] = listener_names_[peer.listener - 1];
    ok = PyDict_SetItem(env, names.SERVER_NAME, name.get()) == 0 && PyDict_SetItem(env, names.SERVER_PORT, port.get()) == 0;
  }
  // A PROXY header named the address the client connected to.
  if (ok && !peer.server_address.empty()) {
    ok = set_item(env, names.SERVER_NAME, latin1(peer.server_address)) &&
         set_item(env, names.SERVER_PORT, PyUnicode_FromFormat("%u", static_cast<unsigned>(peer.server_port)));
  }
  if (ok && !s.forwarded_port().empty()) ok = set_item(env, names.SERVER_PORT, latin1(s.forwarded_port()));
  ok = ok && add_header_fields(state, env, head);
  if (!ok) return {};
  return environ;
}

void wsgi_handler::log_current_exception(const char* message, const exchange::exchange* s) {
  log_app_exception(log_exception_.get(), message, s);
}

// PEP 3333: close() is called whatever happened, if the iterable has one.
void wsgi_handler::call_close(PyObject* result, const exchange::exchange& s) {
  if (has_no_close(result)) return;
  PyObject* close = nullptr;
  if (get_optional_attr(result, names.close, &close) < 0) {
    log_current_exception("looking up close() on the response iterable failed", &s);
    return;
  }
  if (close == nullptr) return;
  py_ref method = py_ref::steal(close);
  py_ref r = py_ref::steal(PyObject_CallNoArgs(method.get()));
  if (!r) log_current_exception("the response iterable's close() raised", &s);
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
  if (!call.s->has_content_length() && may_add_length(call, length)) {
    char text[24];
    int n = std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(length));
    call.s->add_header("content-length", std::string_view(text, static_cast<size_t>(n)));
  }
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    PyErr_SetFromErrno(PyExc_OSError);
    return -1;
  }
  call.s->send_file(copy, offset, length);
  return 1;
}

namespace {

// The items of the list or tuple an app returned, as strong references
// taken at once, under the list's own lock on a free-threaded build: the
// sends that follow may wait for the client (the lock is let go then), and
// a thread of the app could change the list meanwhile.
class body_items {
 public:
  explicit body_items(PyObject* sequence) {
    Py_BEGIN_CRITICAL_SECTION(sequence);
    size_ = static_cast<size_t>(PySequence_Fast_GET_SIZE(sequence));
    PyObject** items = PySequence_Fast_ITEMS(sequence);
    if (size_ > inline_count) more_.resize(size_);
    PyObject** into = data();
    for (size_t i = 0; i < size_; ++i) into[i] = Py_NewRef(items[i]);
    Py_END_CRITICAL_SECTION();
  }
  ~body_items() {
    PyObject** items = data();
    for (size_t i = 0; i < size_; ++i) Py_DECREF(items[i]);
  }
  body_items(const body_items&) = delete;
  body_items& operator=(const body_items&) = delete;
  Py_ssize_t size() const { return static_cast<Py_ssize_t>(size_); }
  PyObject** data() { return size_ > inline_count ? more_.data() : inline_; }

 private:
  static constexpr size_t inline_count = 8;  // most bodies are one item
  size_t size_ = 0;
  PyObject* inline_[inline_count];
  std::vector<PyObject*> more_;
};

}  // namespace

bool wsgi_handler::send_sequence(PyObject* result, wsgi_call& call) {
  body_items held(result);
  Py_ssize_t n = held.size();
  PyObject** items = held.data();
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
  if (!call.s->has_content_length() && may_add_length(call, total)) {
    char text[24];
    int len = std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(total));
    call.s->add_header("content-length", std::string_view(text, static_cast<size_t>(len)));
  }
  bool external = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_ssize_t size = PyBytes_GET_SIZE(items[i]);
    if (size == 0) continue;
    // `held` holds the item while the send may wait with the GIL released.
    // A large item is not copied: the loop writes it from the bytes object
    // itself, and the call waits below until it has (`held` keeps it alive
    // until then).
    bool large = static_cast<size_t>(size) >= zero_copy_threshold;
    if (!wsgi_send(call, PyBytes_AS_STRING(items[i]), static_cast<size_t>(size), large)) break;
    external |= large;
  }
  call.s->finish();
  if (external) wsgi_wait_sent(call);
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
    // Each piece goes out as it is produced, not when the response ends.
    bool ok = wsgi_send(call, PyBytes_AS_STRING(item.get()), static_cast<size_t>(size)) && wsgi_flush(call);
    if (!ok) return true;  // the client left; close() is still called
  }
  if (!wsgi_prepare_head(call)) return false;
  call.s->finish();
  return true;
}

bool wsgi_handler::send_result(PyObject* result, wsgi_call& call) {
  if (Py_TYPE(result) == types.file_wrapper) {
    int sent = try_send_file(result, call);
    if (sent < 0) return false;
    if (sent > 0) {
      call.s->finish();
      return true;
    }
  }
  if (PyList_CheckExact(result) || PyTuple_CheckExact(result)) return send_sequence(result, call);
  return send_iterable(result, call);
}

// Arms the thread's wsgi.input, wsgi.early_hints and start_response for
// `call`: last request's objects when the app kept no reference to them,
// new ones otherwise. False with a Python error set.
bool wsgi_handler::arm_objects(wsgi_thread_state& state, wsgi_call& call) {
  environ_template& t = state.environ;
  if (!t.ready(template_.get())) return false;
  if (t.unshared(environ_template::input)) {
    wsgi_input_slot(t.kept(environ_template::input)).arm(&call);
  } else if (!t.keep(environ_template::input, names.wsgi_input, wsgi_input_new(&call))) {
    return false;
  }
  if (t.unshared(environ_template::early_hints)) {
    early_hints_slot(t.kept(environ_template::early_hints)).arm(&call);
  } else if (!t.keep(environ_template::early_hints, names.wsgi_early_hints, early_hints_new(&call))) {
    return false;
  }
  if (!state.start_response || !start_response_reusable(state.start_response.get())) {
    state.start_response = py_ref::steal(start_response_new(&call));
    return static_cast<bool>(state.start_response);
  }
  start_response_slot(state.start_response.get()).arm(&call);
  return true;
}

// The slots of the objects this thread's requests are given (call_slot.h).
template <typename Visit>
void wsgi_handler::for_each_slot(wsgi_thread_state& state, Visit&& visit) {
  if (PyObject* input = state.environ.kept(environ_template::input)) visit(wsgi_input_slot(input));
  if (PyObject* hints = state.environ.kept(environ_template::early_hints)) visit(early_hints_slot(hints));
  if (state.start_response) visit(start_response_slot(state.start_response.get()));
}

// The app has returned (or raised): from now on its other threads keep off
// the request, and one still inside a callable is waited for before its
// result is sent (call_slot.h).
void wsgi_handler::keep_other_threads_off(wsgi_thread_state& state, wsgi_call& call) {
  std::atomic_ref<bool>(call.app_returned).store(true, std::memory_order_seq_cst);
  bool waited = false;
  for_each_slot(state, [&](call_slot& slot) { waited |= slot.settle(); });
  if (waited) {
    // Logged with any error the app raised kept for its own line.
    py_ref pending = py_ref::steal(take_raised_exception());
    log_current_exception("the application returned while a thread of its own was still inside the request's "
                          "write(), wsgi.input, start_response or wsgi.early_hints; its result was sent once "
                          "that call was done",
                          call.s);
    if (pending) raise_exception(pending.get());
  }
}

void wsgi_handler::handle(exchange::exchange& s) {
  wsgi_thread_state& state = current_thread_state != nullptr ? *current_thread_state : loop_thread_;
  wsgi_call call;
  call.s = &s;
  call.waiter = state.waiter;
  call.runner = PyThreadState_Get();
  state.memo.claim();
  call.memo = &state.memo;
  {
    py_ref environ;
    if (arm_objects(state, call)) environ = build_environ(state, s);
    if (environ) {
      PyObject* args[2] = {environ.get(), state.start_response.get()};
      py_ref result = py_ref::steal(PyObject_Vectorcall(app_.get(), args, 2, nullptr));
      keep_other_threads_off(state, call);
      if (result) {
        if (!send_result(result.get(), call)) {
          log_current_exception("error while sending the application's response", &s);
          int status = s.body_error_status();
          s.fail(status != 0 && !s.response_committed() ? status : 500);
        }
        call_close(result.get(), s);
      } else {
        log_current_exception("the application raised", &s);
        int status = s.body_error_status();
        s.fail(status == 400 || status == 408 || status == 413 ? status : 500);
      }
    } else {
      log_current_exception("could not build the WSGI environ", &s);
      s.fail(500);
    }
  }
  for_each_slot(state, [](call_slot& slot) { slot.disarm(); });
}

}  // namespace baton::bridge
