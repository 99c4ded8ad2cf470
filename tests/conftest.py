"""Fixtures shared by every pytest suite: the server shapes they run under.

The WSGI integration and conformance suites run once per shape, through the
`shape` fixture (parametrized, not copied): the app on the loop thread, a
pool of one thread, and a pool of four.
"""

import pytest

SHAPES = {
    "inline": ["--blocking-threads", "0"],
    "pool-1": ["--blocking-threads", "1"],
    "pool-4": ["--blocking-threads", "4"],
}


# The ASGI shapes, each on both loops.
ASGI_SHAPES = {
    "pump-asyncio": ["--asgi-mode", "pump", "--loop", "asyncio"],
    "pump-uvloop": ["--asgi-mode", "pump", "--loop", "uvloop"],
    "inverted-asyncio": ["--asgi-mode", "inverted", "--loop", "asyncio"],
    "inverted-uvloop": ["--asgi-mode", "inverted", "--loop", "uvloop"],
}


@pytest.fixture(scope="module", params=list(SHAPES))
def shape(request) -> list[str]:
    """The command-line arguments that select one shape."""
    return SHAPES[request.param]


@pytest.fixture(scope="session")
def tls_certificates(tmp_path_factory):
    """A CA, server and client certificates signed by it, and a stranger's (tests/integration/tls.py)."""
    from tests.integration.tls import make_certificates
    return make_certificates(tmp_path_factory.mktemp("tls"))


def tls_args(certificates) -> list[str]:
    """The options that make a server serve TLS with the test certificates."""
    return ["--ssl-certfile", str(certificates.cert), "--ssl-keyfile", str(certificates.key)]
