"""WebSockets over real sockets, in both ASGI shapes and on both loops
(parametrized, not copied): the handshake and its refusals, messages both
ways with and without compression, the scope, the close handshake both
ways, pings, every protocol error's close code, apps that raise or hang,
backpressure both ways, shutdown and reload with open WebSockets, the
access log, and WebSockets off. Clients: websockets (PyPI's, pinned in
tools/locks/test.txt), wsproto (Debian's), and raw sockets where a client
library would refuse to misbehave."""

import base64
import json
import os
import signal
import socket
import struct
import threading
import time
from urllib.parse import urlsplit

import psutil
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect as websockets_connect

from tests.conftest import ASGI_SHAPES, tls_args
from tests.integration.browser import chromium
from tests.integration.server import Server, read_response
from tests.integration.tls import client_context, settled_tls_socket

APP = "tests.integration.apps.ws_apps:app"
FRAMEWORKS = "tests.integration.apps.frameworks_asgi"
KEY = base64.b64encode(b"0123456789abcdef").decode()
# Under make asan-pytest the sanitizers' quarantine holds freed memory: the
# memory bounds are not measurable there (what is sent and lost still is).
SANITIZED = bool(os.environ.get("BATON_TEST_SANITIZER_REPORTS"))


# Every shape, and one again over TLS (wss).
WS_SHAPES = [*ASGI_SHAPES, "inverted-uvloop-tls"]


@pytest.fixture(scope="module", params=WS_SHAPES)
def ws_shape(request) -> list[str]:
    if request.param.endswith("-tls"):
        return [*ASGI_SHAPES[request.param.removesuffix("-tls")], *tls_args(request.getfixturevalue("tls_certificates"))]
    return ASGI_SHAPES[request.param]


def connect(uri: str, **options):
    """websockets' client, trusting any certificate for wss:// (the test CA's server). Over
    TLS its socket comes ready (see settled_tls_socket: the client's own thread race)."""
    if uri.startswith("wss://") and "sock" not in options:
        address = urlsplit(uri)
        sock = settled_tls_socket(address.hostname, address.port, options.pop("ssl", None))
        # ws:// over a socket that is TLS already: websockets must not wrap it again.
        return websockets_connect("ws://" + uri.removeprefix("wss://"), sock=sock, **options)
    return websockets_connect(uri, **options)


@pytest.fixture
def start_ws(ws_shape, tmp_path):
    servers = []

    def start(*args, app=APP):
        record = tmp_path / f"calls-{len(servers)}.log"
        server = Server(["--port", "0", "--interface", "asgi", *ws_shape, *args, app],
                        env={"BATON_TEST_RECORD": str(record)}).start()
        server.record = record
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def ws_server(start_ws):
    return start_ws()


def calls(server) -> list[str]:
    try:
        return server.record.read_text().splitlines()
    except FileNotFoundError:
        return []


def wait_for_call(server, prefix: str, timeout: float = 5.0) -> str | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in calls(server):
            if line.startswith(prefix):
                return line
        time.sleep(0.02)
    return None


def url(server, path: str) -> str:
    return f"{'wss' if server.scheme == 'https' else 'ws'}://127.0.0.1:{server.port}{path}"


# --- a raw client ---------------------------------------------------------------

def frame(op: int, payload: bytes = b"", fin: bool = True, masked: bool = True, rsv1: bool = False) -> bytes:
    head = bytes([(0x80 if fin else 0) | (0x40 if rsv1 else 0) | op])
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def opening(path: str, extra: str = "", version: str = "13", key: str = KEY, http: str = "HTTP/1.1") -> bytes:
    return (f"GET {path} {http}\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: {version}\r\n{extra}\r\n").encode()


