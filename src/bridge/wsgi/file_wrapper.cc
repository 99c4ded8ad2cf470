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
  free_instance(self);
}

int file_wrapper_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
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

PyType_Slot file_wrapper_slots[] = {
    {Py_tp_init, reinterpret_cast<void*>(file_wrapper_init)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(file_wrapper_iternext)},
    {Py_tp_methods, file_wrapper_methods},
    {Py_tp_dealloc, reinterpret_cast<void*>(file_wrapper_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(file_wrapper_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(file_wrapper_clear)},
    {Py_tp_doc, const_cast<char*>("wsgi.file_wrapper(filelike, block_size=8192)")},
    {0, nullptr}};

PyType_Spec file_wrapper_spec = {"baton._baton.FileWrapper", sizeof(file_wrapper_object), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE, file_wrapper_slots};

}  // namespace

bool wsgi_types_add(PyObject* module, bridge_types& t) {
  t.wsgi_input = make_type(module, &wsgi_input_spec);
  t.start_response = make_type(module, &start_response_spec);
  t.file_wrapper = make_type(module, &file_wrapper_spec);
  t.early_hints = make_type(module, &early_hints_spec);
  return t.wsgi_input != nullptr && t.start_response != nullptr && t.file_wrapper != nullptr &&
         t.early_hints != nullptr;
}

}  // namespace baton::bridge
