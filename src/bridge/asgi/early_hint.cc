// send()'s http.response.early_hint (the ASGI extension of that name): the
// message's links go out at once as a 103 Early Hints response with one
// Link field each (RFC 8297), ahead of the final response.
//
// The extension's text lets an app send it, any number of times, until
// its final body message, after http.response.start too: the head only
// goes out with the first body message, so until then a hint still comes
// before it. Once the head is out a hint has no place on the wire and is
// dropped, as the text allows a server to do; so is one to a client that
// takes no interim response (HTTP/1.0). A message after the final body is
// out of order and raises, as any other there does. Links are checked
// wherever the hint goes: a malformed one is the app's error, raised as a
// malformed header in http.response.start is.
#include "bridge/asgi/runner.h"
#include "bridge/field_bytes.h"
#include "bridge/names.h"
#include "bridge/py_compat.h"

namespace baton::bridge {

namespace {

// The message's links onto the exchange's interim response, counted into
// `count`. False with a Python error set when they are missing or malformed.
bool add_links(exchange::exchange& s, PyObject* message, size_t& count) {
  py_ref links_held = dict_item(message, names.links);
  PyObject* links = links_held.get();
  if (links == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "http.response.early_hint without links");
    return false;
  }
  // One link given alone would be iterated byte by byte (or character by
  // character): refused rather than sent as nonsense.
  if (PyBytes_Check(links) || PyByteArray_Check(links) || PyUnicode_Check(links)) {
    PyErr_SetString(PyExc_TypeError, "http.response.early_hint's links must be an iterable of byte strings");
    return false;
  }
  py_ref iterator = py_ref::steal(PyObject_GetIter(links));
  if (!iterator) return false;
  s.begin_interim();
  while (py_ref link = py_ref::steal(PyIter_Next(iterator.get()))) {
    std::string_view value;
    if (!field_bytes(link.get(), value)) return false;
    if (!s.add_interim_field("link", value)) {
      PyErr_Format(PyExc_ValueError, "invalid early hint link %R", link.get());
      return false;
    }
    ++count;
  }
  return !PyErr_Occurred();
}

}  // namespace

PyObject* asgi_runner::send_early_hint(asgi_request* r, PyObject* message) {
  if (r->response_complete || r->body_complete) {
    r->protocol_error = true;
    PyErr_SetString(PyExc_RuntimeError, "http.response.early_hint sent after the response body was complete");
    return nullptr;
  }
  exchange::exchange& s = *r->s;
  size_t count = 0;
  if (!add_links(s, message, count)) {
    r->protocol_error = true;
    return nullptr;
  }
  // A hint with no link says nothing; one after the head is dropped.
  if (count > 0 && !s.response_committed()) s.send_interim(103);
  Py_INCREF(Py_None);
  return resolved(Py_None);
}

}  // namespace baton::bridge
