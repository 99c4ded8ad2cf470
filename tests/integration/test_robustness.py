"""Bad apps, slow and vanishing clients, and the graceful stop."""

import json
import signal
import socket
import threading
import time

import httpx
import pytest

from tests.conftest import SHAPES
from tests.integration.server import closed_by_peer, read_response, read_until_closed

APP = "tests.integration.apps.wsgi_apps:app"

# (path, what the log says, whether the failure passes through the app's own
# frames: then the log carries its traceback).
APP_FAILURES = [
    ("/raise", "ValueError: the app failed on purpose", True),
    ("/non-bytes", "TypeError: the application returned a str in its body, not bytes", False),
    ("/start-twice", "RuntimeError: start_response called a second time without exc_info", True),
    ("/header-injection", "ValueError: invalid response header", True),
    ("/bad-status", "ValueError: invalid status line", True),
    ("/no-start", "RuntimeError: the application produced a body before calling start_response", False),
    ("/conflicting-length", "ValueError: invalid response header ('Content-Length', '50')", True),
    ("/interim-status", "ValueError: a WSGI status must be final", True),
    ("/file-wrapper-none", "TypeError", False),
]


@pytest.mark.parametrize("path,logged,traceback", APP_FAILURES, ids=[p for p, _, _ in APP_FAILURES])
def test_failing_app_gets_500_a_traceback_and_the_connection_keeps_serving(server, path, logged, traceback):
    mark = server.log_mark()
    s = server.connect()
    s.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
    status, headers, body, raw = read_response(s)
    assert status == 500
    assert b"owned" not in raw and b"Set-Cookie" not in raw
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(s)[2] == b"Hello, World!"
    assert server.wait_for_log(logged, since=mark), server.log_since(mark)
    logged_here = server.log_since(mark)
    if traceback:
        assert "Traceback (most recent call last)" in logged_here, logged_here
        assert "wsgi_apps.py" in logged_here, logged_here
    # The log line names the request: its method, target and client.
    assert f"(GET {path} from 127.0.0.1:" in logged_here, logged_here


