#include "bridge/asgi/runner.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "bridge/app_error_log.h"
#include "bridge/asgi/awaitables.h"
#include "bridge/asgi/coroutine.h"
#include "bridge/names.h"
#include "core/util/log.h"

namespace baton::bridge {
namespace {

// New exchanges waiting for the asyncio side, at most (pump): past it the
// server keeps them in its own queue.
constexpr size_t new_exchange_ring = 4096;

}  // namespace

// --- the runner -----------------------------------------------------------------

void asgi_request::wake() { runner.post_news(this); }

std::unique_ptr<asgi_runner> asgi_runner::create(const asgi_options& options) {
  std::unique_ptr<asgi_runner> r(new asgi_runner());
  r->owner_ = options.owner;
  r->app_ = py_ref::borrow(options.app);
  r->loop_ = py_ref::borrow(options.loop);
  r->log_exception_ = py_ref::borrow(options.log_exception);
  r->state_ = py_ref::borrow(options.state != Py_None ? options.state : nullptr);
  r->root_path_ = options.root_path;
  r->pump_ = options.pump;
  r->create_task_ = py_ref::steal(PyObject_GetAttr(options.loop, names.create_task));
  r->create_future_ = py_ref::steal(PyObject_GetAttr(options.loop, names.create_future));
  if (!r->create_task_ || !r->create_future_) return nullptr;
  r->get_task_factory_ = py_ref::steal(PyObject_GetAttrString(options.loop, "get_task_factory"));
  py_ref asyncio = py_ref::steal(PyImport_ImportModule("asyncio"));
  if (!r->get_task_factory_ || !asyncio) return nullptr;
  r->task_type_ = py_ref::steal(PyObject_GetAttrString(asyncio.get(), "Task"));
  // From 3.12 a task can take its first step inside its constructor
  // (eager_start, what asyncio.eager_task_factory does): a request whose app
  // never suspends is then answered without a trip through the loop, and
  // the step still runs as the current task (anyio's cancel scopes need it).
  r->eager_ = options.eager_tasks && PY_VERSION_HEX >= 0x030C0000;
  r->task_kwnames_ = py_ref::steal(r->eager_ ? Py_BuildValue("(sss)", "loop", "name", "eager_start")
                                            : Py_BuildValue("(ss)", "loop", "name"));
  r->task_name_ = py_ref::borrow(names.task_name);
  if (!r->task_type_ || !r->task_kwnames_ || !r->task_name_) return nullptr;
  if (!r->make_listener_addresses(options) || !r->make_templates(options)) return nullptr;
  if (r->pump_) {
    r->new_streams_ = std::make_unique<handoff::spsc_ring<exchange::exchange>>(new_exchange_ring);
    r->wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (r->wake_fd_ < 0) {
      PyErr_SetFromErrno(PyExc_OSError);
      return nullptr;
    }
  }
  return r;
}

// Per listener: the scope's "server" and its host.
bool asgi_runner::make_listener_addresses(const asgi_options& options) {
  for (const listener_address& a : options.listeners) {
    if (a.name.empty()) {
      server_hosts_.emplace_back();
      servers_.push_back(py_ref::borrow(Py_None));
      continue;
    }
    server_hosts_.push_back(py_ref::steal(PyUnicode_FromString(a.name.c_str())));
    if (!server_hosts_.back()) return false;
    servers_.push_back(
        py_ref::steal(PyTuple_Pack(2, server_hosts_.back().get(), py_ref::steal(PyLong_FromLong(a.port)).get())));
    if (!servers_.back()) return false;
  }
  if (servers_.empty()) {
    PyErr_SetString(PyExc_ValueError, "no listeners");
    return false;
  }
  server_cert_ = options.server_cert.empty()
                     ? py_ref::borrow(Py_None)
                     : py_ref::steal(PyUnicode_DecodeASCII(options.server_cert.data(),
                                                           static_cast<Py_ssize_t>(options.server_cert.size()),
                                                           "replace"));
  return static_cast<bool>(server_cert_);
}

// Every key a scope gets is in its template, in the order the scope has
// them, so that a request's copy is the right size from the start and each
// key set later replaces a value instead of growing the dict. The keys are
// the interned names the sets use: a lookup then matches on identity,
// without comparing the text.
bool asgi_runner::make_templates(const asgi_options& options) {
  disconnect_ = py_ref::steal(Py_BuildValue("{O:O}", names.type, names.http_disconnect));
  websocket_connect_ = py_ref::steal(Py_BuildValue("{O:O}", names.type, names.ws_connect));
  py_ref http = py_ref::borrow(names.http);
  py_ref websocket = py_ref::borrow(names.websocket);
  py_ref ws = py_ref::borrow(names.ws);
  py_ref root_path = py_ref::steal(PyUnicode_FromString(options.root_path.c_str()));
  py_ref version = py_ref::borrow(names.version);
  py_ref spec_version = py_ref::borrow(names.spec_version);
  if (!disconnect_ || !websocket_connect_ || !http || !websocket || !ws || !root_path || !version || !spec_version) {
    return false;
  }
  PyObject* server = servers_.front().get();
  auto build = [&](scope_templates& t, bool is_websocket) {
    PyObject* type = is_websocket ? websocket.get() : http.get();
    std::pair<PyObject*, PyObject*> items[] = {
        {names.type, type},           {names.asgi, Py_None},         {names.http_version, Py_None},
        {names.server, server},       {names.client, Py_None},       {names.scheme, is_websocket ? ws.get() : http.get()},
        {names.method, Py_None},      {names.root_path, root_path.get()}, {names.path, Py_None},
        {names.raw_path, Py_None},    {names.query_string, Py_None}, {names.headers, Py_None},
        {names.subprotocols, Py_None}, {names.extensions, Py_None},  {names.state, Py_None}};
    t.scope = py_ref::steal(PyDict_New());
    if (!t.scope) return false;
    for (const auto& [key, value] : items) {
      if ((key == names.state && !state_) || (key == names.method && is_websocket) ||
          (key == names.subprotocols && !is_websocket)) {
        continue;
      }
      if (PyDict_SetItem(t.scope.get(), key, value) < 0) return false;
    }
    // WebSocket spec 2.5: websocket.disconnect carries a reason.
    t.asgi = py_ref::steal(Py_BuildValue("{O:s,O:s}", version.get(), "3.0", spec_version.get(),
                                         is_websocket ? "2.5" : "2.4"));
    t.extensions = py_ref::steal(is_websocket ? Py_BuildValue("{s:{}}", "websocket.http.response")
                                              : Py_BuildValue("{s:{},s:{},s:{}}", "http.response.pathsend",
                                                              "http.response.trailers", "http.response.early_hint"));
    return t.asgi && t.extensions;
  };
  return build(http_templates_, false) && build(websocket_templates_, true) && !PyErr_Occurred();
}

asgi_runner::~asgi_runner() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void asgi_runner::clear_wake_fd() {
  uint64_t count;
  ssize_t ignored = ::read(wake_fd_, &count, sizeof count);
  (void)ignored;
}

void asgi_runner::wake_after_stop() {
  if (wake_fd_ < 0) return;
  uint64_t one = 1;
  ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
  (void)ignored;
}

bool asgi_runner::try_start(exchange::exchange* s) {
  if (!pump_) {
    inverted_new_.push_back(s);
    return true;
  }
  if (!new_streams_->try_push(s)) return false;
  // The push is a release store, and a later load may pass one (x86 lets
  // it too): without the fence, wake_asyncio() could read parked_ before
  // the drain's last look at the ring sees the push, and neither side would
  // act. (A notice's push is a seq_cst compare-and-swap and needs none.)
  std::atomic_thread_fence(std::memory_order_seq_cst);
  wake_asyncio();
  return true;
}

// The Dekker pair with drain(): it marks itself parked, then looks at the
// ring and the queue; a producer pushes, then looks at the mark.

void asgi_runner::wake_asyncio() {
  if (parked_.load(std::memory_order_seq_cst) && parked_.exchange(false, std::memory_order_acq_rel)) {
    wakes_.fetch_add(1, std::memory_order_relaxed);
    uint64_t one = 1;
    ssize_t ignored = ::write(wake_fd_, &one, sizeof one);
    (void)ignored;
  }
}

void asgi_runner::post_news(asgi_request* r) {
  if (r->queued.exchange(true, std::memory_order_acq_rel)) return;
  news_.push(r);
  if (pump_) wake_asyncio();
}

bool asgi_runner::drain(size_t limit) {
  if (!lingering_.empty()) let_go_of_lingering();
  factory_checked_ = false;
  backlog_ = false;
  // Tasks still waiting for their first step count against the turn.
  size_t started = std::min(awaiting_first_step_, limit);
  while (true) {
    parked_.store(false, std::memory_order_relaxed);
    if (pump_) {
      while (started < limit) {
        exchange::exchange* s = new_streams_->try_pop();
        if (s == nullptr) break;
        ++started;
        if (!start_request(s)) return false;
      }
      backlog_ = started == limit && !new_streams_->empty();
    } else {
      // Starting one can start another (a cancelled stream's end lets its
      // connection parse the next pipelined request): they join the list.
      std::vector<exchange::exchange*> fresh;
      fresh.swap(inverted_new_);
      size_t now = std::min(fresh.size(), limit - started);
      started += now;
      for (size_t i = 0; i < now; ++i) {
        if (!start_request(fresh[i])) {
          inverted_new_.insert(inverted_new_.begin(), fresh.begin() + static_cast<std::ptrdiff_t>(i) + 1, fresh.end());
          return false;
        }
      }
      inverted_new_.insert(inverted_new_.begin(), fresh.begin() + static_cast<std::ptrdiff_t>(now), fresh.end());
      backlog_ = !inverted_new_.empty();
    }
    handoff::notice_link* list = news_.take_all();
    while (list != nullptr) {
      handoff::notice_link* next = list->notice_next;
      deliver_news(static_cast<asgi_request*>(list));
      list = next;
    }
    if (!pump_ || backlog_) return true;
    parked_.store(true, std::memory_order_seq_cst);
    // The ring's loads are acquire, not seq_cst: the fence pairs them with
    // try_start()'s, so the mark and the push cannot both go unseen.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (new_streams_->empty() && news_.empty()) return true;
  }
}

asgi_request* asgi_runner::take_request() {
  if (free_.empty()) {
    all_.push_back(std::make_unique<asgi_request>(*this));
    return all_.back().get();
  }
  asgi_request* r = free_.back();
  free_.pop_back();
  return r;
}

void asgi_runner::recycle(asgi_request* r) {
  r->s = nullptr;
  ++r->generation;  // receive/send objects still held by the app now raise
  r->receive_future.reset();
  r->send_future.reset();
  r->scope.reset();
  r->close_reason.reset();
  free_.push_back(r);
}

bool asgi_runner::start_request(exchange::exchange* s) {
  if (s->cancelled()) {
    // The client left while the request crossed over: it never runs.
    s->app_done();
    return true;
  }
  asgi_request* r = take_request();
  r->s = s;
  r->request_complete = false;
  r->response_started = false;
  r->response_complete = false;
  r->trailers_expected = false;
  r->body_complete = false;
  r->protocol_error = false;
  r->websocket = s->upgrade().websocket();
  r->phase = asgi_request::ws_phase::connecting;
  r->close_code = 1006;
  r->close_reason.reset();
  // r->queued stays as it is: an object recycled while its old stream's
  // notice is still queued is still linked in news_, and clearing the mark
  // here would let the new stream's first wake link it a second time (a
  // cycle: the drain never ends). deliver_news() clears it when the notice
  // comes out, and then looks at the new stream, which is harmless.
  s->set_waker(r);
  py_ref scope = build_scope(*s);
  py_ref receive = py_ref::steal(make_receive(this, r));
  py_ref send = py_ref::steal(make_send(this, r));
  py_ref coroutine;
  if (scope && receive && send) {
    coroutine = py_ref::steal(make_request_coroutine(this, r, app_.get(), scope.get(), receive.get(), send.get()));
  }
  py_ref task;
  if (coroutine) task = py_ref::steal(start_task(coroutine.get()));
  if (!task) {
    log_exception("could not start the ASGI application", s);
    s->fail(500);
    s->set_waker(nullptr);
    s->app_done();
    recycle(r);
  }
  return true;
}

// loop.create_task(coroutine), less its cost where the two are the same.

PyObject* asgi_runner::start_task(PyObject* coroutine) {
  if (!factory_checked_) {
    py_ref factory = py_ref::steal(PyObject_CallNoArgs(get_task_factory_.get()));
    if (!factory) return nullptr;
    has_factory_ = factory.get() != Py_None;
    factory_checked_ = true;
  }
  if (has_factory_) return PyObject_CallOneArg(create_task_.get(), coroutine);
  PyObject* args[4] = {coroutine, loop_.get(), task_name_.get(), Py_True};
  return PyObject_Vectorcall(task_type_.get(), args, 1, task_kwnames_.get());
}

PyObject* asgi_runner::pending_future(py_ref& slot) {
  PyObject* future = PyObject_CallNoArgs(create_future_.get());
  if (future == nullptr) return nullptr;
  slot = py_ref::steal(future);
  PyObject* waiting = make_waiting(future);
  if (waiting == nullptr) slot.reset();
  return waiting;
}

// Completes a waiting future with `value` (or, for an exception instance,
// fails it), unless the app has cancelled it meanwhile.

void asgi_runner::settle(py_ref& future, PyObject* value_new_ref) {
  py_ref value = py_ref::steal(value_new_ref);
  py_ref f = std::move(future);
  if (!f) return;
  py_ref done = py_ref::steal(PyObject_CallMethodNoArgs(f.get(), names.done));
  if (!done) {
    PyErr_Clear();
    return;
  }
  if (done.get() == Py_True) return;
  bool exception = value && PyExceptionInstance_Check(value.get());
  py_ref r = py_ref::steal(PyObject_CallMethodOneArg(f.get(), exception ? names.set_exception : names.set_result,
                                                     value ? value.get() : Py_None));
  if (!r) PyErr_Clear();
}

void asgi_runner::deliver_news(asgi_request* r) {
  // An exchange, not a store: a wake that found the mark still set (and so
  // queued nothing) comes before it in the mark's order, and the acquire
  // makes that wake's news visible to the looks at the stream below. After
  // a plain store those loads may run ahead of it and miss that news.
  r->queued.exchange(false, std::memory_order_acq_rel);
  if (r->s == nullptr) return;  // stale: its request ended
  if (r->websocket) r->s->release_app_memory_if_asked();  // an idle WebSocket's buffers
  if (r->receive_future) {
    bool ready = false;
    PyObject* event = event_for(r, ready);
    if (ready) settle(r->receive_future, event);
    else if (event == nullptr && PyErr_Occurred()) PyErr_Clear();
  }
  if (r->send_future) {
    if (r->s->cancelled()) {
      settle(r->send_future, PyObject_CallFunction(types.client_disconnected, "s", "the client disconnected"));
    } else if (r->s->credit_or_wake_me()) {  // else asked again: this wake may not have been the credit's
      Py_INCREF(Py_None);
      settle(r->send_future, Py_None);
    }
  }
}

void asgi_runner::finish(asgi_request* r, uint64_t generation, PyObject* error) {
  if (r->s == nullptr || r->generation != generation) return;
  exchange::exchange& s = *r->s;
  if (r->websocket) {
    finish_websocket(r, error);
  } else if (error != nullptr && !s.cancelled()) {
    Py_INCREF(error);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error)), error);
    log_exception("the ASGI application raised", &s);
  } else if (!r->response_complete && !s.cancelled()) {
    log::write(log::level::error, r->body_complete
                                      ? "the ASGI application returned without the trailers its response start promised"
                                      : "the ASGI application returned without completing its response");
  }
  if (!r->websocket && (!r->response_complete || r->protocol_error)) {
    // The answer owed is a failure: given (if nothing went out yet), and
    // then the connection closes, as the ASGI servers users know do.
    int status = s.body_error_status();
    s.fail(status == 400 || status == 408 || status == 413 ? status : 500, true);
  }
  if (r->receive_future) settle(r->receive_future, r->websocket ? websocket_disconnect(r) : disconnect_event());
  if (r->send_future) settle(r->send_future, PyObject_CallFunction(types.client_disconnected, "s", "the request ended"));
  if (!r->in_flight.empty()) {
    s.drop_output_if_cancelled();  // the loop would take it no more
    let_go_of_written(r);
    if (!r->in_flight.empty() && !r->lingering) {
      r->lingering = true;
      lingering_.push_back(r);
    }
  }
  s.set_waker(nullptr);
  r->s = nullptr;
  s.app_done();  // the stream is the loop's again
  recycle(r);
}

void asgi_runner::let_go_of_written(asgi_request* r) {
  if (!r->in_flight.empty() && r->in_flight_unsent.load(std::memory_order_acquire) == 0) r->in_flight.clear();
}

void asgi_runner::let_go_of_lingering() {
  size_t kept = 0;
  for (asgi_request* r : lingering_) {
    let_go_of_written(r);
    if (r->in_flight.empty()) r->lingering = false;
    else lingering_[kept++] = r;
  }
  lingering_.resize(kept);
}

void asgi_runner::abandon() {
  for (const auto& owned : all_) {
    asgi_request* r = owned.get();
    if (r->s == nullptr) continue;
    r->s->set_waker(nullptr);
    r->s = nullptr;
    ++r->generation;
    // A task still waiting learns its request is over.
    if (r->receive_future) settle(r->receive_future, r->websocket ? websocket_disconnect(r) : disconnect_event());
    if (r->send_future) {
      settle(r->send_future, PyObject_CallFunction(types.client_disconnected, "s", "the server stopped"));
    }
    r->scope.reset();
  }
}

void asgi_runner::log_exception(const char* message, const exchange::exchange* s) {
  log_app_exception(log_exception_.get(), message, s);
}

}  // namespace baton::bridge
