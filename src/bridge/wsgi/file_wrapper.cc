// wsgi.file_wrapper(filelike, block_size=8192). When an app returns one
// whose file is a regular file with a descriptor, the handler sends it with
// sendfile; otherwise (or under middleware) it is a plain block iterator.
#include "bridge/wsgi/wsgi.h"

namespace baton::bridge {
namespace {

int file_wrapper_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"filelike", "block_size", nullptr};
  PyObject* filelike = nullptr;
  Py_ssize_t block_size = 8192;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|n:file_wrapper", const_cast<char**>(keywords), &filelike,
                                   &block_size)) {
    return -1;
  }
  auto* o = reinterpret_cast<file_wrapper_object*>(self);
  Py_INCREF(filelike);
  Py_XSETREF(o->filelike, filelike);
  o->block_size = block_size > 0 ? block_size : 8192;
  return 0;
}

PyObject* file_wrapper_iternext(PyObject* self) {
  auto* o = reinterpret_cast<file_wrapper_object*>(self);
  if (o->filelike == nullptr) return nullptr;
  PyObject* block = PyObject_CallMethod(o->filelike, "read", "n", o->block_size);
  if (block == nullptr) return nullptr;
  Py_ssize_t length = PyObject_Length(block);
  if (length <= 0) {  // end of file, or read() gave something without a length (an error is set)
    Py_DECREF(block);
    return nullptr;
  }
  return block;
}

PyObject* file_wrapper_close(PyObject* self, PyObject*) {
  auto* o = reinterpret_cast<file_wrapper_object*>(self);
  if (o->filelike != nullptr && PyObject_HasAttrString(o->filelike, "close")) {
    PyObject* r = PyObject_CallMethod(o->filelike, "close", nullptr);
    if (r == nullptr) return nullptr;
    Py_DECREF(r);
  }
  Py_RETURN_NONE;
}

void file_wrapper_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  Py_CLEAR(reinterpret_cast<file_wrapper_object*>(self)->filelike);
  Py_TYPE(self)->tp_free(self);
}

int file_wrapper_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(reinterpret_cast<file_wrapper_object*>(self)->filelike);
  return 0;
}

int file_wrapper_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<file_wrapper_object*>(self)->filelike);
  return 0;
}

PyMethodDef file_wrapper_methods[] = {
    {"close", file_wrapper_close, METH_NOARGS, "close the wrapped file"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject file_wrapper_type = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "baton._baton.FileWrapper";
  t.tp_basicsize = sizeof(file_wrapper_object);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE;
  t.tp_doc = "wsgi.file_wrapper(filelike, block_size=8192)";
  t.tp_init = file_wrapper_init;
  t.tp_new = PyType_GenericNew;
  t.tp_iter = PyObject_SelfIter;
  t.tp_iternext = file_wrapper_iternext;
  t.tp_methods = file_wrapper_methods;
  t.tp_dealloc = file_wrapper_dealloc;
  t.tp_traverse = file_wrapper_traverse;
  t.tp_clear = file_wrapper_clear;
  return t;
}();

bool wsgi_types_ready() {
  return PyType_Ready(&wsgi_input_type) == 0 && PyType_Ready(&start_response_type) == 0 &&
         PyType_Ready(&file_wrapper_type) == 0;
}

}  // namespace baton::bridge
