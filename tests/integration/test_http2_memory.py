"""An HTTP/2 connection's memory stays flat however many requests it carries.

A connection that a proxy or a browser keeps for days carries millions of
streams: whatever the server keeps for each one after it ends grows a
worker without bound. Each test warms the server up on a connection of its
own, then serves 120 000 requests (or, for a WebSocket over HTTP/2, 30 000
messages) on one connection and samples the server's resident memory while
that connection is open. The bounds (4 MiB, 1 MiB) are well above what the
runs grow by and well below what the defect they guard against grew them
by (a spent output segment kept for every DATA frame, about 130 bytes a
request: 15 MiB over the requests, 7 MiB over the messages).

Load goes only to the server on loopback, with h2load (Debian's
nghttp2-client) as the client a user would reach for, and
tests/integration/h2ws.py for RFC 8441.
"""

from __future__ import annotations

import shutil
import subprocess
import threading

import psutil
import pytest
from websockets.frames import Opcode

from tests.conftest import ASGI_SHAPES, SHAPES, tls_args
from tests.integration.h2client import H2Client
from tests.integration.h2ws import H2WebSocket
from tests.integration.server import Server

WSGI = "tests.integration.apps.wire_apps:wsgi"
ASGI = "tests.integration.apps.wire_apps:asgi"
SERVED = {"inline": (SHAPES["inline"], WSGI), "pool-4": (SHAPES["pool-4"], WSGI),
          "pump": (ASGI_SHAPES["pump-uvloop"], ASGI), "inverted": (ASGI_SHAPES["inverted-uvloop"], ASGI)}
REQUESTS = 120_000     # on the one connection measured
WARM_UP = 20_000       # on a connection of its own, first
GROWTH_BOUND = 4 << 20  # bytes
MESSAGES = 30_000      # WebSocket messages on one stream
WS_GROWTH_BOUND = 1 << 20

needs_h2load = pytest.mark.skipif(shutil.which("h2load") is None, reason="h2load (nghttp2-client) is not installed")


class RssSampler:
    """The server's resident memory, sampled every 50 ms on a thread of its own."""

    def __init__(self, pid: int):
        self.process = psutil.Process(pid)
        self.samples: list[int] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stopped.wait(0.05):
            self.samples.append(self.process.memory_info().rss)

    def __enter__(self) -> "RssSampler":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.thread.join()


def h2load(url: str, requests: int) -> str:
    """`requests` GETs on one connection, ten streams at a time; h2load's report."""
    done = subprocess.run(["h2load", "-n", str(requests), "-c", "1", "-m", "10", url],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{requests} succeeded, 0 failed, 0 errored" in done.stdout, done.stdout
    return done.stdout


def growth_over_one_connection(server: Server) -> tuple[int, list[int]]:
    url = f"{server.url}/big?n=16"  # a small body: one DATA frame a response
    h2load(url, WARM_UP)
    before = psutil.Process(server.proc.pid).memory_info().rss
    with RssSampler(server.proc.pid) as rss:
        h2load(url, REQUESTS)
    return max(rss.samples, default=before) - before, rss.samples


@needs_h2load
@pytest.mark.parametrize("tls", ["h2c", "tls"])
@pytest.mark.parametrize("shape", list(SERVED))
def test_one_connection_serving_many_requests_keeps_memory_flat(shape, tls, tls_certificates):
    args, app = SERVED[shape]
    extra = tls_args(tls_certificates) if tls == "tls" else []
    server = Server(["--port", "0", *args, *extra, app]).start()
    try:
        growth, samples = growth_over_one_connection(server)
        print(f"{shape} over {tls}: {growth / 1024:.0f} KiB over {REQUESTS} requests")
        assert growth < GROWTH_BOUND, (
            f"{shape} over {tls}: RSS grew by {growth / 1024:.0f} KiB over {REQUESTS} requests on one connection "
            f"(samples in MiB: {[s >> 20 for s in samples[::10]]})")
    finally:
        server.stop()


@pytest.mark.parametrize("tls", ["h2c", "tls"])
@pytest.mark.parametrize("shape", ["pump", "inverted"])
def test_a_websocket_over_http2_carrying_many_messages_keeps_memory_flat(shape, tls, tls_certificates):
    args = ["--port", "0", "--interface", "asgi", *ASGI_SHAPES[f"{shape}-uvloop"]]
    if tls == "tls":
        args += tls_args(tls_certificates)
    server = Server([*args, "tests.integration.apps.ws_apps:app"]).start()
    try:
        client = H2Client(server, tls=tls == "tls")
        ws = H2WebSocket(client, "/echo", scheme="https" if tls == "tls" else "http")
        assert ws.status == 200

        def exchange(count: int) -> None:
            # One message at a time: each echo is a DATA frame of its own.
            for i in range(count):
                ws.send_frame(Opcode.BINARY, i.to_bytes(4, "big"))
                assert ws.recv() == i.to_bytes(4, "big")

        exchange(4_000)
        before = psutil.Process(server.proc.pid).memory_info().rss
        with RssSampler(server.proc.pid) as rss:
            exchange(MESSAGES)
        growth = max(rss.samples, default=before) - before
        print(f"websocket, {shape} over {tls}: {growth / 1024:.0f} KiB over {MESSAGES} messages")
        assert growth < WS_GROWTH_BOUND, (
            f"{shape} over {tls}: RSS grew by {growth / 1024:.0f} KiB over {MESSAGES} messages on one stream "
            f"(samples in MiB: {[s >> 20 for s in rss.samples[::20]]})")
        ws.close()
    finally:
        server.stop()
