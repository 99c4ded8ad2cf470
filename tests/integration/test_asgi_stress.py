"""ASGI under load in every shape: many streaming clients, a third of them
vanishing at random points, beside a fan-out route that awaits 50 tasks per
request; and memory that stays flat over 10 000 requests."""

import json
import random
import socket
import struct
import threading
import time

import psutil
import pytest

from tests.conftest import ASGI_SHAPES
from tests.integration.server import Server, read_response

APP = "tests.integration.apps.asgi_apps:app"


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def asgi(request):
    server = Server(["--port", "0", *ASGI_SHAPES[request.param], APP]).start()
    yield server
    server.stop()


def stats(server) -> dict:
    s = server.connect()
    s.sendall(b"GET /stats HTTP/1.1\r\nHost: t\r\n\r\n")
    return json.loads(read_response(s)[2])


def stream_client(server, seed: int, abort: bool, failures: list, lock) -> None:
    rng = random.Random(seed)
    s = server.connect(timeout=20)
    try:
        s.sendall(b"GET /stream?count=30&size=2000&delay=0.003 HTTP/1.1\r\nHost: t\r\n\r\n")
        if abort:
            got = 0
            stop_at = rng.randrange(1, 50000)
            while got < stop_at:
                data = s.recv(4096)
                if not data:
                    break
                got += len(data)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        status, headers, body, _ = read_response(s)
        expected = b"".join(bytes([65 + i % 26]) * 2000 for i in range(30))
        if status != 200 or body != expected:
            with lock:
                failures.append(f"stream {seed}: {status} {len(body)} bytes")
    except Exception as error:
        if not abort:
            with lock:
                failures.append(f"stream {seed}: {error!r}")
    finally:
        s.close()


def fanout_client(server, failures: list, lock) -> None:
    try:
        s = server.connect(timeout=20)
        for _ in range(5):
            s.sendall(b"GET /fanout HTTP/1.1\r\nHost: t\r\n\r\n")
            status, _, body, _ = read_response(s)
            if status != 200 or body != str(sum(range(50))).encode():
                with lock:
                    failures.append(f"fanout: {status} {body!r}")
        s.close()
    except Exception as error:
        with lock:
            failures.append(f"fanout: {error!r}")


@pytest.mark.parametrize("run", range(3))
def test_two_hundred_streaming_clients_a_third_vanishing_plus_fanout_run_clean(asgi, run):
    failures: list[str] = []
    lock = threading.Lock()
    tasks_before = stats(asgi)["tasks"]
    threads = [threading.Thread(target=stream_client, args=(asgi, run * 1000 + i, i % 3 == 0, failures, lock))
               for i in range(200)]
    threads += [threading.Thread(target=fanout_client, args=(asgi, failures, lock)) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[:10]
    # Nothing leaked: the tasks of vanished clients ended too.
    deadline = time.monotonic() + 5
    while stats(asgi)["tasks"] > tasks_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stats(asgi)["tasks"] <= tasks_before
    assert "Traceback" not in asgi.log, asgi.log[-3000:]


def test_memory_stays_flat_over_ten_thousand_requests(asgi):
    s = asgi.connect()
    request = b"POST /tagged?tag=m HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n" + b"x" * 100

    def burst(n: int) -> None:
        for _ in range(n):
            s.sendall(request)
            read_response(s)

    burst(3000)  # warm-up: caches, pools and the allocator settle
    process = psutil.Process(asgi.proc.pid)
    before = process.memory_info().rss
    burst(10000)
    growth = process.memory_info().rss - before
    print(f"RSS growth over 10 000 requests: {growth / 1024:.0f} KiB")
    assert growth < 1024 * 1024, f"RSS grew {growth / 1024:.0f} KiB over 10 000 requests"
