// The bridge's interned names, one table for both interfaces: ASGI's
// message and scope keys and values, and WSGI's environ keys. Made once,
// at module import (intern_names), and never freed; a lookup by one of
// them matches on identity, without comparing text. Never interned again
// later: CPython 3.13t's interning of one string by two threads at once
// is a race of its own (ThreadSanitizer shows it), and the loops of
// --threads make their servers at the same time.
#pragma once

#include <cstring>
#include <string_view>

#include "bridge/py_ref.h"

namespace baton::bridge {

struct interned_names {
  // ASGI: message and scope keys.
  PyObject* type;
  PyObject* body;
  PyObject* more_body;
  PyObject* trailers;
  PyObject* more_trailers;
  PyObject* status;
  PyObject* headers;
  PyObject* path;
  PyObject* http_version;
  PyObject* method;
  PyObject* raw_path;
  PyObject* query_string;
  PyObject* client;
  PyObject* state;
  PyObject* asgi;
  PyObject* extensions;
  PyObject* scheme;
  PyObject* server;
  PyObject* root_path;
  // ASGI: message types and values.
  PyObject* http_request;
  PyObject* http_disconnect;
  PyObject* response_start;
  PyObject* response_body;
  PyObject* response_pathsend;
  PyObject* response_trailers;
  PyObject* response_early_hint;
  PyObject* links;
  PyObject* v1_1;
  PyObject* v1_0;
  PyObject* v2;
  PyObject* v3;
  PyObject* https;
  PyObject* http;
  PyObject* websocket;
  PyObject* ws;
  PyObject* version;
  PyObject* spec_version;
  PyObject* task_name;  // "baton.request"
  // ASGI: the websocket scope and its messages.
  PyObject* subprotocols;
  PyObject* subprotocol;
  PyObject* text;
  PyObject* bytes;
  PyObject* code;
  PyObject* reason;
  PyObject* ws_connect;
  PyObject* ws_accept;
  PyObject* ws_receive;
  PyObject* ws_send;
  PyObject* ws_disconnect;
  PyObject* ws_close;
  PyObject* ws_response_start;
  PyObject* ws_response_body;
  PyObject* wss;
  PyObject* tls;  // the scope's extensions key
  // asyncio's methods.
  PyObject* create_task;
  PyObject* create_future;
  PyObject* set_result;
  PyObject* set_exception;
  PyObject* done;
  // WSGI: environ keys and values.
  PyObject* REQUEST_METHOD;
  PyObject* SCRIPT_NAME;
  PyObject* PATH_INFO;
  PyObject* QUERY_STRING;
  PyObject* RAW_URI;
  PyObject* SERVER_PROTOCOL;
  PyObject* REMOTE_ADDR;
  PyObject* REMOTE_PORT;
  PyObject* SERVER_PORT;
  PyObject* SERVER_NAME;
  PyObject* wsgi_input;
  PyObject* wsgi_url_scheme;
  PyObject* wsgi_version;
  PyObject* wsgi_errors;
  PyObject* wsgi_multithread;
  PyObject* wsgi_multiprocess;
  PyObject* wsgi_run_once;
  PyObject* wsgi_input_terminated;
  PyObject* wsgi_file_wrapper;
  PyObject* wsgi_early_hints;
  PyObject* SERVER_SOFTWARE;
  PyObject* HTTP_1_1;
  PyObject* HTTP_1_0;
  PyObject* HTTP_2_0;
  PyObject* HTTP_3_0;
  PyObject* empty;
  PyObject* close;
};

extern interned_names names;

// GIL held, once per process (module init). False with an error set.
bool intern_names();

// Two str objects with the same text: the same object, or the same length,
// kind and bytes (the check PyUnicode_Compare makes, without its ordering).
inline bool same_text(PyObject* a, PyObject* b) {
  if (a == b) return true;
  Py_ssize_t n = PyUnicode_GET_LENGTH(a);
  return n == PyUnicode_GET_LENGTH(b) && PyUnicode_KIND(a) == PyUnicode_KIND(b) &&
         std::memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), static_cast<size_t>(n) * PyUnicode_KIND(a)) == 0;
}

// A request's method as a str (a new reference): the common methods'
// interned objects, found by comparing text, and any other decoded as
// latin-1. Null with an error set on failure.
PyObject* method_text(std::string_view method);

}  // namespace baton::bridge
