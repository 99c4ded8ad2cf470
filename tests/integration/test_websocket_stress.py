"""WebSockets under load in every ASGI shape: 1 000 open at once, a third
of them dropping the TCP connection at a random point (mid-message
included), about 100 000 messages in all, each client checking that every
echo is its own; then every handler gone and memory flat across runs."""

import asyncio
import json
import random
import resource
import time

import psutil
import pytest
from websockets.asyncio.client import connect

from tests.conftest import ASGI_SHAPES
from tests.integration.server import Server, read_response

APP = "tests.integration.apps.ws_apps:app"
CLIENTS = 1000
RUNS = 3


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def ws_server(request):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 8192)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))  # the server inherits it
    server = Server(["--port", "0", "--interface", "asgi", "--backlog", "4096", *ASGI_SHAPES[request.param],
                     APP]).start()
    server.rss = []
    yield server
    server.stop()


def live_handlers(server) -> int:
    s = server.connect()
    s.sendall(b"GET /stats HTTP/1.1\r\nHost: t\r\n\r\n")
    return json.loads(read_response(s)[2])["live"]


async def client(port: int, n: int, rng: random.Random, failures: list[str]) -> int:
    """Sends its messages one at a time and checks each echo; a dropper
    aborts the TCP connection after a random number of them, sometimes with
    a message half-sent. Returns the messages echoed."""
    drop = n % 3 == 0
    count = rng.randrange(80, 160)
    stop_at = rng.randrange(0, count) if drop else count
    echoed = 0
    try:
        async with connect(f"ws://127.0.0.1:{port}/echo?quiet", compression="deflate" if n % 2 else None,
                           open_timeout=60, ping_interval=None) as ws:
            for i in range(count):
                if i == stop_at:
                    if rng.random() < 0.5:
                        # Half a frame: a header that promises more than follows.
                        ws.transport.write(b"\x82\xfe\x10\x00\x01\x02\x03\x04partial")
                    ws.transport.abort()
                    return echoed
                text = f"{n}:{i}:" + "x" * rng.randrange(0, 400)
                await ws.send(text)
                got = await asyncio.wait_for(ws.recv(), 60)
                if got != text:
                    failures.append(f"client {n} message {i}: got {got[:30]!r}")
                    return echoed
                echoed += 1
    except Exception as error:  # noqa: BLE001
        if not drop:
            failures.append(f"client {n}: {error!r}")
    return echoed


async def run_clients(port: int, seed: int, failures: list[str]) -> int:
    rng = random.Random(seed)
    # Opened in waves, so the backlog never overflows while all are open.
    tasks = []
    for n in range(CLIENTS):
        tasks.append(asyncio.create_task(client(port, n, random.Random(rng.random()), failures)))
        if n % 100 == 99:
            await asyncio.sleep(0.05)
    return sum(await asyncio.gather(*tasks))


@pytest.mark.parametrize("run", range(RUNS))
def test_a_thousand_websockets_a_third_dropping_run_clean_and_leak_nothing(ws_server, run):
    failures: list[str] = []
    messages = asyncio.run(run_clients(ws_server.port, run, failures))
    assert not failures, failures[:5]
    assert messages > 85_000, messages  # about 100 000: 120 a client on average, half that for those that drop
    deadline = time.monotonic() + 10
    while (live := live_handlers(ws_server)) != 0:
        assert time.monotonic() < deadline, f"{live} handlers never saw their disconnect"
        time.sleep(0.1)
    time.sleep(1.5)  # past the idle trim
    ws_server.rss.append(psutil.Process(ws_server.proc.pid).memory_info().rss)
    if run == RUNS - 1:
        growth = ws_server.rss[-1] - ws_server.rss[0]
        assert growth < 1 << 20, f"RSS grew by {growth / 1024:.0f} KiB after the first run: {ws_server.rss}"
