"""The TLS library the extension carries: where `make openssl` has built the
static OpenSSL 3.5 (tools/openssl.py), the extension links it for TCP TLS
and QUIC alike, with ngtcp2 and nghttp3 built in; elsewhere it falls back to
the system's OpenSSL without QUIC, and says why. The static library's
symbols stay inside the extension, so a server process that also loads the
system's libssl (Python's ssl module, which asyncio imports) serves TLS 1.3
with its own."""

import socket
import ssl
import subprocess
import sys
from pathlib import Path

import httpx
import psutil

from tests.conftest import tls_args
from tests.integration.server import ROOT, Server

sys.path.insert(0, str(ROOT / "tools"))
import openssl as openssl_cache  # noqa: E402

from baton import _baton  # noqa: E402

ASGI = "tests.integration.apps.wire_apps:asgi"


def test_the_extension_carries_openssl_3_5_where_make_openssl_built_it():
    if openssl_cache.ready() is None:
        assert _baton.OPENSSL_VERSION.startswith("OpenSSL 3.5"), _baton.OPENSSL_VERSION
        assert _baton.OPENSSL_VERSION.startswith(f"OpenSSL {openssl_cache.version_of()} ")
    else:
        # The system's, as Python's own ssl module names it.
        assert _baton.OPENSSL_VERSION.split()[:2] == ssl.OPENSSL_VERSION.split()[:2]


def test_quic_libraries_are_built_in_exactly_when_openssl_has_the_quic_api():
    has_quic_api = not _baton.OPENSSL_VERSION.startswith(("OpenSSL 1.", "OpenSSL 3.0", "OpenSSL 3.1",
                                                          "OpenSSL 3.2", "OpenSSL 3.3", "OpenSSL 3.4"))
    assert _baton.HAS_QUIC is has_quic_api
    if _baton.HAS_QUIC:
        ngtcp2, nghttp3 = _baton.QUIC_LIBRARIES.split(", ")
        assert ngtcp2.startswith("ngtcp2 1.") and nghttp3.startswith("nghttp3 1."), _baton.QUIC_LIBRARIES
        assert _baton.QUIC_ABSENT_REASON == ""
    else:
        assert _baton.QUIC_LIBRARIES == ""
        assert "QUIC TLS API" in _baton.QUIC_ABSENT_REASON


def test_the_extension_exports_no_tls_or_quic_symbols():
    listing = subprocess.run(["nm", "-D", "--defined-only", _baton.__file__], capture_output=True, text=True,
                             check=True).stdout
    exported = [line.split()[-1] for line in listing.splitlines()]
    assert "PyInit__baton" in exported
    leaked = [name for name in exported if name.startswith(("SSL_", "EVP_", "OPENSSL_", "ngtcp2_", "nghttp3_"))]
    assert leaked == []


def mapped_files(pid: int) -> set[str]:
    """The files mapped into a process and its children (the one that serves may be a worker)."""
    processes = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    return {Path(m.path).name for proc in processes for m in proc.memory_maps(grouped=True) if m.path}


def test_a_server_that_also_loads_pythons_ssl_serves_tls_1_3_with_its_own_openssl(tls_certificates):
    server = Server(["--port", "0", "--interface", "asgi", *tls_args(tls_certificates), ASGI]).start()
    try:
        context = ssl.create_default_context(cafile=str(tls_certificates.ca))
        with socket.create_connection((server.host, server.port)) as raw, \
                context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.version() == "TLSv1.3"
        info = httpx.get(server.url + "/info", verify=context).json()
        assert info["scheme"] == "https" and info["tls"]["tls_version"] == 0x0304
        mapped = mapped_files(server.proc.pid)
        assert any(name.startswith("_baton") for name in mapped)
        assert any(name.startswith("_ssl") for name in mapped)  # asyncio brought in Python's ssl module
        if openssl_cache.ready() is None:
            # The system's libssl, loaded for Python's ssl module beside the extension's static copy.
            assert "libssl.so.3" in mapped
    finally:
        server.stop()
