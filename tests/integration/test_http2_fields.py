"""What a request's fields mean over HTTP/2, and what baton refuses before an
app sees it, sent as raw frames where a client library would refuse to
send the input (tests/integration/h2client.py's frame()):

- cookie fields a client split (RFC 9113 8.2.3) reach the app as one;
- `host` disagreeing with `:authority`, or userinfo in `:authority`: 400;
- more fields than --max-headers: 431 on that stream, the connection and
  its HPACK state still serving the next;
- CONNECT: 501 from the core, over HTTP/2 and HTTP/1.1 alike;
- a malformed request (RFC 9113 8.1.1: a body longer or shorter than its
  content-length, connection-specific fields) is reset with
  PROTOCOL_ERROR, never reaches the app, and is logged naming the client
  and the stream; a WSGI app reading the body to its end sees the read
  fail, not a clean end.

Every app call is recorded in BATON_TEST_RECORD (its method and path), so
each test can say what reached the app."""

import json
import os
import socket
import struct

import hpack
import pytest

from tests.conftest import ASGI_SHAPES, SHAPES
from tests.integration.h2client import (
    DATA, END_HEADERS, END_STREAM, HEADERS, RST_STREAM, SETTINGS, H2Client, frame, read_frames,
)
from tests.integration.server import Server, closed_by_peer, read_response

WSGI = "tests.integration.apps.field_apps:wsgi"
ASGI = "tests.integration.apps.field_apps:asgi"
SERVED = {"pool-4": (SHAPES["pool-4"], WSGI), "inline": (SHAPES["inline"], WSGI),
          "pump": (ASGI_SHAPES["pump-uvloop"], ASGI), "inverted": (ASGI_SHAPES["inverted-uvloop"], ASGI)}
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
PROTOCOL_ERROR = 0x1


def start(tmp_path, args, app, *extra):
    record = tmp_path / "calls.log"
    server = Server(["--port", "0", *args, *extra, app], env={"BATON_TEST_RECORD": str(record)}).start()
    server.record = record
    return server


@pytest.fixture(params=list(SERVED))
def server(request, tmp_path):
    args, app = SERVED[request.param]
    s = start(tmp_path, args, app)
    yield s
    s.stop()


def calls(server) -> list[str]:
    return server.record.read_text().splitlines() if server.record.exists() else []


class RawH2:
    """HTTP/2 by hand over h2c: the preface, then requests whose fields are
    encoded as given (an HPACK encoder of its own, so its dynamic table
    carries over from request to request as a real client's does)."""

    def __init__(self, server):
        self.sock = socket.create_connection((server.host, server.port), timeout=10)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0))
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.frames: list[tuple[int, int, int, bytes]] = []

    def headers(self, sid: int, fields, end: bool = True) -> bytes:
        return frame(HEADERS, END_HEADERS | (END_STREAM if end else 0), sid, self.encoder.encode(fields))

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read_until(self, done, timeout: float = 5.0) -> None:
        """Reads frames until done(frames) holds (or the time is up)."""
        import time
        deadline = time.monotonic() + timeout
        while not done(self.frames) and time.monotonic() < deadline:
            got, closed = read_frames_once(self.sock, deadline - time.monotonic())
            self.frames += got
            if closed:
                break

    def answer(self, sid: int, timeout: float = 5.0):
        """(status, body, RST_STREAM code or None) of stream `sid`, read to its end or its reset."""
        def ended(frames):
            return any(s == sid and (kind == RST_STREAM or flags & END_STREAM) for kind, flags, s, _ in frames)
        self.read_until(ended, timeout)
        status, body, reset = None, b"", None
        for kind, flags, s, payload in self.frames:
            if kind == HEADERS:
                decoded = dict(self.decoder.decode(payload))  # every block, to keep the table in step
                if s == sid:
                    status = int(decoded[":status"])
            elif kind == DATA and s == sid:
                body += payload
            elif kind == RST_STREAM and s == sid:
                reset = struct.unpack(">I", payload)[0]
        return status, body, reset

    def close(self) -> None:
        self.sock.close()


def read_frames_once(sock, timeout: float):
    """The frames of what arrives in the next moment (up to `timeout`)."""
    return read_frames(sock, min(max(timeout, 0.01), 0.3))


def request(path: str, method: str = "GET", authority: str = "localhost", extra=()):
    return [(":method", method), (":scheme", "http"), (":path", path), (":authority", authority), *extra]


def seen(client, **options) -> dict:
    r = client.get("/seen", **options)
    assert r.status == 200, (r.status, bytes(r.data))
    return json.loads(bytes(r.data))


# --- cookies --------------------------------------------------------------------


def test_cookie_fields_a_client_split_reach_the_app_as_one_joined_by_semicolons(server):
    client = H2Client(server)
    got = seen(client, headers=[("cookie", "a=1"), ("x-between", "y"), ("cookie", "b=2"), ("cookie", "c=3")])
    assert got["cookie"] == ["a=1; b=2; c=3"], got
    # One cookie field alone is as it came.
    assert seen(client, headers=[("cookie", "only=1")])["cookie"] == ["only=1"]
    client.close()


