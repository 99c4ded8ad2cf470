// _baton.MetricsRegion: the metrics region (core/metrics) as a Python
// object. The process that serves the scrape makes it (the master, before
// it forks, so every worker writes its own slot of the same memory; or the
// one process serving alone), starts the listener on it, and tells it
// about workers as they come and go. Servers are given (region, slot,
// thread) and count into that block from C++ alone.
#include "bridge/metrics.h"

#include <exception>
#include <memory>
#include <string>

#include "bridge/module_state.h"
#include "core/admin/metrics_listener.h"
#include "core/metrics/record.h"
#include "core/metrics/region.h"

namespace baton::bridge {
namespace {

struct region_object {
  PyObject_HEAD
  metrics::region* region;
  admin::metrics_listener* listener;
};

metrics::region* live_region(PyObject* self) {
  metrics::region* r = reinterpret_cast<region_object*>(self)->region;
  if (r == nullptr) PyErr_SetString(PyExc_RuntimeError, "the metrics region was closed");
  return r;
}

bool valid_slot(metrics::region& r, long slot) {
  if (slot >= 0 && static_cast<uint64_t>(slot) < r.workers()) return true;
  PyErr_Format(PyExc_IndexError, "no worker slot %ld", slot);
  return false;
}

int region_init(PyObject* self, PyObject* args, PyObject*) {
  unsigned int workers = 0, threads = 0;
  if (!PyArg_ParseTuple(args, "II:MetricsRegion", &workers, &threads)) return -1;
  if (workers == 0 || threads == 0) {
    PyErr_SetString(PyExc_ValueError, "a metrics region needs a worker and a thread at least");
    return -1;
  }
  try {
    reinterpret_cast<region_object*>(self)->region = new metrics::region(workers, threads);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_OSError, e.what());
    return -1;
  }
  return 0;
}

void region_dealloc(PyObject* self) {
  auto* o = reinterpret_cast<region_object*>(self);
  delete o->listener;  // stops its thread first: it reads the region
  delete o->region;
  free_instance(self);
}

// listen(fd, version, python, free_threaded): the scrape served on `fd` (owned from here).
PyObject* region_listen(PyObject* self, PyObject* args) {
  metrics::region* r = live_region(self);
  int fd = -1, free_threaded = 0;
  const char *version = nullptr, *python = nullptr;
  if (r == nullptr || !PyArg_ParseTuple(args, "issp:listen", &fd, &version, &python, &free_threaded)) return nullptr;
  auto* o = reinterpret_cast<region_object*>(self);
  delete o->listener;
  o->listener = new admin::metrics_listener(fd, *r, metrics::build_info{version, python, free_threaded != 0});
  Py_RETURN_NONE;
}

// started(slot, pid, restart): a worker took the slot (the master's; or 0 and this process's pid).
PyObject* region_started(PyObject* self, PyObject* args) {
  metrics::region* r = live_region(self);
  long slot = 0, pid = 0;
  int restart = 0;
  if (r == nullptr || !PyArg_ParseTuple(args, "llp:started", &slot, &pid, &restart) || !valid_slot(*r, slot)) {
    return nullptr;
  }
  metrics::worker_slot& s = r->slot(static_cast<uint32_t>(slot));
  s.pid.store(static_cast<int32_t>(pid), std::memory_order_relaxed);
  if (restart) metrics::bump(s.restarts);
  metrics::bump(r->master().workers_started);
  Py_RETURN_NONE;
}

// retired(slot, cause): the slot's worker has gone; its counts are kept, and
// a replacement's cause ("crash", "timeout", "max_requests", "memory", or
// None when it was not replaced) is counted.
PyObject* region_retired(PyObject* self, PyObject* args) {
  metrics::region* r = live_region(self);
  long slot = 0;
  const char* cause = nullptr;
  if (r == nullptr || !PyArg_ParseTuple(args, "lz:retired", &slot, &cause) || !valid_slot(*r, slot)) return nullptr;
  r->retire_slot(static_cast<uint32_t>(slot));
  if (cause != nullptr) {
    for (size_t c = 0; c < 4; ++c) {
      if (std::string(metrics::respawn_cause_name(static_cast<metrics::respawn_cause>(c))) == cause) {
        metrics::bump(r->master().respawns[c]);
      }
    }
  }
  Py_RETURN_NONE;
}

// scrape(openmetrics=False): the scrape's text, as the listener would answer it (tests).
PyObject* region_scrape(PyObject* self, PyObject* args) {
  metrics::region* r = live_region(self);
  int openmetrics = 0;
  if (r == nullptr || !PyArg_ParseTuple(args, "|p:scrape", &openmetrics)) return nullptr;
  std::string text = metrics::render(*r, openmetrics ? metrics::format::openmetrics : metrics::format::prometheus,
                                     metrics::build_info{"", "", false});
  return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
}

PyMethodDef region_methods[] = {
    {"listen", region_listen, METH_VARARGS,
     "listen(fd, version, python, free_threaded): serve GET /metrics on the listening socket fd"},
    {"started", region_started, METH_VARARGS, "started(slot, pid, restart): a worker took the slot"},
    {"retired", region_retired, METH_VARARGS, "retired(slot, cause): the slot's worker has gone"},
    {"scrape", region_scrape, METH_VARARGS, "scrape(openmetrics=False): the scrape's text"},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot region_slots[] = {
    {Py_tp_init, reinterpret_cast<void*>(region_init)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(region_dealloc)},
    {Py_tp_methods, region_methods},
    {Py_tp_doc, const_cast<char*>("MetricsRegion(workers, threads): the shared metrics of a server")},
    {0, nullptr}};

PyType_Spec region_spec = {"baton._baton.MetricsRegion", sizeof(region_object), 0, Py_TPFLAGS_DEFAULT,
                           region_slots};

}  // namespace

bool metrics_types_add(PyObject* module, bridge_types& t) {
  t.metrics_region = make_type(module, &region_spec);
  return t.metrics_region != nullptr;
}

bool metrics_blocks(PyObject* value, metrics::thread_block*& block, metrics::worker_slot*& slot) {
  PyObject* region = nullptr;
  long worker = 0, thread = 0;
  if (!PyArg_ParseTuple(value, "Oll:metrics", &region, &worker, &thread)) return false;
  if (!PyObject_TypeCheck(region, types.metrics_region)) {
    PyErr_SetString(PyExc_TypeError, "metrics: (MetricsRegion, slot, thread)");
    return false;
  }
  metrics::region* r = live_region(region);
  if (r == nullptr || !valid_slot(*r, worker)) return false;
  if (thread < 0 || static_cast<uint64_t>(thread) >= r->threads()) {
    PyErr_Format(PyExc_IndexError, "no loop thread %ld in a metrics slot", thread);
    return false;
  }
  block = &r->thread(static_cast<uint32_t>(worker), static_cast<uint32_t>(thread));
  slot = &r->slot(static_cast<uint32_t>(worker));
  return true;
}

}  // namespace baton::bridge
