"""The HTTP/2 attack classes, each sent for real over h2c by a raw-frame client
(tests/integration/h2client.py). For each: the attacker's connection is cut
(or its stream reset) within bounds, nothing of the attack reaches the app
(every app call is recorded in BATON_TEST_RECORD, one line per path), and a
well-behaved client on another connection is served meanwhile and after."""

import os
import socket
import struct
import time

import hpack
import psutil
import pytest

from tests.conftest import ASGI_SHAPES, SHAPES
from tests.integration.h2client import (
    CONTINUATION, DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, PING, RST_STREAM, SETTINGS, H2Client, frame,
    read_frames,
)
from tests.integration.server import Server

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SERVED = {"pool-4": (SHAPES["pool-4"], "tests.integration.apps.wire_apps:wsgi"),
          "inverted": (ASGI_SHAPES["inverted-uvloop"], "tests.integration.apps.wire_apps:asgi")}
ENHANCE_YOUR_CALM, PROTOCOL_ERROR = 0xb, 0x1


@pytest.fixture(params=list(SERVED))
def server(request, tmp_path):
    args, app = SERVED[request.param]
    record = tmp_path / "calls.log"
    s = Server(["--port", "0", *args, "--write-timeout", "2", "--keep-alive-timeout", "2", app],
               env={"BATON_TEST_RECORD": str(record)}).start()
    s.record = record
    yield s
    s.stop()


def calls(server) -> list[str]:
    return server.record.read_text().splitlines() if server.record.exists() else []


def integer(value: int, prefix_bits: int, first: int) -> bytes:
    """An HPACK integer (RFC 7541 5.1) with the first byte's high bits `first`."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = bytearray([first | limit])
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def literal(name: bytes, value: bytes, indexing: bool = False) -> bytes:
    """A literal field with a new name (RFC 7541 6.2.1 / 6.2.2), not Huffman-coded."""
    return (b"\x40" if indexing else b"\x00") + integer(len(name), 7, 0) + name + integer(len(value), 7, 0) + value


def request_block(path: bytes, method: bytes = b"GET") -> bytes:
    """The pseudo-fields of a request, as literals (no dynamic table entries)."""
    return (literal(b":method", method) + literal(b":scheme", b"http") + literal(b":path", path)
            + literal(b":authority", b"localhost"))


class Raw:
    """A connection that speaks HTTP/2 by hand: the preface, then whatever frames it is given."""

    def __init__(self, server):
        self.sock = socket.create_connection((server.host, server.port), timeout=10)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0))

    def send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # cut off while sending: what the tests look for afterwards

    def goaway_or_close(self, timeout: float = 10.0) -> int | None:
        """Reads until the server ends the connection: its GOAWAY's error code, or None (closed without one)."""
        frames, closed = read_frames(self.sock, timeout)
        codes = [struct.unpack(">I", payload[4:8])[0] for kind, _, _, payload in frames if kind == GOAWAY]
        assert closed, f"the server kept the connection open past {timeout} s (GOAWAY codes {codes})"
        return codes[-1] if codes else None

    def close(self) -> None:
        self.sock.close()


def assert_others_served(server) -> None:
    client = H2Client(server)
    sid = client.request("/info")
    assert client.wait(lambda: client.finished(sid), 5), f"another client was not served:\n{server.log[-2000:]}"
    r = client.responses[sid]
    assert r.status == 200 and (b"HTTP/2.0" in r.data or b'"http_version": "2"' in r.data)
    client.close()


def rapid_resets(count: int) -> bytes:
    """`count` streams, each opened and reset at once (CVE-2023-44487)."""
    return b"".join(frame(HEADERS, END_HEADERS | END_STREAM, sid, request_block(b"/slow?ms=500"))
                    + frame(RST_STREAM, 0, sid, struct.pack(">I", 8)) for sid in range(1, 2 * count, 2))


def test_rapid_reset_is_cut_off_and_the_reset_streams_never_reach_the_app(server):
    # Thousands of resets: past every limit, ours (200 at once, then 100 a
    # second) and nghttp2's own (1000 at once). Ours comes first, and says
    # ENHANCE_YOUR_CALM (RFC 9113 7: the peer may be generating excessive
    # load).
    raw = Raw(server)
    raw.send(rapid_resets(3000))
    assert raw.goaway_or_close() == ENHANCE_YOUR_CALM
    raw.close()
    assert_others_served(server)
    # A stream opened and reset in the same read is never dispatched.
    assert "/slow" not in calls(server), f"{calls(server).count('/slow')} reset streams reached the app"


def test_a_reset_burst_under_nghttp2s_limit_but_over_batons_ends_the_connection(server):
    # 500 resets at once: over baton's burst (200), under nghttp2's default
    # (1000), so only baton's own limit can end the connection. Were it not
    # in force, the connection would live on and end idle at the keep-alive
    # timeout, with NO_ERROR.
    raw = Raw(server)
    raw.send(rapid_resets(500))
    assert raw.goaway_or_close() == ENHANCE_YOUR_CALM
    raw.close()
    assert_others_served(server)
    assert "/slow" not in calls(server), f"{calls(server).count('/slow')} reset streams reached the app"