def test_starlette_reads_every_cookie_a_browser_split_over_http2(tmp_path):
    server = start(tmp_path, ASGI_SHAPES["inverted-uvloop"], "tests.integration.apps.field_apps:starlette")
    try:
        client = H2Client(server)
        r = client.get("/cookies", headers=[("cookie", "session=abc"), ("cookie", "theme=dark"), ("cookie", "lang=en")])
        assert r.status == 200
        assert json.loads(bytes(r.data)) == {"session": "abc", "theme": "dark", "lang": "en"}
        client.close()
    finally:
        server.stop()


def test_cookie_crumbs_count_as_one_field_against_max_headers(tmp_path):
    server = start(tmp_path, SHAPES["pool-4"], WSGI, "--max-headers", "10")
    try:
        client = H2Client(server)
        crumbs = [("cookie", f"c{i}={i}") for i in range(40)]
        got = seen(client, headers=[*crumbs, ("x-one", "1")])
        assert got["cookie"] == ["; ".join(f"c{i}={i}" for i in range(40))]
        client.close()
    finally:
        server.stop()


# --- host and :authority ----------------------------------------------------------


@pytest.mark.parametrize("host", ["b.example", "a.example:8080"])
def test_a_host_field_that_disagrees_with_authority_is_refused_before_the_app(server, host):
    mark = server.log_mark()
    raw = RawH2(server)
    raw.send(raw.headers(1, request("/seen", authority="a.example", extra=[("host", host)])))
    status, body, _ = raw.answer(1)
    assert status == 400 and b":authority and host disagree" in body, (status, body)
    assert calls(server) == []
    assert server.wait_for_log("rejected a request from 127.0.0.1", since=mark)
    assert "HTTP/2 stream 1" in server.log_since(mark)
    # The connection goes on: the same host in another case is the same host.
    raw.send(raw.headers(3, request("/seen", authority="a.example", extra=[("host", "A.Example")])))
    status, body, _ = raw.answer(3)
    assert status == 200 and json.loads(body)["host"] == ["A.Example"], (status, body)
    raw.close()


def test_without_a_host_field_the_app_gets_authority_as_its_host(server):
    client = H2Client(server)
    assert seen(client)["host"] == ["localhost"]
    client.close()


def test_userinfo_in_authority_is_refused_before_the_app(server):
    raw = RawH2(server)
    raw.send(raw.headers(1, request("/seen", authority="user:secret@a.example")))
    status, body, _ = raw.answer(1)
    assert status == 400 and b"userinfo" in body, (status, body)
    assert calls(server) == []
    raw.close()


# --- the field count -------------------------------------------------------------------


def test_max_headers_applies_over_http2_and_the_connection_serves_on(tmp_path):
    server = start(tmp_path, SHAPES["pool-4"], WSGI, "--max-headers", "20")
    try:
        client = H2Client(server)
        fields = [(f"x-field-{i}", f"value {i}") for i in range(21)]
        refused = client.get("/seen", headers=fields)
        assert refused.status == 431, refused
        assert b"--max-headers" in bytes(refused.data)
        # The same connection, the same fields (now in both sides' HPACK
        # tables), one fewer: served. The refused block was decoded whole.
        got = seen(client, headers=fields[:20])
        assert got["fields"] == 21, got  # the 20, and the host field :authority gives
        client.close()
        assert calls(server) == ["GET /seen"]
        assert server.wait_for_log("more header fields than --max-headers (431), HTTP/2 stream 1")
    finally:
        server.stop()


def test_the_default_max_headers_answers_150_fields_with_431_over_h2c(tmp_path):
    server = start(tmp_path, ASGI_SHAPES["inverted-uvloop"], ASGI)
    try:
        client = H2Client(server)
        assert client.get("/seen", headers=[(f"x-{i}", "v") for i in range(150)]).status == 431
        assert client.get("/seen", headers=[(f"x-{i}", "v") for i in range(99)]).status == 200
        client.close()
        assert calls(server) == ["GET /seen"]
    finally:
        server.stop()


# --- CONNECT --------------------------------------------------------------------------


def test_connect_over_http2_is_answered_501_by_the_core(server):
    raw = RawH2(server)
    raw.send(raw.headers(1, [(":method", "CONNECT"), (":authority", "example.com:443")]))
    status, body, _ = raw.answer(1)
    assert status == 501 and b"not a proxy" in body, (status, body)
    # The connection goes on.
    raw.send(raw.headers(3, request("/seen")))
    assert raw.answer(3)[0] == 200
    raw.close()
    assert calls(server) == ["GET /seen"]


def test_connect_over_http1_is_answered_501_by_the_core_and_the_connection_closes(server):
    mark = server.log_mark()
    sock = server.connect()
    sock.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
    status, headers, body, _ = read_response(sock)
    assert status == 501 and b"not a proxy" in body, (status, body)
    assert headers.get("connection") == "close"
    assert closed_by_peer(sock)
    sock.close()
    assert calls(server) == []
    assert server.wait_for_log("refused CONNECT example.com:443 from 127.0.0.1", since=mark)


