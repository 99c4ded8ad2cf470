"""HTTP/2 over real sockets, with real clients: curl with prior knowledge
(h2c), by Upgrade from HTTP/1.1 and over TLS (ALPN h2), httpx with h2, and
tests/integration/h2client.py (on the h2 library) for many streams on one
connection and the drain. The attack classes are in test_http2_attacks.py,
the h2spec results in tests/conformance/h2spec/."""

import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import time
from urllib.parse import quote

import h2.config
import h2.connection
import h2.events
import h2.settings
import hpack
import httpx
import pytest

from tests.conftest import ASGI_SHAPES, SHAPES, tls_args
from tests.integration.h2client import DATA, END_STREAM, GOAWAY, HEADERS, RST_STREAM, H2Client, read_frames
from tests.integration.server import Server

WSGI = "tests.integration.apps.wire_apps:wsgi"
ASGI = "tests.integration.apps.wire_apps:asgi"
SERVED = {"pool-4": (SHAPES["pool-4"], WSGI), "inline": (SHAPES["inline"], WSGI),
          "pump": (ASGI_SHAPES["pump-uvloop"], ASGI), "inverted": (ASGI_SHAPES["inverted-uvloop"], ASGI)}


@pytest.fixture(params=list(SERVED))
def served(request, tls_certificates):
    args, app = SERVED[request.param]
    server = Server(["--port", "0", *args, *tls_args(tls_certificates), "--max-body-size", "0", app]).start()
    server.app = app
    yield server
    server.stop()


def test_curl_speaks_h2c_with_prior_knowledge():
    server = Server(["--port", "0", WSGI]).start()
    try:
        out = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-w", "\n%{http_version}",
                              f"http://127.0.0.1:{server.port}/info"], capture_output=True, text=True, timeout=20)
        body, _, version = out.stdout.rpartition("\n")
        assert version == "2", out.stderr
        assert json.loads(body)["protocol"] == "HTTP/2.0"
    finally:
        server.stop()


def test_every_shape_over_h2_with_large_bodies_both_ways(served, tls_certificates):
    body = bytes(range(256)) * 12288  # 3 MiB
    with httpx.Client(http2=True, verify=str(tls_certificates.ca), timeout=30) as client:
        info = client.get(f"https://localhost:{served.port}/info")
        assert info.http_version == "HTTP/2"
        seen = info.json()
        assert seen["scheme"] == "https"
        assert seen.get("protocol", seen.get("http_version")) in ("HTTP/2.0", "2")
        echoed = client.post(f"https://localhost:{served.port}/echo", content=body)
        assert echoed.http_version == "HTTP/2" and echoed.status_code == 200
        assert hashlib.sha256(echoed.content).digest() == hashlib.sha256(body).digest()
        big = client.get(f"https://localhost:{served.port}/big?n=2000000")
        assert big.content == bytes(i % 251 for i in range(2000000))


def test_many_streams_at_once_on_one_connection_each_get_their_own_answer(served):
    client = H2Client(served, tls=True)
    sids = {client.request(f"/echo?{i}", method="POST", body=f"stream {i} ".encode() * (i + 1)): i
            for i in range(60)}
    assert client.wait(lambda: all(client.finished(s) for s in sids), 30)
    for sid, i in sids.items():
        r = client.responses[sid]
        assert r.status == 200 and bytes(r.data) == f"stream {i} ".encode() * (i + 1)
    client.close()


@pytest.mark.parametrize("shape", ["pump-uvloop", "inverted-asyncio"])
@pytest.mark.parametrize("tls", [True, False], ids=["h2", "h2c"])
def test_asgi_trailers_come_in_a_last_headers_frame_that_ends_the_stream(shape, tls, tls_certificates):
    args = [*ASGI_SHAPES[shape], *(tls_args(tls_certificates) if tls else [])]
    server = Server(["--port", "0", *args, "tests.integration.apps.asgi_apps:app"]).start()
    try:
        client = H2Client(server, tls=tls)
        sids = [client.request("/trailers") for _ in range(5)]
        missing = client.request("/trailers-missing")
        assert client.wait(lambda: all(client.finished(s) for s in [*sids, missing]))
        for sid in sids:
            r = client.responses[sid]
            assert r.status == 200 and bytes(r.data) == b"one two " and r.ended and r.reset is None
            # Both trailer messages, names in lower case, after every DATA frame.
            assert r.trailers == [("x-checksum", "c1"), ("x-status", "0")], r.trailers
        # Without the trailers it promised, the stream is reset rather than ended as if whole.
        assert client.responses[missing].reset is not None and not client.responses[missing].ended
        assert client.get("/hello").status == 200  # the connection goes on
        client.close()
    finally:
        server.stop()


