"""A DEL byte (0x7f) in a response field value, end to end: the server
checks an app's field values eight bytes at a time (src/core/util/swar.h,
through exchange::valid_field_value), and a DEL anywhere in a word is
refused like any other control byte. A WSGI and an ASGI app each send one
at several places in a value; the client gets a 500 without the field, the
log names the request and the refused field, and the server serves the next
request. The same value without the DEL is sent as it is, so the refusal is
the DEL's doing."""

import pytest

from tests.conftest import ASGI_SHAPES
from tests.integration.apps.response_field_apps import VALUE
from tests.integration.server import Server, closed_by_peer, read_response

WSGI = "tests.integration.apps.response_field_apps:wsgi"
ASGI = "tests.integration.apps.response_field_apps:asgi"

# Where the DEL goes in the 21-byte value: the first byte of the first word,
# its last byte, the middle of the second word, and the last byte of the
# value, which only the overlapping last word holds.
PLACES = {"first": 0, "end-of-a-word": 7, "middle-of-a-word": 11, "last": 20}


@pytest.fixture(scope="module")
def wsgi_server(shape):
    server = Server(["--port", "0", *shape, WSGI]).start()
    yield server
    server.stop()


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def asgi_server(request):
    server = Server(["--port", "0", *ASGI_SHAPES[request.param], ASGI]).start()
    yield server
    server.stop()


def with_del(at: int) -> str:
    return VALUE[:at] + "\x7f" + VALUE[at + 1:]


def field_request(at: int) -> bytes:
    return b"GET /field?del=%d HTTP/1.1\r\nHost: t\r\n\r\n" % at


def assert_refused(status, headers, body, raw):
    assert status == 500, raw
    assert b"\x7f" not in raw and "x-field" not in headers, raw
    assert body != b"sent"


@pytest.mark.parametrize("at", PLACES.values(), ids=PLACES.keys())
def test_a_wsgi_field_value_with_a_del_byte_gets_a_500_a_log_line_and_the_connection_serves_on(wsgi_server, at):
    server = wsgi_server
    mark = server.log_mark()
    s = server.connect()
    s.sendall(field_request(at))
    assert_refused(*read_response(s))
    refused = f"ValueError: invalid response header {('X-Field', with_del(at))!r}"
    assert server.wait_for_log(refused, since=mark), server.log_since(mark)
    assert f"the application raised (GET /field?del={at} from 127.0.0.1:" in server.log_since(mark)
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert (status, body) == (200, b"Hello, World!")


@pytest.mark.parametrize("at", PLACES.values(), ids=PLACES.keys())
def test_an_asgi_field_value_with_a_del_byte_gets_a_500_a_log_line_and_the_server_serves_on(asgi_server, at):
    # The ASGI server closes the connection after an app's protocol error
    # (test_asgi.py); the next request comes on a new one.
    server = asgi_server
    mark = server.log_mark()
    s = server.connect()
    s.sendall(field_request(at))
    status, headers, body, raw = read_response(s)
    assert_refused(status, headers, body, raw)
    assert headers.get("connection") == "close"
    assert closed_by_peer(s)
    refused = f"ValueError: invalid response header {(b'x-field', with_del(at).encode('latin-1'))!r}"
    assert server.wait_for_log(refused, since=mark), server.log_since(mark)
    assert f"the ASGI application raised (GET /field?del={at} from 127.0.0.1:" in server.log_since(mark)
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert (status, body) == (200, b"Hello, World!")


def assert_sent_as_it_is(server, name):
    s = server.connect()
    s.sendall(field_request(-1))
    status, headers, body, raw = read_response(s)
    assert (status, headers.get("x-field"), body) == (200, VALUE, b"sent"), raw
    assert b"\r\n%s: %s\r\n" % (name, VALUE.encode()) in raw


def test_a_wsgi_field_value_without_the_del_byte_is_sent_as_it_is(wsgi_server):
    assert_sent_as_it_is(wsgi_server, b"X-Field")


def test_an_asgi_field_value_without_the_del_byte_is_sent_as_it_is(asgi_server):
    assert_sent_as_it_is(asgi_server, b"x-field")
