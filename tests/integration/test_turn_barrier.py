"""The turn barrier against real pool threads and the real GIL: four threads
on a view that holds the GIL for 0.3 ms, sixteen connections keeping them
all busy. With the barrier on, a thread that has held the GIL for a slice
hands it over between jobs, and a thread that held it through a whole slice
before it parked yields to the one waiting at its next attach; with
BATON_X_POOL_TURN=0 neither ever happens. The counts are what the pool logs
when it stops (at debug level)."""

import http.client
import re
import threading
import time

import pytest

from tests.integration.server import Server

APP = "apps.probe.app:application"
COUNTS = re.compile(r"turn barrier: (\d+) hand-overs between jobs, (\d+) yields")


def busy_load(server: Server, seconds: float, connections: int = 16) -> int:
    """Keeps `connections` requests to /busy in flight for `seconds`; returns how many were answered."""
    stop = time.monotonic() + seconds
    answered = []

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        n = 0
        while time.monotonic() < stop:
            conn.request("GET", "/busy?ms=0.3")
            response = conn.getresponse()
            assert response.read() == b"busy"
            n += 1
        conn.close()
        answered.append(n)

    threads = [threading.Thread(target=client) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 20)
    return sum(answered)


def barrier_counts(env: dict) -> tuple[int, int, int]:
    server = Server(["--port", "0", "--blocking-threads", "4", "--log-level", "debug", APP], env=env).start()
    try:
        answered = busy_load(server, 1.5)
    finally:
        server.stop()
    match = COUNTS.search(server.log)
    assert match, server.log[-2000:]
    return answered, int(match.group(1)), int(match.group(2))


@pytest.mark.parametrize("turn", ["on", "off"])
def test_the_barrier_hands_the_gil_over_between_jobs_and_only_when_it_is_on(turn):
    answered, handovers, yields = barrier_counts({} if turn == "on" else {"BATON_X_POOL_TURN": "0"})
    assert answered > 500, f"only {answered} answers: the pool was not kept busy"
    if turn == "on":
        # 1.5 s of GIL-bound work is over a thousand slices of 1 ms.
        assert handovers > 100, (handovers, yields)
        assert yields > 100, (handovers, yields)
    else:
        assert (handovers, yields) == (0, 0)