# --- malformed requests (RFC 9113 8.1.1) ------------------------------------------------


def assert_reset_before_the_app(server, raw, sid, mark):
    status, _, reset = raw.answer(sid)
    assert reset == PROTOCOL_ERROR and status is None, (status, reset)
    assert calls(server) == []
    assert server.wait_for_log(f"malformed request from 127.0.0.1 on HTTP/2 stream {sid}", since=mark), \
        server.log_since(mark)


@pytest.mark.parametrize("body", [b"hello and more", b"hel"], ids=["longer", "shorter"])
def test_a_body_that_disagrees_with_its_content_length_is_reset_before_the_app(server, body):
    mark = server.log_mark()
    raw = RawH2(server)
    # The head and its whole body in one write: the stream is judged before dispatch.
    raw.send(raw.headers(1, request("/seen", "POST", extra=[("content-length", "5")]), end=False)
             + frame(DATA, END_STREAM, 1, body))
    assert_reset_before_the_app(server, raw, 1, mark)
    # The connection goes on.
    raw.send(raw.headers(3, request("/seen")))
    assert raw.answer(3)[0] == 200
    raw.close()


def test_a_padded_body_past_its_content_length_is_reset_before_the_app(server):
    # A padded frame's header does not tell its payload's length: nghttp2
    # finds the excess as it reads the payload and resets the stream itself;
    # that reset goes out before the read's streams are dispatched.
    mark = server.log_mark()
    raw = RawH2(server)
    padded = bytes([10]) + b"hello world" + bytes(10)  # pad length, data, padding
    raw.send(raw.headers(1, request("/seen", "POST", extra=[("content-length", "5")]), end=False)
             + frame(DATA, END_STREAM | 0x8, 1, padded))
    assert_reset_before_the_app(server, raw, 1, mark)
    raw.close()


@pytest.mark.parametrize("field", [("connection", "keep-alive"), ("keep-alive", "timeout=5"),
                                   ("proxy-connection", "keep-alive"), ("transfer-encoding", "chunked"),
                                   ("upgrade", "websocket"), ("te", "gzip")])
def test_a_connection_specific_field_is_a_malformed_request(server, field):
    mark = server.log_mark()
    raw = RawH2(server)
    raw.send(raw.headers(1, request("/seen", extra=[field])))
    assert_reset_before_the_app(server, raw, 1, mark)
    raw.close()


def test_te_trailers_is_the_one_te_a_request_may_carry(server):
    raw = RawH2(server)
    raw.send(raw.headers(1, request("/seen", extra=[("te", "trailers")])))
    assert raw.answer(1)[0] == 200
    raw.close()


def test_data_past_the_content_length_after_a_wsgi_read_resets_the_stream_not_a_clean_end(tmp_path):
    # The app reads the declared 5 bytes, then read() for the rest: the body
    # ends where the client ends the stream, and here it sends more instead.
    server = start(tmp_path, SHAPES["pool-4"], WSGI)
    try:
        mark = server.log_mark()
        raw = RawH2(server)
        raw.send(raw.headers(1, request("/read-all", "POST", extra=[("content-length", "5")]), end=False)
                 + frame(DATA, 0, 1, b"hello"))
        assert wait_until(lambda: "read 5" in calls(server)), calls(server)
        raw.send(frame(DATA, END_STREAM, 1, b"extra"))
        status, _, reset = raw.answer(1)
        assert reset == PROTOCOL_ERROR and status is None, (status, reset)
        assert server.wait_for_log("malformed request from 127.0.0.1 on HTTP/2 stream 1", since=mark)
        assert "content-length of 5" in server.log_since(mark)
        raw.close()
    finally:
        server.stop()


@pytest.mark.parametrize("shape", ["pump-uvloop", "inverted-uvloop"])
def test_an_asgi_app_that_reads_a_body_past_the_window_before_answering_gets_all_of_it(tmp_path, shape):
    # 1 MiB against a 256 KiB stream window: the app answers only once it
    # has every byte, and sends nothing meanwhile; its reads alone must
    # give the window back, or the client waits for ever.
    server = start(tmp_path, ASGI_SHAPES[shape], ASGI)
    try:
        client = H2Client(server)
        body = os.urandom(1 << 20)
        r = client.get("/read-all", method="POST", body=body, timeout=15)
        assert r.status == 200 and json.loads(bytes(r.data)) == {"first": len(body), "rest": 0}
        client.close()
    finally:
        server.stop()


def test_a_wsgi_read_to_the_end_of_a_whole_h2_body_returns_it_all(tmp_path):
    server = start(tmp_path, SHAPES["pool-4"], WSGI)
    try:
        client = H2Client(server)
        r = client.get("/read-all", method="POST", body=b"hello")
        assert r.status == 200 and json.loads(bytes(r.data)) == {"first": 5, "rest": 0}
        client.close()
    finally:
        server.stop()


def wait_until(predicate, timeout: float = 5.0) -> bool:
    import time
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
