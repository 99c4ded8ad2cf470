#include "bridge/names.h"

#include <string>

namespace baton::bridge {

interned_names names;

namespace {

struct common_method {
  std::string_view text;
  PyObject* object;
};
common_method common_methods[] = {{"GET", nullptr},    {"POST", nullptr},    {"HEAD", nullptr}, {"PUT", nullptr},
                                  {"DELETE", nullptr}, {"OPTIONS", nullptr}, {"PATCH", nullptr}};

}  // namespace

PyObject* method_text(std::string_view method) {
  for (const common_method& m : common_methods) {
    if (m.text == method) {
      Py_INCREF(m.object);
      return m.object;
    }
  }
  return PyUnicode_DecodeLatin1(method.data(), static_cast<Py_ssize_t>(method.size()), nullptr);
}

namespace {

struct entry {
  PyObject** slot;
  const char* text;
};

// Every name and its text: one table for both interfaces.
const entry name_table[] = {
    {&names.type, "type"},
    {&names.body, "body"},
    {&names.more_body, "more_body"},
    {&names.trailers, "trailers"},
    {&names.more_trailers, "more_trailers"},
    {&names.status, "status"},
    {&names.headers, "headers"},
    {&names.path, "path"},
    {&names.http_version, "http_version"},
    {&names.method, "method"},
    {&names.raw_path, "raw_path"},
    {&names.query_string, "query_string"},
    {&names.client, "client"},
    {&names.state, "state"},
    {&names.asgi, "asgi"},
    {&names.extensions, "extensions"},
    {&names.scheme, "scheme"},
    {&names.server, "server"},
    {&names.root_path, "root_path"},
    {&names.http_request, "http.request"},
    {&names.http_disconnect, "http.disconnect"},
    {&names.response_start, "http.response.start"},
    {&names.response_body, "http.response.body"},
    {&names.response_pathsend, "http.response.pathsend"},
    {&names.response_trailers, "http.response.trailers"},
    {&names.response_early_hint, "http.response.early_hint"},
    {&names.links, "links"},
    {&names.v1_1, "1.1"},
    {&names.v1_0, "1.0"},
    {&names.v2, "2"},
    {&names.v3, "3"},
    {&names.https, "https"},
    {&names.subprotocols, "subprotocols"},
    {&names.subprotocol, "subprotocol"},
    {&names.text, "text"},
    {&names.bytes, "bytes"},
    {&names.code, "code"},
    {&names.reason, "reason"},
    {&names.ws_connect, "websocket.connect"},
    {&names.ws_accept, "websocket.accept"},
    {&names.ws_receive, "websocket.receive"},
    {&names.ws_send, "websocket.send"},
    {&names.ws_disconnect, "websocket.disconnect"},
    {&names.ws_close, "websocket.close"},
    {&names.ws_response_start, "websocket.http.response.start"},
    {&names.ws_response_body, "websocket.http.response.body"},
    {&names.wss, "wss"},
    {&names.tls, "tls"},
    {&names.create_task, "create_task"},
    {&names.create_future, "create_future"},
    {&names.set_result, "set_result"},
    {&names.set_exception, "set_exception"},
    {&names.done, "done"},
    {&names.REQUEST_METHOD, "REQUEST_METHOD"},
    {&names.SCRIPT_NAME, "SCRIPT_NAME"},
    {&names.PATH_INFO, "PATH_INFO"},
    {&names.QUERY_STRING, "QUERY_STRING"},
    {&names.RAW_URI, "RAW_URI"},
    {&names.SERVER_PROTOCOL, "SERVER_PROTOCOL"},
    {&names.REMOTE_ADDR, "REMOTE_ADDR"},
    {&names.REMOTE_PORT, "REMOTE_PORT"},
    {&names.SERVER_PORT, "SERVER_PORT"},
    {&names.SERVER_NAME, "SERVER_NAME"},
    {&names.wsgi_input, "wsgi.input"},
    {&names.wsgi_url_scheme, "wsgi.url_scheme"},
    {&names.wsgi_version, "wsgi.version"},
    {&names.wsgi_errors, "wsgi.errors"},
    {&names.wsgi_multithread, "wsgi.multithread"},
    {&names.wsgi_multiprocess, "wsgi.multiprocess"},
    {&names.wsgi_run_once, "wsgi.run_once"},
    {&names.wsgi_input_terminated, "wsgi.input_terminated"},
    {&names.wsgi_file_wrapper, "wsgi.file_wrapper"},
    {&names.wsgi_early_hints, "wsgi.early_hints"},
    {&names.SERVER_SOFTWARE, "SERVER_SOFTWARE"},
    {&names.HTTP_1_1, "HTTP/1.1"},
    {&names.HTTP_1_0, "HTTP/1.0"},
    {&names.HTTP_2_0, "HTTP/2.0"},
    {&names.HTTP_3_0, "HTTP/3.0"},
    {&names.empty, ""},
    {&names.close, "close"},
    {&names.http, "http"},
    {&names.websocket, "websocket"},
    {&names.ws, "ws"},
    {&names.version, "version"},
    {&names.spec_version, "spec_version"},
    {&names.task_name, "baton.request"},
};

}  // namespace

bool intern_names() {
  if (names.type != nullptr) return true;  // made already, by an earlier execution of the module
  for (const entry& e : name_table) {
    *e.slot = PyUnicode_InternFromString(e.text);
    if (*e.slot == nullptr) return false;
  }
  for (common_method& m : common_methods) {
    m.object = PyUnicode_InternFromString(std::string(m.text).c_str());
    if (m.object == nullptr) return false;
  }
  return true;
}

}  // namespace baton::bridge