class RawClient:
    """A WebSocket client that sends whatever it is told to, and reads frames."""

    def __init__(self, server, path: str, extra: str = ""):
        self.sock = server.connect()
        self.sock.sendall(opening(path, extra))
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        self.head = head.decode("latin-1")

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        i = self.buffer.index(marker) + len(marker)
        out, self.buffer = self.buffer[:i], self.buffer[i:]
        return out

    def _read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read_frame(self, timeout: float = 5.0) -> tuple[int, bytes]:
        self.sock.settimeout(timeout)
        b0, b1 = self._read_exact(2)
        assert b1 & 0x80 == 0, "a server frame was masked"
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._read_exact(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._read_exact(8))[0]
        return b0 & 0x0F, self._read_exact(n)

    def read_close(self, timeout: float = 5.0) -> tuple[int, bytes]:
        """The close frame's code and reason, skipping what comes before it."""
        deadline = time.monotonic() + timeout
        while True:
            op, payload = self.read_frame(max(0.1, deadline - time.monotonic()))
            if op == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                return code, payload[2:]

    def closed_by_server(self, timeout: float = 5.0) -> bool:
        self.sock.settimeout(timeout)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def close(self) -> None:
        self.sock.close()


# --- the handshake ----------------------------------------------------------------

def test_messages_flow_both_ways_with_the_subprotocol_and_compression(ws_server):
    with connect(url(ws_server, "/echo"), subprotocols=["chat"], compression="deflate") as ws:
        assert ws.subprotocol == "chat"
        extensions = ws.response.headers.get("sec-websocket-extensions", "")
        assert extensions.startswith("permessage-deflate"), extensions
        ws.send("hello")
        assert ws.recv(timeout=5) == "hello"
        ws.send(b"\x00\xff" * 3000)
        assert ws.recv(timeout=5) == b"\x00\xff" * 3000
        ws.send("")
        assert ws.recv(timeout=5) == "", "an empty message was dropped"
        big = "é" * 300_000
        ws.send(big)
        assert ws.recv(timeout=10) == big
    assert wait_for_call(ws_server, "disconnect") == "disconnect 1000 ''"


def test_a_large_payload_is_held_until_written_then_let_go(ws_server):
    """A large bytes and str go out from the app's objects (no copy): the
    server holds a reference on each from its send() until the loop has
    written it, and none after."""
    with connect(url(ws_server, "/in-place"), compression=None, max_size=None) as ws:
        assert ws.recv(timeout=5) == b"p" * 100_000
        assert ws.recv(timeout=5) == "\u00e9\u2713" * 20_000
        ws.send("got both")
        report = json.loads(ws.recv(timeout=5))
    assert report == {"held": [1, 1], "after": [0, 0]}, report