def test_a_trickling_body_is_cut_at_the_body_timeout_while_its_connection_serves_others():
    server = Server(["--port", "0", *SHAPES["pool-4"], "--body-read-timeout", "1.5", WSGI]).start()
    try:
        client = H2Client(server)
        trickle = client.request("/echo", method="POST", headers=[("content-length", "1000")], end=False)
        started = time.monotonic()
        while time.monotonic() - started < 5 and not client.finished(trickle):
            client.conn.send_data(trickle, b"x")
            client.flush()
            fast = client.get("/info", timeout=0.5)  # the same connection keeps serving meanwhile
            assert fast.status == 200
            client.wait(lambda: client.finished(trickle), 0.2)
        elapsed = time.monotonic() - started
        assert client.responses[trickle].reset == 8, client.responses[trickle]  # CANCEL
        assert 1.4 < elapsed < 3.5, elapsed
        assert server.wait_for_log("not whole in time (408), HTTP/2 stream 1")
        client.close()
    finally:
        server.stop()


def test_a_client_that_ends_its_input_inside_a_body_frees_the_app_and_the_server_serves_on(served):
    # The client sends part of a body and shuts its side of the connection
    # (h2load does so when its time is up mid-upload). The rest can never
    # come: the app's read fails at once (not at a timeout; none is set
    # here), the stream is reset, and the server serves a new connection.
    # Left waiting, an inline app held the loop in its wait for good, at
    # full CPU, and no other client was answered.
    client = H2Client(served, tls=True)
    sid = client.request("/echo", method="POST", headers=[("content-length", "1000000")], end=False)
    client.send_body(sid, b"x" * 1000, end=False)
    time.sleep(0.3)  # the app is reading, waiting for the rest
    raw = client.sock.sock
    raw.shutdown(socket.SHUT_WR)
    assert served.wait_for_log("closed inside the request body of stream 1", timeout=5)
    # Its stream reset, the connection has nothing left: the server closes it
    # (read as raw TLS bytes; the client can send nothing more).
    raw.settimeout(5)
    while raw.recv(65536):
        pass
    other = H2Client(served, tls=True, timeout=5)
    assert other.get("/info", timeout=5).status == 200
    other.close()
    raw.close()


def test_a_stream_held_for_an_app_slot_starts_when_a_body_timeout_frees_one():
    # Two pool threads: one stream of a connection in the app at a time.
    server = Server(["--port", "0", "--blocking-threads", "2", "--body-read-timeout", "1", WSGI]).start()
    try:
        client = H2Client(server)
        trickle = client.request("/echo", method="POST", headers=[("content-length", "1000")], end=False)
        client.conn.send_data(trickle, b"x")
        client.flush()
        time.sleep(0.2)  # the trickle is in the app, reading
        held = client.request("/info")
        assert client.wait(lambda: client.finished(trickle), 4) and client.responses[trickle].reset == 8
        assert client.wait(lambda: client.finished(held), 2), "the held stream waited on past the reset"
        assert client.responses[held].status == 200
        client.close()
    finally:
        server.stop()


def test_the_body_timeout_stops_while_the_app_keeps_the_window_shut():
    # The app waits 2.5 s before reading (past the 1 s body timeout) while a
    # 64 KiB window holds the rest of a 400 KiB body back: the client could
    # not send, so the body is not late.
    server = Server(["--port", "0", *SHAPES["pool-4"], "--body-read-timeout", "1", "--h2-initial-window-size",
                     "65535", WSGI]).start()
    try:
        client = H2Client(server)
        body = bytes(range(256)) * 1600
        sid = client.request("/echo?wait=2500", method="POST", body=body)
        assert client.wait(lambda: client.finished(sid), 10)
        r = client.responses[sid]
        assert r.reset is None and r.status == 200 and bytes(r.data) == body
        client.close()
    finally:
        server.stop()


