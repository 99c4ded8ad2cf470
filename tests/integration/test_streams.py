"""What the non-blocking request path promises, in every shape: slow views
and slow or vanishing clients cost their own request and nothing else, the
answers never cross between requests, and a stop ends even with a hung view."""

import json
import signal
import socket
import time

import pytest

from tests.conftest import SHAPES
from tests.integration.server import Server, crosstalk_probe, read_response, reset_close

APP = "tests.integration.apps.wsgi_apps:app"


def pool_size(shape) -> int:
    return int(shape[shape.index("--blocking-threads") + 1])


def is_pool(shape) -> bool:
    return pool_size(shape) > 0


def calls(server) -> list[str]:
    try:
        return server.record.read_text().splitlines()
    except FileNotFoundError:
        return []


def test_multithread_flag_says_whether_threads_share_the_app(server, shape):
    s = server.connect()
    s.sendall(b"GET /multithread HTTP/1.1\r\nHost: t\r\n\r\n")
    facts = json.loads(read_response(s)[2])
    assert facts["multithread"] is is_pool(shape)
    assert facts["multiprocess"] is False


def test_a_slow_view_occupies_one_thread_while_other_requests_flow(start_server, shape):
    if pool_size(shape) < 2:
        pytest.skip("needs a second thread: one thread (or the loop) is busy with the slow view")
    server = start_server(APP)
    slow = server.connect()
    slow.sendall(b"GET /slow?ms=2000 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.1)
    fast = server.connect()
    t0 = time.monotonic()
    for _ in range(20):
        fast.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(fast)[2] == b"Hello, World!"
    assert time.monotonic() - t0 < 1.0, "fast requests waited for the slow one"
    assert read_response(slow)[2] == b"slow done"


def test_answers_never_cross_between_requests_while_clients_vanish(server):
    """Streams are recycled all along while clients vanish at random points,
    so a stream that kept anything of an earlier request shows."""
    wrong, answered = crosstalk_probe(server.connect, clients=8, rounds=60, sizes=[0, 10, 3000, 70000, 200000])
    assert not wrong, wrong
    assert answered > 8 * 60 // 2
    assert httpx_get(server, "/hello") == b"Hello, World!"


def httpx_get(server, path: str) -> bytes:
    s = server.connect()
    s.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
    return read_response(s)[2]


def test_a_queued_request_whose_client_vanishes_never_reaches_the_app(server, shape):
    if pool_size(shape) != 1:
        pytest.skip("needs every runner busy with one slow view, which a pool of one gives")
    busy = server.connect()
    busy.sendall(b"GET /slow?ms=700 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.1)
    queued = server.connect()
    queued.sendall(b"GET /hello?queued-and-gone HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.1)
    reset_close(queued)
    assert read_response(busy)[2] == b"slow done"
    busy.sendall(b"GET /hello?after HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(busy)[2] == b"Hello, World!"
    assert "GET /hello?after" in calls(server)
    assert not any("queued-and-gone" in line for line in calls(server))


def test_a_trickling_body_is_cut_at_the_body_timeout_while_others_are_served(start_server):
    server = start_server("--body-read-timeout", "1.5", APP)
    trickle = server.connect()
    trickle.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n")
    t0 = time.monotonic()
    status = None
    other = server.connect()
    while time.monotonic() - t0 < 4:
        try:
            trickle.sendall(b"x")
        except OSError:
            break
        # Everyone else is served at once meanwhile.
        t1 = time.monotonic()
        other.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(other)[2] == b"Hello, World!"
        assert time.monotonic() - t1 < 0.5
        trickle.settimeout(0.2)
        try:
            status = read_response(trickle)[0]
            break
        except socket.timeout:
            continue
    elapsed = time.monotonic() - t0
    assert status == 408
    assert 1.2 < elapsed < 3.0, elapsed


def test_the_loop_answers_others_while_an_inline_app_waits_for_a_slow_upload(start_server, shape):
    if is_pool(shape):
        pytest.skip("the inline shape: the loop thread itself runs the app")
    server = start_server(APP)
    upload = server.connect()
    size = 300_000  # over the read-whole size: the app runs while the body arrives
    upload.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % size)
    upload.sendall(b"u" * 100_000)
    time.sleep(0.2)  # the app is now inside wsgi.input.read(), waiting
    # A malformed request from someone else is answered at once: the loop runs.
    t0 = time.monotonic()
    bad = server.connect()
    bad.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nBad Header: x\r\n\r\n")
    assert read_response(bad)[0] == 400
    assert time.monotonic() - t0 < 0.5
    # A good request waits its turn for the app, and is answered after.
    good = server.connect()
    good.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.2)
    upload.sendall(b"u" * (size - 100_000))
    assert json.loads(read_response(upload)[2])["body_length"] == size
    assert read_response(good)[2] == b"Hello, World!"


@pytest.mark.parametrize("shape_name", list(SHAPES))
def test_sigterm_ends_the_process_within_its_budget_even_with_a_hung_view(shape_name):
    server = Server(["--port", "0", *SHAPES[shape_name], "--graceful-timeout", "1", APP]).start()
    try:
        s = server.connect()
        s.sendall(b"GET /slow?ms=60000 HTTP/1.1\r\nHost: t\r\n\r\n")
        time.sleep(0.3)
        t0 = time.monotonic()
        server.signal(signal.SIGTERM)
        assert server.wait(10) == 0
        assert time.monotonic() - t0 < 3.5
    finally:
        server.stop()


@pytest.mark.parametrize("shape_name", list(SHAPES))
def test_a_second_sigint_ends_the_process_at_once_even_with_a_hung_view(shape_name):
    server = Server(["--port", "0", *SHAPES[shape_name], "--graceful-timeout", "30", APP]).start()
    try:
        s = server.connect()
        s.sendall(b"GET /slow?ms=60000 HTTP/1.1\r\nHost: t\r\n\r\n")
        time.sleep(0.3)
        server.signal(signal.SIGINT)
        time.sleep(0.2)
        t0 = time.monotonic()
        server.signal(signal.SIGINT)
        server.wait(10)
        assert time.monotonic() - t0 < 1.5
    finally:
        server.stop()


def test_sigterm_answers_queued_requests_as_well_as_the_one_in_flight(start_server, shape):
    if pool_size(shape) != 1:
        pytest.skip("needs requests queued behind a busy pool of one")
    server = start_server(APP)
    busy = server.connect()
    busy.sendall(b"GET /slow?ms=500 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.1)
    waiting = [server.connect() for _ in range(3)]
    for w in waiting:
        w.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.1)
    server.signal(signal.SIGTERM)
    status, headers, body, _ = read_response(busy)
    assert body == b"slow done" and headers.get("connection") == "close"
    for w in waiting:
        assert read_response(w)[2] == b"Hello, World!"
    assert server.wait(5) == 0