def kept_references(server) -> bytes:
    with server.connect() as s:
        s.sendall(b"GET /kept HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        status, _, body, _ = read_response(s)
    assert status == 200
    return body


def test_a_payload_still_queued_when_the_app_returns_is_let_go_once_written(ws_server):
    """The app sends 5 MB to a client that reads it slowly through a small
    receive buffer (so the kernel holds at most its send buffer's 4 MB),
    and returns with part of it still queued (the connection's queue
    points into it): the server lets go of it once it is all written."""
    if ws_server.scheme == "https":
        pytest.skip("a plain socket read slowly: the same bridge over TLS")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: no autotuning
    sock.settimeout(10)
    sock.connect(("127.0.0.1", ws_server.port))
    with sock:
        sock.sendall(opening("/send-and-return"))
        got = b""
        while b"\r\n\r\n" not in got:
            got += sock.recv(4096)
        assert got.startswith(b"HTTP/1.1 101"), got
        left = 5_000_000 + 10 - (len(got) - got.index(b"\r\n\r\n") - 4)
        while left > 0:
            chunk = sock.recv(65536)
            assert chunk, "the connection ended before the payload"
            left -= len(chunk)
            time.sleep(0.001)
    # The next request's turn lets go of what an ended one left queued,
    # before that request runs.
    assert kept_references(ws_server) == b"0", "the server still holds the payload"


def test_without_compression_offered_none_is_agreed(ws_server):
    with connect(url(ws_server, "/echo"), compression=None) as ws:
        assert "sec-websocket-extensions" not in ws.response.headers
        ws.send("plain")
        assert ws.recv(timeout=5) == "plain"


def test_compression_can_be_turned_off(start_ws):
    server = start_ws("--no-ws-per-message-deflate")
    with connect(url(server, "/echo"), compression="deflate") as ws:
        assert "sec-websocket-extensions" not in ws.response.headers
        ws.send("x" * 1000)
        assert ws.recv(timeout=5) == "x" * 1000


def test_the_scope_has_every_key_the_spec_names(ws_server):
    with connect(url(ws_server, "/scope?a=1"), subprotocols=["one", "two"]) as ws:
        assert ws.response.headers["x-accepted"] == "yes"
        assert ws.subprotocol is None
        scope = json.loads(ws.recv(timeout=5))
    # ("state" too when a lifespan gives one: this app's gives none.)
    assert set(scope) >= {"type", "asgi", "http_version", "scheme", "path", "raw_path", "query_string",
                          "root_path", "headers", "client", "server", "subprotocols", "extensions"}
    assert scope["type"] == "websocket"
    assert scope["asgi"] == {"version": "3.0", "spec_version": "2.5"}
    secure = ws_server.scheme == "https"
    assert scope["scheme"] == ("wss" if secure else "ws")
    assert ("tls" in scope["extensions"]) == secure
    if secure:
        assert scope["extensions"]["tls"]["tls_version"] == 0x0304
    assert scope["path"] == "/scope" and scope["raw_path"] == "/scope" and scope["query_string"] == "a=1"
    assert scope["subprotocols"] == ["one", "two"]
    assert "websocket.http.response" in scope["extensions"]
    assert scope["client"][0] == "127.0.0.1"
    assert "method" not in scope
    assert ["upgrade", "websocket"] in scope["headers"]


def test_a_trusted_proxys_https_makes_the_scheme_wss(ws_server):
    with connect(url(ws_server, "/scope"), additional_headers={"X-Forwarded-Proto": "https"}) as ws:
        assert json.loads(ws.recv(timeout=5))["scheme"] == "wss"
    if ws_server.scheme == "https":  # and its http over TLS is plain ws: the proxy's word goes
        with connect(url(ws_server, "/scope"), additional_headers={"X-Forwarded-Proto": "http"}) as ws:
            assert json.loads(ws.recv(timeout=5))["scheme"] == "ws"


def test_the_wsproto_client_talks_to_it_too(ws_server):
    import wsproto
    from wsproto.events import AcceptConnection, BytesMessage, CloseConnection, Request, TextMessage

    sock = ws_server.connect()
    conn = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
    sock.sendall(conn.send(Request(host="t", target="/echo")))
    events = []

    def pump(until):
        deadline = time.monotonic() + 5
        while not any(isinstance(e, until) for e in events) and time.monotonic() < deadline:
            conn.receive_data(sock.recv(65536))
            events.extend(conn.events())

    pump(AcceptConnection)
    sock.sendall(conn.send(TextMessage(data="from wsproto")) + conn.send(BytesMessage(data=b"\x01\x02")))
    pump(BytesMessage)
    assert [e.data for e in events if isinstance(e, (TextMessage, BytesMessage))] == ["from wsproto", b"\x01\x02"]
    sock.sendall(conn.send(CloseConnection(code=1000)))
    pump(CloseConnection)
    sock.close()


def test_a_close_before_accept_is_refused_with_403(ws_server):
    with pytest.raises(InvalidStatus) as refused:
        connect(url(ws_server, "/close-before-accept"))
    assert refused.value.response.status_code == 403


def test_the_denial_response_goes_out_as_the_app_wrote_it(ws_server):
    with pytest.raises(InvalidStatus) as refused:
        connect(url(ws_server, "/deny"))
    assert refused.value.response.status_code == 401
    assert refused.value.response.body == b"go away"


def test_an_app_that_raises_before_accept_gives_500_and_a_traceback(ws_server):
    with pytest.raises(InvalidStatus) as refused:
        connect(url(ws_server, "/raise-before-accept"))
    assert refused.value.response.status_code == 500
    assert ws_server.wait_for_log("refused by raising")
    assert "/raise-before-accept" in ws_server.log


def test_an_app_that_raises_after_accept_closes_with_1011_and_a_traceback(ws_server):
    with connect(url(ws_server, "/raise-after-accept")) as ws:
        ws.send("trigger")
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 1011
    assert ws_server.wait_for_log("broken after accept")
    assert "GET /raise-after-accept from 127.0.0.1" in ws_server.log


def test_an_app_that_returns_after_accept_closes_with_1000(ws_server):
    with connect(url(ws_server, "/return-after-accept")) as ws:
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 1000


def test_an_app_that_never_accepts_times_out_with_504(start_ws):
    server = start_ws("--ws-handshake-timeout", "0.5")
    t0 = time.monotonic()
    with pytest.raises(InvalidStatus) as refused:
        connect(url(server, "/never-accept"), open_timeout=5)
    assert refused.value.response.status_code == 504
    assert time.monotonic() - t0 < 3


@pytest.mark.parametrize("request_bytes, status", [
    (opening("/echo", version="8"), 426),
    (opening("/echo", key="c2hvcnQ="), 400),
    (opening("/echo", key=base64.b64encode(b"123456789").decode()), 400),
    (opening("/echo", http="HTTP/1.0"), 400),
    (b"GET /echo HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nSec-WebSocket-Key: " + KEY.encode()
     + b"\r\nSec-WebSocket-Version: 13\r\n\r\n", 400),
], ids=["version-8", "short-key", "nine-byte-key", "http-1.0", "no-connection-upgrade"])
def test_a_malformed_opening_is_refused_without_the_app(ws_server, request_bytes, status):
    s = ws_server.connect()
    s.sendall(request_bytes)
    got, headers, _, _ = read_response(s)
    assert got == status
    if status == 426:
        assert headers["sec-websocket-version"] == "13"
    time.sleep(0.1)
    assert not any(line.startswith("disconnect") for line in calls(ws_server)), "it reached the app"


def test_with_ws_none_an_upgrade_is_a_plain_request(start_ws):
    server = start_ws("--ws", "none")
    s = server.connect()
    s.sendall(opening("/echo"))
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body) == {"path": "/echo", "upgrade": "websocket"}


