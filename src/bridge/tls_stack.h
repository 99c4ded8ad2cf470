// The TLS library the extension carries, as module constants:
// _baton.OPENSSL_VERSION (the OpenSSL linked, as it names itself),
// _baton.HAS_QUIC (ngtcp2 and nghttp3 over OpenSSL's QUIC TLS API are built
// in), _baton.QUIC_LIBRARIES (their versions, "" without QUIC) and
// _baton.QUIC_ABSENT_REASON (one line, "" with QUIC). `baton --version`
// prints them.
#pragma once

#include "bridge/py_compat.h"

namespace baton::bridge {

// Adds the constants to `module` (its execution); false with a Python error set.
bool tls_stack_constants_add(PyObject* module);

}  // namespace baton::bridge