def test_a_continuation_flood_ends_the_connection_before_any_app_call(server):
    # CVE-2024-27316 and kin: a header block that never ends.
    raw = Raw(server)
    raw.send(frame(HEADERS, 0, 1, request_block(b"/info")))
    filler = literal(b"x-filler", b"y" * 1000)
    raw.send(b"".join(frame(CONTINUATION, 0, 1, filler) for _ in range(2000)))
    # nghttp2 refuses the block at the first CONTINUATION frame past its
    # bound (the ninth, in the version built against) with a fatal error,
    # and the connection is closed with no GOAWAY: RFC 9113 5.4.1 asks for
    # one before a close on a connection error only as a SHOULD. A close
    # for idleness would have sent GOAWAY(NO_ERROR) first.
    assert raw.goaway_or_close() is None
    raw.close()
    assert_others_served(server)
    assert calls(server) == ["/info"], "the flooding stream reached the app"  # the other client's


def test_an_hpack_bomb_is_refused_by_its_decoded_size(server):
    # A 4 KiB field put in the dynamic table once, then referenced by one
    # byte each time: 6 KiB on the wire inflating to 8 MiB of fields.
    raw = Raw(server)
    block = request_block(b"/bomb") + literal(b"x-bomb", b"z" * 4000, indexing=True) + b"\xbe" * 2000
    raw.send(frame(HEADERS, END_HEADERS | END_STREAM, 1, block))
    process = psutil.Process(server.proc.pid)
    before = process.memory_info().rss
    client = H2Client(server)
    # The stream is refused (431, or reset), or the connection ended: the app never sees it.
    frames, closed = read_frames(raw.sock, 3)
    refusals = [kind for kind, _, sid, payload in frames
                if (kind == RST_STREAM and sid == 1) or kind == GOAWAY
                or (kind == HEADERS and sid == 1 and dict(hpack.Decoder().decode(payload)).get(":status") == "431")]
    assert refusals or closed, f"no refusal: {[(kind, sid) for kind, _, sid, _ in frames]}"
    raw.close()
    assert client.get("/info", timeout=5).status == 200
    client.close()
    assert "/bomb" not in calls(server)
    assert process.memory_info().rss - before < 32 << 20


@pytest.mark.parametrize("flood", ["settings", "ping", "empty-data"])
def test_a_control_frame_flood_ends_the_connection(server, flood):
    raw = Raw(server)
    if flood == "settings":
        frames = frame(SETTINGS, 0, 0) * 5000
    elif flood == "ping":
        frames = b"".join(frame(PING, 0, 0, struct.pack(">Q", i)) for i in range(5000))
    else:
        # A body that never ends, one empty frame at a time (its request sent whole first).
        frames = (frame(HEADERS, END_HEADERS, 1, request_block(b"/flooded", b"POST"))
                  + frame(DATA, 0, 1) * 5000)
    raw.send(frames)
    # Our bucket says ENHANCE_YOUR_CALM; nghttp2's own limit on the ACKs it
    # queues (1000, when the flood outruns the socket) ends it at once, with
    # no GOAWAY. Either way the connection is cut.
    assert raw.goaway_or_close() in (ENHANCE_YOUR_CALM, None)
    raw.close()
    assert_others_served(server)
    assert "/flooded" not in calls(server)


def test_a_window_held_shut_resets_the_stream_and_the_idle_connection_then_closes(server):
    client = H2Client(server, window=0, auto_ack=False)
    sid = client.request("/big?n=200000")
    started = time.monotonic()
    assert client.wait(lambda: client.responses[sid].reset is not None, 10), "the stalled stream was never reset"
    # --write-timeout 2: the stream waited that long with its window shut (checked each second).
    assert 1.5 < time.monotonic() - started < 5
    assert len(client.responses[sid].data) == 0
    assert_others_served(server)
    # Nothing left on it: the keep-alive timeout (2 s) ends the connection.
    assert client.wait(lambda: client.closed, 6) and client.closed
    client.close()


def test_the_last_stream_id_is_served_and_a_lower_one_after_it_is_a_protocol_error(server):
    raw = Raw(server)
    last = 2**31 - 1
    raw.send(frame(HEADERS, END_HEADERS | END_STREAM, last, request_block(b"/info")))
    time.sleep(0.5)
    raw.send(frame(HEADERS, END_HEADERS | END_STREAM, 3, request_block(b"/again")))
    assert raw.goaway_or_close() == PROTOCOL_ERROR
    raw.close()
    assert calls(server) == ["/info"]
    assert_others_served(server)


def test_a_client_that_never_reads_its_answers_is_cut_by_the_write_timeout(server):
    mark = server.log_mark()
    raw = Raw(server)
    raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    # Windows open wide (the server may send everything), then no read at all.
    raw.send(frame(SETTINGS, 0, 0, struct.pack(">HI", 4, 2**31 - 1))
             + frame(8, 0, 0, struct.pack(">I", 2**31 - 1 - 65535)))  # WINDOW_UPDATE on the connection
    raw.send(b"".join(frame(HEADERS, END_HEADERS | END_STREAM, sid, request_block(b"/big?n=2000000"))
                      for sid in range(1, 41, 2)))
    process = psutil.Process(server.proc.pid)
    time.sleep(1)
    rss_blocked = process.memory_info().rss
    assert_others_served(server)  # while it is stuck
    # The write timeout counts from the last byte the socket took: the kernel
    # grows its send buffer (to tcp_wmem's most, 4 MiB) while the client's
    # window is shut, so the connection goes some seconds after 2.
    assert server.wait_for_log("stopped reading (write timeout)", timeout=30, since=mark), server.log[-2000:]
    # The 20 answers (40 MB) were held back by the high-water mark, not buffered.
    assert process.memory_info().rss - rss_blocked < 32 << 20
    raw.close()
    assert_others_served(server)