# --- the close, both ways -----------------------------------------------------------

def test_the_apps_close_code_and_reason_reach_the_client(ws_server):
    with connect(url(ws_server, "/echo")) as ws:
        ws.send("close please")
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert (ws.close_code, ws.close_reason) == (4321, "as asked")


def test_the_clients_close_code_and_reason_reach_the_app(ws_server):
    ws = connect(url(ws_server, "/echo"), legacy=True)
    ws.close(4000, "client says bye")
    assert wait_for_call(ws_server, "disconnect") == "disconnect 4000 'client says bye'"


def test_a_close_without_a_code_reaches_the_app_as_1005(ws_server):
    c = RawClient(ws_server, "/echo")
    c.send(frame(0x8))
    assert c.read_close() == (1005, b"")
    assert wait_for_call(ws_server, "disconnect") == "disconnect 1005 ''"


def test_a_client_that_drops_the_connection_gives_the_app_1006(ws_server):
    c = RawClient(ws_server, "/echo")
    c.send(frame(0x1, b"one"))
    assert c.read_frame() == (0x1, b"one")
    c.close()
    assert wait_for_call(ws_server, "disconnect") == "disconnect 1006 ''"


def test_a_send_after_the_disconnect_raises_the_oserror_http_uses_and_is_not_logged(ws_server):
    ws = connect(url(ws_server, "/send-after-disconnect"), legacy=True)
    ws.close()
    line = wait_for_call(ws_server, "send after disconnect")
    assert line == "send after disconnect: ClientDisconnected oserror=True", line
    time.sleep(0.2)
    assert "Traceback" not in ws_server.log


# --- the core's own frames ------------------------------------------------------------

def test_a_ping_is_answered_with_its_payload(ws_server):
    c = RawClient(ws_server, "/echo")
    c.send(frame(0x9, b"are you there"))
    assert c.read_frame() == (0xA, b"are you there")
    c.send(frame(0x1, b"still here"))
    assert c.read_frame() == (0x1, b"still here")


def test_the_server_pings_and_closes_with_1011_when_no_pong_comes(start_ws):
    server = start_ws("--ws-ping-interval", "0.2", "--ws-ping-timeout", "0.4")
    c = RawClient(server, "/wait")
    op, payload = c.read_frame(timeout=3)
    assert op == 0x9, "no ping"
    # Answered: the connection stays.
    c.send(frame(0xA, payload))
    op, payload = c.read_frame(timeout=3)
    assert op == 0x9
    # Unanswered: closed with 1011.
    code, _ = c.read_close(timeout=3)
    assert code == 1011
    assert c.closed_by_server()
    assert wait_for_call(server, "disconnect") == "disconnect 1011 'keepalive ping timeout'"


