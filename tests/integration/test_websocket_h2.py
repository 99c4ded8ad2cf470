"""WebSockets over HTTP/2 (RFC 8441) on real sockets: the server announces
SETTINGS_ENABLE_CONNECT_PROTOCOL, an extended CONNECT with :protocol
websocket becomes a WebSocket on its stream, the app sees the same
`websocket` scope as over HTTP/1.1 (http_version "2"), and messages,
permessage-deflate, pings, the close handshake, backpressure through the
stream's window, the drain's 1001 and the access log all work as they do
over HTTP/1.1, in both ASGI shapes, over h2c and TLS, beside ordinary
streams on the same connection. Clients: tests/integration/h2ws.py (the h2
library and websockets' frame codec) and Debian's Chromium."""

import json
import os
import signal
import struct
import time

import pytest
from websockets.frames import Opcode

from tests.conftest import ASGI_SHAPES, tls_args
from tests.integration.browser import chromium
from tests.integration.h2client import (
    DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, RST_STREAM, H2Client, frame, read_frames,
)
from tests.integration.h2ws import ENABLE_CONNECT_PROTOCOL, H2WebSocket
from tests.integration.server import Server
from tests.integration.test_http2_attacks import Raw, literal, request_block

APP = "tests.integration.apps.ws_apps:app"
SHAPES = {"pump": ASGI_SHAPES["pump-uvloop"], "inverted": ASGI_SHAPES["inverted-uvloop"]}