def test_texts_found_valid_before_are_trusted_only_as_what_they_were_found_valid_as(server):
    # The same str objects, at every request: a field value that is not a
    # valid name or status line, a status line that is not a valid name.
    # Each use the server found valid before is answered; each other use of
    # the same object is refused as the first time, however often it comes.
    s = server.connect()
    for _ in range(3):
        s.sendall(b"GET /same-texts HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, body, _ = read_response(s)
        assert (status, headers.get("x-known"), body) == (201, "two words", b"constants")
        for misuse in ("value-as-name", "value-as-status", "status-as-name"):
            s.sendall(b"GET /same-texts-%s HTTP/1.1\r\nHost: t\r\n\r\n" % misuse.encode())
            status, _, body, _ = read_response(s)
            assert status == 500 and b"must not be sent" not in body, misuse
    # start_response called from another thread of the app checks the same.
    s.sendall(b"GET /same-texts-from-a-thread HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert (status, headers.get("x-known"), body) == (201, "two words", b"from a thread")


def test_exc_info_without_an_exception_after_the_head_closes_the_connection(server):
    mark = server.log_mark()
    s = server.connect()
    s.sendall(b"GET /exc-info-without-exception HTTP/1.1\r\nHost: t\r\n\r\n")
    received = read_until_closed(s)
    assert received.startswith(b"HTTP/1.1 200 OK") and b"committed" in received
    assert server.wait_for_log("exc_info must be a (type, exception, traceback) tuple", since=mark), server.log
    assert "SystemError" not in server.log_since(mark)
    assert httpx.get(server.url + "/hello", timeout=10).status_code == 200


def test_a_write_from_close_after_the_end_never_reaches_the_next_response(server):
    mark = server.log_mark()
    s = server.connect()
    s.sendall(b"GET /write-in-close HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert status == 200 and body == b"body"
    # The late write was refused and the connection ended: no stray bytes
    # were ever parsed as a response.
    rest = read_until_closed(s)
    assert b"AFTER-THE-END" not in rest
    assert server.wait_for_log("wrote after its response ended", since=mark), server.log_since(mark)


def test_a_repeated_identical_content_length_is_sent_once(server):
    s = server.connect()
    s.sendall(b"GET /repeated-length HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, raw = read_response(s)
    assert status == 200 and body == b"hello"
    assert raw.lower().count(b"content-length") == 1


def test_keep_alive_survives_a_request_longer_than_the_keep_alive_timeout(start_server):
    # The loop re-reads its clock after the app returns, so the idle timer
    # does not count the app's own run time as idleness. Another client's
    # request, queued meanwhile, makes the loop run its timers right after.
    server = start_server("--keep-alive-timeout", "1", APP)
    a = server.connect()
    b = server.connect()
    a.sendall(b"GET /slow?ms=1500 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.5)
    b.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(a)[2] == b"slow done"
    a.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(a)[2] == b"Hello, World!"
    assert read_response(b)[2] == b"Hello, World!"


def test_exc_info_replaces_the_response_before_the_head_is_sent(server):
    r = httpx.get(server.url + "/exc-info", timeout=10)
    assert r.status_code == 503


def test_app_failing_mid_body_closes_the_connection_without_a_second_status(server):
    s = server.connect()
    s.sendall(b"GET /raise-mid-body HTTP/1.1\r\nHost: t\r\n\r\n")
    received = read_until_closed(s)
    assert received.startswith(b"HTTP/1.1 200 OK")
    assert received.count(b"HTTP/1.1") == 1
    assert b"first chunk" in received
    assert not received.endswith(b"0\r\n\r\n")  # truncated: no terminating chunk
    assert httpx.get(server.url + "/hello", timeout=10).status_code == 200


def test_short_content_length_closes_the_connection(server):
    s = server.connect()
    s.sendall(b"GET /short-length HTTP/1.1\r\nHost: t\r\n\r\n")
    received = read_until_closed(s)
    assert received.endswith(b"only this")


def test_client_that_disconnects_mid_response_still_gets_close_called(server):
    before = httpx.get(server.url + "/closed-count", timeout=10).json()["closed"]
    s = server.connect()
    # 2000 chunks of 64 KiB: far more than the socket buffers hold.
    s.sendall(b"GET /stream?count=2000&size=65536 HTTP/1.1\r\nHost: t\r\n\r\n")
    s.recv(1000)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()  # a reset, mid-body
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        after = httpx.get(server.url + "/closed-count", timeout=10).json()["closed"]
        if after > before:
            break
        time.sleep(0.05)
    # The +1 is the stream's own close(); /closed-count itself returns a list.
    assert after == before + 1


def test_idle_keep_alive_connection_is_closed_at_the_timeout(start_server):
    server = start_server("--keep-alive-timeout", "0.5", APP)
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    read_response(s)
    started = time.monotonic()
    assert closed_by_peer(s, timeout=5)
    assert 0.3 < time.monotonic() - started < 3


def test_slow_header_clients_are_cut_at_the_header_timeout_while_others_are_served(start_server):
    server = start_server("--header-read-timeout", "2", APP)
    slow = []
    for _ in range(200):
        c = server.connect()
        c.sendall(b"G")
        slow.append(c)
    stop = threading.Event()

    def dribble():
        # One more byte a second on every slow connection, as slowloris does.
        while not stop.wait(1.0):
            for c in slow:
                try:
                    c.send(b"E")
                except OSError:
                    pass

    feeder = threading.Thread(target=dribble, daemon=True)
    feeder.start()
    started = time.monotonic()
    latencies = []
    try:
        with httpx.Client(timeout=5) as client:
            while time.monotonic() - started < 1.5:
                t0 = time.monotonic()
                assert client.get(server.url + "/hello").status_code == 200
                latencies.append(time.monotonic() - t0)
        assert len(latencies) > 10
        assert max(latencies) < 0.5
        closed = 0
        for c in slow:
            if closed_by_peer(c, timeout=max(0.1, started + 4.5 - time.monotonic())):
                closed += 1
        assert closed == 200
        assert time.monotonic() - started < 6
    finally:
        stop.set()
        for c in slow:
            c.close()
    assert httpx.get(server.url + "/hello", timeout=5).status_code == 200


def test_sigterm_finishes_the_in_flight_request_then_exits_zero(start_server, shape):
    inline = shape == SHAPES["inline"]
    server = start_server(APP)
    result = {}

    def slow_request():
        t0 = time.monotonic()
        r = httpx.get(server.url + "/slow?ms=1500", timeout=10)
        result.update(status=r.status_code, body=r.content, elapsed=time.monotonic() - t0,
                      connection=r.headers.get("connection"))

    t = threading.Thread(target=slow_request)
    t.start()
    time.sleep(0.3)
    server.signal(signal.SIGTERM)
    time.sleep(0.3)
    # During the drain (the slow request still in flight, the process alive)
    # the listener is closed: a new connection is refused. Inline, the loop
    # thread is the one running the slow view, so the drain (and the close
    # of the listener) begins when it returns: the refusal is checked then.
    assert server.proc.poll() is None and t.is_alive(), "the drain ended before the request did"
    if not inline:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", server.port), timeout=1)
    t.join(10)
    if inline:
        # The answer can reach the client a moment before the loop, back
        # from the view, takes the signal and closes the listener (seen
        # under AddressSanitizer): the refusal must come within a second.
        deadline = time.monotonic() + 1.0
        while True:
            try:
                socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
            except ConnectionRefusedError:
                break
            assert time.monotonic() < deadline, "the listener stayed open after the in-flight request ended"
            time.sleep(0.02)
    assert result["status"] == 200 and result["body"] == b"slow done"
    assert result["elapsed"] < 3.0
    assert result["connection"] == "close"
    assert server.wait(5) == 0


def test_sigterm_closes_idle_keep_alive_connections_at_once(start_server):
    server = start_server(APP)
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    read_response(s)
    t0 = time.monotonic()
    server.signal(signal.SIGTERM)
    assert closed_by_peer(s, timeout=3)
    assert server.wait(5) == 0
    assert time.monotonic() - t0 < 2


def test_graceful_timeout_bounds_the_drain(start_server):
    server = start_server("--graceful-timeout", "1", APP)
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ")  # a head that never ends
    time.sleep(0.2)
    t0 = time.monotonic()
    server.signal(signal.SIGTERM)
    assert server.wait(5) == 0
    assert 0.8 < time.monotonic() - t0 < 3
    assert server.wait_for_log("graceful timeout"), server.log