@pytest.mark.parametrize("bad, code", [
    (frame(0x1, b"x", masked=False), 1002),
    (frame(0x1, b"x", rsv1=True), 1002),
    (frame(0x3, b"x"), 1002),
    (frame(0x9, b"p" * 126), 1002),
    (frame(0x9, b"p", fin=False), 1002),
    (frame(0x0, b"x"), 1002),
    (frame(0x1, b"a", fin=False) + frame(0x1, b"b"), 1002),
    (frame(0x1, "κόσμε".encode() + b"\xed\xa0\x80"), 1007),
    (frame(0x8, struct.pack(">H", 1000) + b"\xff"), 1007),
    (frame(0x8, struct.pack(">H", 999)), 1002),
], ids=["unmasked", "rsv1", "reserved-opcode", "long-control", "fragmented-control", "lone-continuation",
        "data-inside-message", "text-not-utf8", "reason-not-utf8", "bad-close-code"])
def test_each_protocol_error_closes_with_its_code_then_the_connection(ws_server, bad, code):
    c = RawClient(ws_server, "/echo")
    c.send(bad)
    assert c.read_close()[0] == code
    assert c.closed_by_server(), "the TCP connection stayed open after the close"
    assert wait_for_call(ws_server, "disconnect") == f"disconnect {code} ''"


def test_a_message_over_the_size_limit_closes_with_1009(start_ws):
    server = start_ws("--ws-max-size", "1000")
    c = RawClient(server, "/echo")
    c.send(frame(0x2, b"a" * 600, fin=False) + frame(0x0, b"b" * 600))
    assert c.read_close()[0] == 1009
    assert c.closed_by_server()


def test_a_compressed_message_that_inflates_past_the_limit_closes_with_1009(start_ws):
    import zlib

    server = start_ws("--ws-max-size", "100000")
    c = RawClient(server, "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")
    assert "permessage-deflate" in c.head
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = squeeze.compress(b"\0" * 10_000_000) + squeeze.flush(zlib.Z_SYNC_FLUSH)
    assert len(bomb) < 20_000
    c.send(frame(0x2, bomb[:-4], rsv1=True))
    assert c.read_close()[0] == 1009


def test_a_compressed_text_message_that_inflates_to_invalid_utf8_closes_with_1007(ws_server):
    import zlib

    c = RawClient(ws_server, "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")
    assert "permessage-deflate" in c.head
    # Valid UTF-8, then a UTF-16 surrogate's encoding (never valid UTF-8),
    # deflated as the extension frames it (RFC 7692 7.2.1: the flush's
    # trailing 00 00 ff ff left off). The deflate stream itself is sound:
    # only the text it inflates to is wrong.
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    text = squeeze.compress("κόσμε".encode() + b"\xed\xa0\x80") + squeeze.flush(zlib.Z_SYNC_FLUSH)
    assert text.endswith(b"\x00\x00\xff\xff")
    c.send(frame(0x1, text[:-4], rsv1=True))
    # The close is the first frame back: the echo app never got the message.
    op, payload = c.read_frame()
    assert op == 0x8 and struct.unpack(">H", payload[:2])[0] == 1007, (op, payload)
    assert c.closed_by_server(), "the TCP connection stayed open after the close"
    assert wait_for_call(ws_server, "disconnect") == "disconnect 1007 ''"


def compressed_echo(server, text: bytes) -> bytes:
    """The payload of the server's echo of `text`, with compression agreed."""
    c = RawClient(server, "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")
    assert "permessage-deflate" in c.head
    c.send(frame(0x1, text))
    op, payload = c.read_frame()
    c.close()
    assert op == 0x1
    return payload


@pytest.mark.parametrize("level", [None, 9])
def test_messages_are_compressed_at_the_operators_level(start_ws, level):
    import zlib

    # JSON-like text whose size at level 1 and at level 9 differ: 16 KiB of
    # records with changing numbers.
    text = b"[" + b", ".join(b'{"id": %d, "name": "user-%d", "score": %d}' % (i, i * 7 % 1000, i * 37 % 997)
                             for i in range(400)) + b"]"
    server = start_ws(*(["--ws-deflate-level", str(level)] if level else []))
    payload = compressed_echo(server, text)

    # Baton's compressor: raw deflate, a 4 KiB window, memLevel 5, the sync
    # flush's tail left off (RFC 7692 7.2.1). The same zlib gives the same
    # bytes for the same level, so the payload names the level it was made at.
    def at(lvl: int) -> bytes:
        squeeze = zlib.compressobj(lvl, zlib.DEFLATED, -12, 5)
        return (squeeze.compress(text) + squeeze.flush(zlib.Z_SYNC_FLUSH))[:-4]

    assert at(1) != at(9)
    assert payload == at(level or 1), (len(payload), len(at(1)), len(at(9)))
    assert zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff") == text


