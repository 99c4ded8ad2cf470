"""The request parser's host, target and transfer-coding rules over real
sockets: an absolute-form target's authority is the host the app sees, and
each shape the rules refuse gets its status, Connection: close, and never
reaches the app."""

import json

import pytest

from tests.integration.server import closed_by_peer, read_response


def calls(server) -> list[str]:
    try:
        return server.record.read_text().splitlines()
    except FileNotFoundError:
        return []


def echo(server, raw: bytes) -> dict:
    s = server.connect()
    s.sendall(raw)
    status, _, body, _ = read_response(s)
    assert status == 200, body
    return json.loads(body)


def test_absolute_form_authority_is_the_host_the_app_sees(server):
    # RFC 9112 section 3.2.2: the target's authority overrides Host.
    got = echo(server, b"GET http://evil.example/echo?q=1 HTTP/1.1\r\nHost: good.example\r\n\r\n")
    assert got["headers"]["HTTP_HOST"] == "evil.example"
    assert got["path"] == "/echo" and got["query"] == "q=1"
    assert got["raw_uri"] == "http://evil.example/echo?q=1"


def test_absolute_form_authority_keeps_its_port(server):
    got = echo(server, b"GET http://[::1]:8080/echo HTTP/1.1\r\nHost: good.example:80\r\n\r\n")
    assert got["headers"]["HTTP_HOST"] == "[::1]:8080"


@pytest.mark.parametrize("host", [b"[::1]:8080", b"example.com", b"example.com:80", b"127.0.0.1",
                                  b"xn--bcher-kva.example", b"ex%41mple.com", b""])
def test_valid_host_reaches_the_app_as_sent(server, host):
    got = echo(server, b"GET /echo HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
    assert got["headers"]["HTTP_HOST"] == host.decode()


BAD_REQUESTS = [
    ("host with space, slash and userinfo", b"GET /echo HTTP/1.1\r\nHost: a b/c@d\r\n\r\n", 400),
    ("host with two colons", b"GET /echo HTTP/1.1\r\nHost: a:b:c\r\n\r\n", 400),
    ("host with obs-text", b"GET /echo HTTP/1.1\r\nHost: a\xff\r\n\r\n", 400),
    ("host that is not a name beside an absolute-form target",
     b"GET http://example.com/echo HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
    ("userinfo in an absolute-form target",
     b"GET http://user:pw@example.com/echo HTTP/1.1\r\nHost: example.com\r\n\r\n", 400),
    ("absolute-form authority that is not host and port",
     b"GET http://a:b:c/echo HTTP/1.1\r\nHost: example.com\r\n\r\n", 400),
    ("absolute-form with an empty host", b"GET http://:80/echo HTTP/1.1\r\nHost: example.com\r\n\r\n", 400),
    ("chunked with parameters", b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked;foo=bar\r\n\r\n"
     b"3\r\nabc\r\n0\r\n\r\n", 400),
    ("chunked with parameters after an unknown coding", b"POST /echo HTTP/1.1\r\nHost: t\r\n"
     b"Transfer-Encoding: gzip, chunked;foo=bar\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400),
    ("unknown coding with parameters before chunked", b"POST /echo HTTP/1.1\r\nHost: t\r\n"
     b"Transfer-Encoding: gzip;level=9, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 501),
    ("fragment in an origin-form target", b"GET /echo?a=b#frag HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("fragment in an absolute-form target", b"GET http://t/echo#frag HTTP/1.1\r\nHost: t\r\n\r\n", 400),
]


@pytest.mark.parametrize("raw,status", [(r, s) for _, r, s in BAD_REQUESTS], ids=[n for n, _, _ in BAD_REQUESTS])
def test_refused_shape_gets_its_status_and_close_and_never_reaches_the_app(server, raw, status):
    before = calls(server)
    s = server.connect()
    s.sendall(raw)
    got, headers, _, _ = read_response(s)
    assert got == status
    assert headers["connection"] == "close"
    assert closed_by_peer(s)
    # The app saw nothing: only the request sent next became a call.
    s2 = server.connect()
    s2.sendall(b"GET /echo?still-serving HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(s2)[0] == 200
    assert calls(server)[len(before):] == ["GET /echo?still-serving"]
