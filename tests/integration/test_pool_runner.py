"""Jobs left to the running pool thread, against real pool threads and the
real GIL. While one thread runs jobs back to back holding the GIL, a new
request waits a moment in the pool's queue for it rather than waking an idle
thread that would only wait for the GIL; once no job has started for the
budget (the running thread sleeps, or waits on I/O), the loop wakes the idle
threads. BATON_X_POOL_RUNNER=0 wakes an idle thread for every job. The counts
are what the pool logs when it stops (at debug level)."""

import http.client
import re
import threading
import time

import pytest

from tests.integration.server import Server

APP = "apps.probe.app:application"
COUNTS = re.compile(r"pool: (\d+) jobs left to a running thread, (\d+) times woken for after a stall")


def load(server: Server, path: str, connections: int, seconds: float, latencies: list) -> threading.Thread:
    """Keeps `connections` requests to `path` in flight for `seconds` (in a thread); each answer's time goes in
    `latencies`."""
    stop = time.monotonic() + seconds

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        while time.monotonic() < stop:
            began = time.monotonic()
            conn.request("GET", path)
            response = conn.getresponse()
            assert response.status == 200
            response.read()
            latencies.append(time.monotonic() - began)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(connections)]
    for t in threads:
        t.start()
    joiner = threading.Thread(target=lambda: [t.join(seconds + 30) for t in threads])
    joiner.start()
    return joiner


def served(env: dict, hello_connections: int = 16, sleeping: int = 0, seconds: float = 1.5) -> tuple[list, int, int]:
    """The hello's answer times beside `sleeping` connections on a view that sleeps 200 ms, and the pool's two
    counts."""
    server = Server(["--port", "0", "--blocking-threads", "4", "--log-level", "debug", APP], env=env).start()
    hello: list = []
    try:
        loads = [load(server, "/hello", hello_connections, seconds, hello)]
        if sleeping:
            loads.append(load(server, "/sleep?ms=200", sleeping, seconds, []))
        for joiner in loads:
            joiner.join(seconds + 40)
    finally:
        server.stop()
    match = COUNTS.search(server.log)
    assert match, server.log[-2000:]
    return hello, int(match.group(1)), int(match.group(2))


@pytest.mark.parametrize("runner", ["on", "off"])
def test_requests_are_left_to_the_running_thread_only_when_it_is_on(runner):
    hello, left, stalls = served({} if runner == "on" else {"BATON_X_POOL_RUNNER": "0"})
    assert len(hello) > 500, f"only {len(hello)} answers: the pool was not kept busy"
    if runner == "on":
        assert left > 100, (left, stalls, len(hello))
    else:
        assert (left, stalls) == (0, 0)


def test_a_request_left_behind_a_thread_that_falls_asleep_is_answered_by_another():
    """One connection asks for the hello over and over while two sleep 200 ms at a time in a view. A hello
    that comes just after a sleep began is left to the sleeper (it started a job a moment ago); nobody else is
    running, so only the loop's look after the budget gets it to an idle thread, long before the sleep ends."""
    hello, left, stalls = served({}, hello_connections=1, sleeping=2, seconds=4)
    assert len(hello) > 500, f"only {len(hello)} answers"
    assert max(hello) < 0.1, f"a hello waited {max(hello) * 1000:.0f} ms: it waited for a sleeping view"
    assert stalls > 0, f"no hello was left behind a sleeper ({left} left to running threads): the test proved nothing"