# --- backpressure -------------------------------------------------------------------

def rss(server) -> int:
    return psutil.Process(server.proc.pid).memory_info().rss


def test_a_client_flooding_a_slow_app_costs_bounded_memory_and_loses_nothing(ws_server):
    c = RawClient(ws_server, "/slow-reader?3")
    before = rss(ws_server)
    payload = b"m" * 65536
    sent = 0

    def flood():
        nonlocal sent
        try:
            for _ in range(400):  # 25 MiB while the app takes nothing
                c.send(frame(0x2, payload))
                sent += 1
            c.send(frame(0x1, b"done"))
        except OSError:
            pass

    t = threading.Thread(target=flood)
    t.start()
    time.sleep(2)
    peak = rss(ws_server) - before
    assert sent < 400, "the server read everything the slow app had not taken"
    assert SANITIZED or peak < 16 << 20, f"the server grew by {peak >> 20} MiB for a slow app"
    t.join(30)
    op, payload = c.read_frame(timeout=20)
    assert (op, payload) == (0x1, b"got 401"), "messages were lost"


def test_an_app_sending_to_a_client_that_does_not_read_waits_with_bounded_memory(ws_server):
    c = RawClient(ws_server, "/flood")
    before = rss(ws_server)
    time.sleep(1.5)
    sent = [line for line in calls(ws_server) if line.startswith("flood sent")]
    assert sent and len(sent) < 200, f"send() did not wait for the client: {len(sent)} of 512 went out"
    assert SANITIZED or rss(ws_server) - before < 24 << 20
    c.close()
    assert wait_for_call(ws_server, "flood stopped at")


# --- shutdown, reload, the access log -------------------------------------------------

def test_sigterm_closes_open_websockets_with_1001_and_the_drain_ends_with_them(ws_server):
    clients = [connect(url(ws_server, "/wait"), legacy=True) for _ in range(5)]
    t0 = time.monotonic()
    ws_server.signal(signal.SIGTERM)
    for ws in clients:
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 1001
    assert ws_server.wait(5) == 0
    assert time.monotonic() - t0 < 3, "the drain waited for its budget, not for the close handshakes"
    assert calls(ws_server).count("disconnect 1001 ''") == 5


def test_a_reload_closes_open_websockets_with_1012(ws_server):
    ws = connect(url(ws_server, "/wait"), legacy=True)
    ws_server.signal(signal.SIGHUP)
    with pytest.raises(ConnectionClosed):
        ws.recv(timeout=5)
    assert ws.close_code == 1012, (ws.close_code, ws.close_reason)
    assert wait_for_call(ws_server, "disconnect") == "disconnect 1012 ''"
    # The reloaded server serves new WebSockets.
    deadline = time.monotonic() + 10
    while True:
        try:
            with connect(url(ws_server, "/echo")) as again:
                again.send("after")
                assert again.recv(timeout=5) == "after"
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_the_access_log_has_one_line_per_websocket_when_it_closes(start_ws):
    server = start_ws("--access-log", "--access-log-format", "WS %(r)s %(s)s out=%(B)s in=%(R)s %(D)sus")
    with connect(url(server, "/echo"), compression=None) as ws:
        ws.send("x" * 100)
        ws.recv(timeout=5)
        time.sleep(0.2)
        assert "WS GET /echo" not in server.log, "logged before the WebSocket closed"
    assert server.wait_for_log("WS GET /echo HTTP/1.1 101")
    line = next(line for line in server.log.splitlines() if "WS GET /echo" in line)
    out_bytes = int(line.split("out=")[1].split()[0])
    in_bytes = int(line.split("in=")[1].split()[0])
    assert out_bytes > 100 and in_bytes > 100, line


# --- frameworks, and many at once ---------------------------------------------------