@pytest.fixture(params=[(shape, tls) for shape in SHAPES for tls in ("h2c", "tls")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def h2_ws(request, tls_certificates, tmp_path):
    shape, tls = request.param
    log = tmp_path / "access.log"
    record = tmp_path / "calls.log"
    args = ["--port", "0", "--interface", "asgi", *SHAPES[shape], "--access-log", "--access-logfile", str(log)]
    if tls == "tls":
        args += tls_args(tls_certificates)
    server = Server([*args, APP], env={"BATON_TEST_RECORD": str(record)}).start()
    server.access_log = log
    server.record = record
    server.tls = tls == "tls"
    yield server
    server.stop()


def client_for(server, **options) -> H2Client:
    return H2Client(server, tls=server.tls, **options)


def open_ws(server, client, path, **options) -> H2WebSocket:
    return H2WebSocket(client, path, scheme="https" if server.tls else "http", **options)


def wait_for_text(path, text, timeout=10.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        content = path.read_text() if path.exists() else ""
        if text in content:
            return content
        assert time.monotonic() < deadline, f"{text!r} never appeared in {path.name}: {content!r}"
        time.sleep(0.05)


def browser_report(server, url: str, profile_dir, **chromium_args) -> dict:
    """What the page at `url` (ws_apps' /browser) reports after its WebSocket exchange in Chromium,
    checked: every message echoed as sent, compressed."""
    try:
        with chromium(url, profile_dir, **chromium_args):
            content = wait_for_text(server.record, "report ", timeout=60)
    finally:
        server.stop()
    report = json.loads(next(line for line in content.splitlines() if line.startswith("report "))[len("report "):])
    assert report["same"], report
    assert report["binary"] == "1,2,3,250"
    assert report["extensions"].startswith("permessage-deflate"), report
    return report


def test_the_server_announces_extended_connect_only_when_it_serves_websockets(h2_ws):
    client = client_for(h2_ws)
    assert client.get("/stats").status == 200
    assert client.server_settings.get(ENABLE_CONNECT_PROTOCOL) == 1, client.server_settings
    client.close()
    wsgi = Server(["--port", "0", "tests.integration.apps.wire_apps:wsgi"]).start()
    try:
        plain = H2Client(wsgi)
        assert plain.get("/info").status == 200
        assert ENABLE_CONNECT_PROTOCOL not in plain.server_settings, "a WSGI server offered WebSockets over HTTP/2"
        plain.close()
    finally:
        wsgi.stop()


def test_a_websocket_rides_an_h2_stream_beside_ordinary_requests(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo?room=1", subprotocols=["chat"])
    assert ws.status == 200, ws.response.headers
    assert ws.response.header("sec-websocket-protocol") == "chat"
    assert ws.response.header("sec-websocket-accept") is None, "RFC 8441 answers carry no accept value"
    assert not ws.response.ended
    ws.send("hello over h2")
    assert ws.recv() == "hello over h2"
    big = os.urandom(200_000)  # past the stream's initial window, so the window must come back
    ws.send(big)
    assert ws.recv() == big
    # An ordinary stream on the same connection while the WebSocket is open.
    assert client.get("/stats").status == 200
    ws.send("after the other stream")
    assert ws.recv() == "after the other stream"
    # The close handshake: the server echoes the code, then ends the stream.
    ws.close(1000, "done")
    frame = ws.recv_frame()
    assert frame.opcode == Opcode.CLOSE and frame.data[:2] == (1000).to_bytes(2, "big")
    assert ws.ended(), "the server did not end the stream after the close handshake"
    # The client has not ended its side: the server tells it to stop
    # (RST_STREAM NO_ERROR after END_STREAM), so the stream is done.
    assert client.wait(lambda: client.responses[ws.sid].reset is not None)
    assert client.responses[ws.sid].reset == 0
    log = wait_for_text(h2_ws.access_log, "CONNECT /echo")
    line = next(line for line in log.splitlines() if "CONNECT /echo" in line)
    assert '"CONNECT /echo?room=1 HTTP/2.0" 200 ' in line, line
    client.close()


def test_the_scope_is_a_websocket_scope_with_http_version_2(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/scope?x=1")
    assert ws.status == 200
    assert ws.response.header("x-accepted") == "yes"
    scope = json.loads(ws.recv())
    assert scope["type"] == "websocket"
    assert scope["http_version"] == "2"
    assert scope["scheme"] == ("wss" if h2_ws.tls else "ws")
    assert scope["path"] == "/scope" and scope["query_string"] == "x=1"
    names = [name for name, _ in scope["headers"]]
    assert "sec-websocket-version" in names and not any(n.startswith(":") for n in names), names
    client.close()


def test_permessage_deflate_over_h2(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo", deflate=True)
    assert ws.status == 200
    assert (ws.response.header("sec-websocket-extensions") or "").startswith("permessage-deflate")
    text = "compressible " * 5000
    ws.send(text)
    frame = ws.recv_frame()
    assert frame.opcode == Opcode.TEXT and frame.data.decode() == text
    # The server compressed it: far fewer bytes came than the text has.
    assert ws.taken < len(text) // 4, ws.taken
    client.close()


def test_pings_are_answered_on_the_stream(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo")
    ws.send_frame(Opcode.PING, b"are you there")
    frame = ws.recv_frame()
    assert frame.opcode == Opcode.PONG and frame.data == b"are you there"
    client.close()


def test_the_apps_close_reaches_the_client_and_the_stream_ends(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo")
    ws.send("close please")
    frame = ws.recv_frame()
    assert frame.opcode == Opcode.CLOSE and frame.data[:2] == (4321).to_bytes(2, "big")
    assert frame.data[2:] == b"as asked"
    ws.close(4321)
    assert ws.ended()
    client.close()


def test_a_client_that_resets_the_stream_disconnects_the_app(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo")
    ws.send("one")
    assert ws.recv() == "one"
    client.conn.reset_stream(ws.sid)
    client.flush()
    wait_for_text(h2_ws.record, "disconnect 1006")
    assert client.get("/stats").status == 200, "the connection did not go on after the reset"
    client.close()


def test_a_slow_app_holds_back_its_stream_by_its_window(h2_ws):
    # /slow-reader?3 takes no message for 3 s, then all of them: the
    # client's flood stops at the stream's window (the app's queue full, the
    # rest held undecoded), which comes back once the app reads; nothing is lost.
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/slow-reader?3")
    chunk = b"x" * 16384
    sent = 0
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if client.conn.local_flow_control_window(ws.sid) < len(chunk) + 16:
            client.wait(lambda: False, 0.2)
            if client.conn.local_flow_control_window(ws.sid) < len(chunk) + 16:
                break
            continue
        ws.send(chunk)
        sent += 1
    assert client.conn.local_flow_control_window(ws.sid) < len(chunk) + 16, "the window never shut"
    assert sent * len(chunk) < 4 * 1024 * 1024, f"{sent} messages went in: nothing held the client back"
    # The server still serves the connection's other streams.
    assert client.get("/stats").status == 200
    assert client.wait(lambda: client.conn.local_flow_control_window(ws.sid) > 128 * 1024, 15), \
        "the window did not come back once the app read"
    ws.send("done")
    assert ws.recv() == f"got {sent + 1}"
    client.close()


def test_a_drain_closes_open_h2_websockets_with_1001(h2_ws):
    client = client_for(h2_ws)
    ws = open_ws(h2_ws, client, "/echo")
    ws.send("before the drain")
    assert ws.recv() == "before the drain"
    h2_ws.signal(signal.SIGTERM)
    # Read below the h2 library, which stops at the GOAWAY (the stream under
    # its last id goes on, RFC 9113 6.8).
    frames, _ = read_frames(client.sock, 3)
    kinds = [(kind, sid) for kind, _, sid, _ in frames]
    assert (GOAWAY, 0) in kinds, kinds
    data = b"".join(p for kind, _, sid, p in frames if kind == DATA and sid == ws.sid)
    assert data == b"\x88\x02" + (1001).to_bytes(2, "big"), data  # an unmasked close frame, code 1001
    ws.close(1001)  # the client's answer: the handshake is done, the stream ends, the server exits
    frames, closed = read_frames(client.sock, 10)
    assert any(kind == DATA and sid == ws.sid and flags & END_STREAM for kind, flags, sid, _ in frames), frames
    assert closed, "the connection stayed open after its last stream"
    assert h2_ws.proc.wait(15) == 0
    client.close()


def test_bad_extended_connects_get_a_clear_answer(h2_ws):
    client = client_for(h2_ws)
    bad_version = open_ws(h2_ws, client, "/echo", version="8")
    assert bad_version.status == 426
    other = open_ws(h2_ws, client, "/echo", protocol="not-a-protocol")
    assert other.status == 501
    assert client.get("/stats").status == 200
    client.close()


def test_protocol_on_a_get_is_malformed_and_resets_its_stream_only(h2_ws):
    # RFC 8441 section 4. By hand: the h2 library refuses to send it.
    if h2_ws.tls:
        pytest.skip("raw frames are sent over h2c")
    raw = Raw(h2_ws)
    block = request_block(b"/echo") + literal(b":protocol", b"websocket")
    raw.send(frame(HEADERS, END_HEADERS | END_STREAM, 1, block))
    raw.send(frame(HEADERS, END_HEADERS | END_STREAM, 3, request_block(b"/stats")))
    frames, _ = read_frames(raw.sock, 3)
    resets = [struct.unpack(">I", p[:4])[0] for kind, _, sid, p in frames if kind == RST_STREAM and sid == 1]
    assert resets == [1], frames  # PROTOCOL_ERROR
    assert any(kind == HEADERS and sid == 3 for kind, _, sid, _ in frames), "the next stream was not answered"
    raw.close()


def test_chromium_opens_its_websocket_on_the_http2_connection(tls_certificates, tmp_path):
    log = tmp_path / "access.log"
    record = tmp_path / "calls.log"
    server = Server(["--port", "0", "--interface", "asgi", *SHAPES["inverted"], *tls_args(tls_certificates),
                     "--access-log", "--access-logfile", str(log), APP],
                    env={"BATON_TEST_RECORD": str(record)}).start()
    server.record = record
    report = browser_report(server, f"{server.url}/browser", tmp_path / "profile")
    assert report["scheme"] == "wss"
    access = log.read_text()
    # The page came over HTTP/2, and its WebSocket rode that connection as
    # an extended CONNECT (over HTTP/1.1 it would be "GET /echo HTTP/1.1" 101).
    assert '"GET /browser HTTP/2.0" 200 ' in access, access
    assert '"CONNECT /echo HTTP/2.0" 200 ' in access, access


@pytest.mark.parametrize("shape", list(SHAPES))
def test_an_app_that_never_accepts_gets_its_stream_a_504(shape):
    server = Server(["--port", "0", "--interface", "asgi", *SHAPES[shape], "--ws-handshake-timeout", "0.5", APP]).start()
    try:
        client = H2Client(server)
        t0 = time.monotonic()
        ws = H2WebSocket(client, "/never-accept")
        assert ws.status == 504
        assert time.monotonic() - t0 < 3
        assert client.get("/stats").status == 200, "the connection did not go on"
        client.close()
    finally:
        server.stop()