def test_one_wsgi_read_of_a_body_larger_than_the_stream_window_completes():
    # Django's request.body: one read() of all of it, which the loop fills
    # straight into the app's buffer, window after window.
    server = Server(["--port", "0", *SHAPES["pool-4"], WSGI]).start()
    try:
        client = H2Client(server)
        body = bytes(range(256)) * 8192  # 2 MiB, eight times the 256 KiB window
        sid = client.request("/echo?whole", method="POST", body=body)
        assert client.wait(lambda: client.finished(sid), 20)
        r = client.responses[sid]
        assert r.status == 200 and hashlib.sha256(bytes(r.data)).digest() == hashlib.sha256(body).digest()
        client.close()
    finally:
        server.stop()


def test_the_stream_window_reopens_by_exactly_the_body_bytes_the_wsgi_app_read(tmp_path):
    # The client fills the stream's 256 KiB window while the app reads
    # nothing; then the app reads exactly half of it and waits, the other
    # half still buffered. The window must reopen by what the app took, no
    # more: a window given back ahead of the app lets a client push body
    # bytes the server has to hold. Half, because nghttp2 sends a stream's
    # WINDOW_UPDATE once half its window is consumed, so that is the
    # smallest read it shows.
    gate_path = tmp_path / "gate"
    os.mkfifo(gate_path)
    gate = os.open(gate_path, os.O_RDWR)  # a reader and a writer at once: neither side's open blocks
    server = Server(["--port", "0", *SHAPES["pool-4"], WSGI]).start()
    try:
        client = H2Client(server)
        assert client.wait(lambda: h2.settings.SettingCodes.INITIAL_WINDOW_SIZE in client.server_settings)
        window = client.server_settings[h2.settings.SettingCodes.INITIAL_WINDOW_SIZE]
        assert window == 256 * 1024
        half = window // 2
        body = bytes(range(256)) * (2 * window // 256)
        sid = client.request(f"/gated-read?n={half}&gate={quote(str(gate_path))}", method="POST",
                             headers=[("content-length", str(len(body)))], end=False)
        client.send_body(sid, body[:window], end=False)
        assert client.conn.local_flow_control_window(sid) == 0
        client.round_trip()  # the server holds the whole window's bytes, none consumed yet
        assert client.conn.local_flow_control_window(sid) == 0, "window given back before the app read"
        os.write(gate, b"g")  # the app reads `half`, answers how much it read, and waits
        assert client.wait(lambda: b"\n" in client.responses[sid].data, 10)
        assert bytes(client.responses[sid].data) == f"read {half}\n".encode()
        # The window comes back before the answer's first bytes (the loop
        # gives back what the app consumed, then takes its output), and the
        # app, waiting, consumes nothing more.
        assert client.conn.local_flow_control_window(sid) == half
        os.write(gate, b"g")  # the rest of the body goes to the app as the window allows
        client.send_body(sid, body[window:])
        assert client.wait(lambda: client.finished(sid), 20)
        r = client.responses[sid]
        assert r.status == 200 and bytes(r.data) == f"read {half}\nthen {len(body) - half}\n".encode()
        client.close()
    finally:
        os.close(gate)  # the app, were it still waiting, reads EOF and goes on
        server.stop()


def test_the_app_timeout_answers_504_on_the_stream_and_the_worker_is_replaced():
    server = Server(["--port", "0", "--workers", "2", "--timeout", "1", "--blocking-threads", "4",
                     "--graceful-timeout", "2", "tests.integration.apps.ops_apps:app"]).start()
    try:
        client = H2Client(server, timeout=15)
        started = time.monotonic()
        hung = client.request("/hang")
        # With its body still coming, the 504 goes out whole, then a reset
        # (NO_ERROR) tells the client to stop sending.
        upload = client.request("/hang", method="POST", headers=[("content-length", "100000")], end=False)
        client.conn.send_data(upload, b"x" * 1000)
        client.flush()
        # Read below the h2 library, which refuses the reset that follows
        # the worker's GOAWAY (RFC 9113 6.8 has streams go on after one).
        frames, _ = read_frames(client.sock, timeout=6)
        assert time.monotonic() - started < 4
        decoder = hpack.Decoder()
        answers = {sid: dict(decoder.decode(payload)) for kind, flags, sid, payload in frames
                   if kind == HEADERS and flags & END_STREAM}
        assert answers == {hung: {":status": "504"}, upload: {":status": "504"}}, frames
        resets = [(i, struct.unpack(">I", payload)[0]) for i, (kind, _, sid, payload) in enumerate(frames)
                  if kind == RST_STREAM and sid == upload]
        answered_at = next(i for i, (kind, _, sid, _) in enumerate(frames) if kind == HEADERS and sid == upload)
        assert len(resets) == 1 and resets[0][0] > answered_at and resets[0][1] == 0, frames  # NO_ERROR
        assert server.wait_for_log("(HTTP/2 stream 1) has been inside the application past the timeout; "
                                   "answering 504")
        client.close()
        for _ in range(5):  # the worker that took its place serves
            with httpx.Client(http2=False, timeout=10) as http1:
                assert http1.get(server.url + "/").status_code == 200
        assert server.wait_for_log("; starting another", timeout=10)  # the worker with the stuck thread is replaced
    finally:
        server.stop()


def test_a_slow_stream_does_not_hold_back_a_fast_one(served):
    if "--blocking-threads" in served.args and served.args[served.args.index("--blocking-threads") + 1] == "0":
        pytest.skip("the inline shape runs one app call at a time on the loop thread (README: Limits)")
    client = H2Client(served, tls=True)
    slow = client.request("/slow?ms=1500")
    fast = client.request("/info")
    assert client.wait(lambda: client.finished(fast), 1.0), "the fast stream waited for the slow one"
    assert not client.finished(slow)
    assert client.wait(lambda: client.finished(slow), 5)
    client.close()


def test_a_drain_sends_goaway_finishes_the_streams_below_it_then_closes(served):
    if "--blocking-threads" in served.args and served.args[served.args.index("--blocking-threads") + 1] == "0":
        pytest.skip("the inline shape runs the app on the loop thread: the drain begins once it returns")
    client = H2Client(served, tls=True)
    assert client.get("/info").status == 200  # the connection is up and serving
    slow = client.request("/slow?ms=1500")
    time.sleep(0.3)  # inside the app
    served.signal(signal.SIGTERM)
    frames, closed = read_frames(client.sock, 10)
    kinds = [(kind, sid) for kind, _, sid, _ in frames]
    goaways = [i for i, (kind, _, _, _) in enumerate(frames) if kind == GOAWAY]
    assert goaways, f"no GOAWAY when the drain began: {kinds}"
    payload = frames[goaways[0]][3]
    last_id, code = struct.unpack(">II", payload[:8])
    assert code == 0 and last_id >= slow
    # The stream below the GOAWAY's id is still answered, whole, after it.
    after = frames[goaways[0] + 1:]
    heads = [p for kind, _, sid, p in after if kind == HEADERS and sid == slow]
    assert heads and dict(client.conn.decoder.decode(heads[0]))[":status"] == "200", kinds
    body = b"".join(p for kind, _, sid, p in after if kind == DATA and sid == slow)
    assert body == b"slow done"
    assert any(kind == DATA and sid == slow and flags & END_STREAM for kind, flags, sid, _ in after)
    # Then the server closes the connection and exits.
    assert closed, "the connection stayed open after its last stream"
    assert served.proc.wait(10) == 0
    client.close()


def test_static_files_the_file_wrapper_and_health_over_h2(tls_certificates, tmp_path):
    (tmp_path / "static").mkdir()
    data = bytes(range(256)) * 4096 + b"tail"
    (tmp_path / "static" / "big.bin").write_bytes(data)
    server = Server(["--port", "0", "--blocking-threads", "2", *tls_args(tls_certificates), "--static-path-route",
                     "/static", "--static-path-mount", str(tmp_path / "static"), "--health-path", "/healthz",
                     WSGI]).start()
    try:
        with httpx.Client(http2=True, verify=str(tls_certificates.ca), timeout=30) as client:
            base = f"https://localhost:{server.port}"
            static = client.get(f"{base}/static/big.bin")
            assert static.http_version == "HTTP/2" and static.status_code == 200 and static.content == data
            ranged = client.get(f"{base}/static/big.bin", headers={"Range": "bytes=1000-"})
            assert ranged.status_code == 206 and ranged.content == data[1000:]
            wrapped = client.get(f"{base}/file")
            assert wrapped.http_version == "HTTP/2" and wrapped.content.endswith(b"the end")
            assert len(wrapped.content) == (1 << 20) + 7
            health = client.get(f"{base}/healthz")
            assert health.http_version == "HTTP/2" and health.status_code == 200
    finally:
        server.stop()


def test_answers_past_the_high_water_mark_keep_going_when_the_socket_takes_everything(tls_certificates, tmp_path):
    # Framing stops at the session's high-water mark (256 KiB); a socket that
    # takes it all at once (loopback) gives no writable event, so the framing
    # must resume by itself. Were it left to the stall check's 1 s tick, each
    # batch of ten 64 KiB files (answered on the loop, no app news to resume
    # it either) would take a second.
    (tmp_path / "static").mkdir()
    data = bytes(range(256)) * 256
    (tmp_path / "static" / "64k.bin").write_bytes(data)
    server = Server(["--port", "0", "--blocking-threads", "0", *tls_args(tls_certificates), "--static-path-route",
                     "/static", "--static-path-mount", str(tmp_path / "static"), WSGI]).start()
    try:
        # Windows as wide as h2load's: the server may send all ten at once.
        client = H2Client(server, tls=True, window=2**30)
        client.conn.increment_flow_control_window(2**30)
        client.flush()
        started = time.monotonic()
        for _ in range(10):
            sids = [client.request("/static/64k.bin") for _ in range(10)]
            assert client.wait(lambda: all(client.finished(s) for s in sids), 30)
            assert all(bytes(client.responses[s].data) == data for s in sids)
        took = time.monotonic() - started
        assert took < 5, f"10 batches of ten 64 KiB files took {took:.1f} s"
        client.close()
    finally:
        server.stop()


def test_h2c_by_upgrade_from_http1_with_curl():
    server = Server(["--port", "0", WSGI]).start()
    try:
        def curl(*args):
            out = subprocess.run(["curl", "-sS", "--http2", "-w", "\n%{http_version}", *args,
                                  f"http://127.0.0.1:{server.port}/info"], capture_output=True, text=True, timeout=20)
            body, _, version = out.stdout.rpartition("\n")
            return version, body, out.stderr

        version, body, err = curl()
        assert version == "2", err
        assert json.loads(body)["protocol"] == "HTTP/2.0"
        # A request with a body is answered in HTTP/1.1 (RFC 7540 3.2 lets the server ignore the Upgrade).
        version, body, err = curl("-d", "payload")
        assert version == "1.1", err
    finally:
        server.stop()


def test_after_an_h2c_upgrade_the_connection_serves_more_streams():
    server = Server(["--port", "0", "--blocking-threads", "4", WSGI]).start()
    try:
        sock = socket.create_connection((server.host, server.port), timeout=10)
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True,
                                                                           header_encoding="utf-8"))
        settings = conn.initiate_upgrade_connection()
        sock.sendall(b"GET /info HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                     b"Upgrade: h2c\r\nHTTP2-Settings: " + settings + b"\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101 ") and b"upgrade: h2c" in head.lower(), head
        sock.sendall(conn.data_to_send())  # the preface and our SETTINGS
        got: dict[int, bytearray] = {}
        ended: set[int] = set()

        def pump(until):
            while not until():
                data = sock.recv(65536)
                assert data, "the server closed the connection"
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.DataReceived):
                        got.setdefault(event.stream_id, bytearray()).extend(event.data)
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        ended.add(event.stream_id)
                sock.sendall(conn.data_to_send())

        pump(lambda: 1 in ended)  # the request that asked for the switch, answered as stream 1
        assert json.loads(got[1])["protocol"] == "HTTP/2.0"
        conn.send_headers(3, [(":method", "GET"), (":path", "/info"), (":scheme", "http"),
                              (":authority", "localhost")], end_stream=True)
        sock.sendall(conn.data_to_send())
        pump(lambda: 3 in ended)
        assert json.loads(got[3])["protocol"] == "HTTP/2.0"
        sock.close()
    finally:
        server.stop()


def test_with_http_1_an_h2c_upgrade_is_answered_in_http1():
    server = Server(["--port", "0", "--http", "1", WSGI]).start()
    try:
        out = subprocess.run(["curl", "-sS", "--http2", "-w", "\n%{http_version}",
                              f"http://127.0.0.1:{server.port}/info"], capture_output=True, text=True, timeout=20)
        assert out.stdout.rpartition("\n")[2] == "1.1", out.stderr
    finally:
        server.stop()


def test_the_access_log_gives_http2_as_the_protocol(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--access-log", "--access-logfile", str(log), WSGI]).start()
    try:
        out = subprocess.run(["curl", "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version}",
                              f"http://127.0.0.1:{server.port}/info"], capture_output=True, text=True, timeout=20)
        assert out.stdout == "2", out.stderr
        deadline = time.monotonic() + 5
        while not (log.exists() and '"GET /info HTTP/2.0" 200 ' in log.read_text()):
            assert time.monotonic() < deadline, log.read_text() if log.exists() else "no access log"
            time.sleep(0.05)
    finally:
        server.stop()