@pytest.mark.parametrize("app", [f"{FRAMEWORKS}:starlette_app", f"{FRAMEWORKS}:fastapi_app"],
                         ids=["starlette", "fastapi"])
def test_framework_websocket_routes(start_ws, app):
    server = start_ws(app=app)
    with connect(url(server, "/ws")) as ws:
        ws.send("framework")
        assert ws.recv(timeout=5) == "echo: framework"
    with pytest.raises(InvalidStatus) as refused:
        connect(url(server, "/no-such-socket"))
    assert refused.value.response.status_code == 403


def test_many_websockets_at_once_each_get_only_their_own_messages(ws_server):
    errors = []

    def client(n: int):
        try:
            ws = connect(url(ws_server, "/echo"), compression="deflate" if n % 2 else None, legacy=True)
            for i in range(20):
                text = f"client {n} message {i} " + "p" * (n * 37 % 500)
                ws.send(text)
                got = ws.recv(timeout=10)
                if got != text:
                    errors.append(f"{n}/{i}: got {got[:40]!r}")
                    return
            if n % 5 == 0:
                ws.socket.shutdown(socket.SHUT_RDWR)  # dropped, not closed
                ws.socket.close()
            else:
                ws.close()
        except Exception as error:  # noqa: BLE001
            errors.append(f"{n}: {error!r}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:5]
    deadline = time.monotonic() + 5
    while len([line for line in calls(ws_server) if line.startswith("disconnect")]) < 60:
        assert time.monotonic() < deadline, "some app never saw its disconnect"
        time.sleep(0.05)


# --- a real browser ---------------------------------------------------------------

def test_chromium_exchanges_compressed_messages_with_a_page_it_served(ws_server, tmp_path):
    with chromium(f"{ws_server.url}/browser", tmp_path / "profile"):
        line = wait_for_call(ws_server, "report ", timeout=60)
    assert line, "the page never reported"
    result = json.loads(line[len("report "):])
    assert result["same"], result
    assert result["binary"] == "1,2,3,250"
    assert result["extensions"].startswith("permessage-deflate"), result
    assert result["scheme"] == ("wss" if ws_server.scheme == "https" else "ws")


# --- workers, and WSGI -----------------------------------------------------------

def test_websockets_are_served_by_workers_under_a_master(start_ws):
    server = start_ws("--workers", "2")
    for n in range(4):  # whichever worker accepts
        with connect(url(server, "/echo")) as ws:
            ws.send(f"worker round {n}")
            assert ws.recv(timeout=5) == f"worker round {n}"


def test_a_wsgi_app_gets_an_upgrade_request_as_a_plain_request():
    server = Server(["--port", "0", "tests.integration.apps.wsgi_apps:app"]).start()
    try:
        s = server.connect()
        s.sendall(opening("/echo"))
        status, headers, body, _ = read_response(s)
        assert status == 200, "a WSGI app's server switched protocols"
        seen = json.loads(body)["headers"]
        assert seen["HTTP_UPGRADE"] == "websocket" and seen["HTTP_SEC_WEBSOCKET_KEY"] == KEY
    finally:
        server.stop()


# --- Django Channels ------------------------------------------------------------

def test_django_channels_consumers_async_and_sync(start_ws):
    server = start_ws(app="tests.integration.apps.channels_app:application")
    with connect(url(server, "/ws/async/"), subprotocols=["chat"], compression="deflate") as ws:
        assert ws.subprotocol == "chat"
        ws.send("hello")
        assert ws.recv(timeout=5) == "async /ws/async/: hello"
        ws.send(b"\x01\x02\x03")
        assert ws.recv(timeout=5) == b"\x03\x02\x01"
        ws.send("close")
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 4001
    with connect(url(server, "/ws/sync/")) as ws:
        for i in range(3):
            ws.send(f"m{i}")
            assert ws.recv(timeout=5) == f"sync: m{i}"
    with pytest.raises(InvalidStatus) as refused:  # a close before the accept
        connect(url(server, "/ws/sync/?refuse"))
    assert refused.value.response.status_code == 403
    # HTTP goes to Django's own handler in the same router.
    s = server.connect()
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    status, _, body, _ = read_response(s)
    s.close()
    assert status == 200 and b"django on baton" in body, body
