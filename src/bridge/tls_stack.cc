#include "bridge/tls_stack.h"

#include "bridge/py_ref.h"
#include "core/net/tls_stack.h"

namespace baton::bridge {

bool tls_stack_constants_add(PyObject* module) {
  const net::tls_stack stack = net::describe_tls_stack();
  const struct {
    const char* name;
    const std::string& value;
  } texts[] = {{"OPENSSL_VERSION", stack.openssl_version},
               {"QUIC_LIBRARIES", stack.quic_libraries},
               {"QUIC_ABSENT_REASON", stack.quic_absent_reason}};
  for (const auto& text : texts) {
    py_ref value = py_ref::steal(PyUnicode_FromStringAndSize(text.value.data(), std::ssize(text.value)));
    if (!value || PyModule_AddObjectRef(module, text.name, value.get()) < 0) return false;
  }
  return PyModule_AddObjectRef(module, "HAS_QUIC", stack.has_quic ? Py_True : Py_False) == 0;
}

}  // namespace baton::bridge
