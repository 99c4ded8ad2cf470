"""The WebSocket load generator (bench/wsload.c), which loads the ws-echo
and ws-broadcast rows: what it counts went to the server and came back,
with deflate too. The server's access log (one line per WebSocket, with
the bytes it received) is the witness. No speed is asserted here."""

import re
import sys
from pathlib import Path

import pytest

from tests.integration.server import Server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.harness import runner  # noqa: E402
from bench.harness.apps import WORKLOADS  # noqa: E402

NO_ERRORS = {"connect": 0, "read": 0, "write": 0, "status": 0, "timeout": 0}


def run(tmp_path, workload: str, connections: int):
    w = WORKLOADS[workload]
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--access-log", "--access-logfile", str(log),
                     "--access-log-format", "%(s)s %(R)s", w.asgi]).start()
    try:
        settings = runner.Settings("test", [], [workload], [connections], client_cpus="0-1")
        summary, client_cpu = runner.load(settings, server.port, w, connections, 1)
    finally:
        server.stop()
    lines = [line.split() for line in log.read_text().splitlines()]
    received = [int(fields[1]) for fields in lines if fields[0] == "101"]
    return w, summary, received, client_cpu


@pytest.mark.parametrize("workload", ["ws-echo-512", "ws-echo-512-deflate"])
def test_every_round_trip_counted_went_to_the_server(tmp_path, workload):
    w, summary, received, client_cpu = run(tmp_path, workload, 8)
    assert summary["requests"] > 0
    assert summary["errors"] == NO_ERRORS
    assert len(received) == 8, received  # each connection closed and was logged
    # A masked frame of 512 bytes is 512 + 8 on the wire; compressed, the
    # repeated payload shrinks, but each message is still a frame of its own.
    least = 6 + 2 if w.deflate else w.message_size + 8
    assert sum(received) >= summary["requests"] * least, (sum(received), summary)
    if not w.deflate:
        assert summary["bytes"] >= summary["requests"] * w.message_size
    assert 0 < summary["latency_us"]["p50"] <= summary["latency_us"]["p99"] <= summary["latency_us"]["max"]
    assert client_cpu > 0


def test_every_broadcast_copy_is_counted_once(tmp_path):
    w, summary, received, _ = run(tmp_path, "ws-broadcast", 20)
    assert summary["errors"] == NO_ERRORS
    assert len(received) == 20, received
    # Connection 0 sends each broadcast (a masked 64-byte frame: 70 bytes);
    # the others send nothing. Each is delivered to all 20; copies that
    # arrive after the deadline are not counted, and their last one
    # already sent the next broadcast: two sent at most go uncounted.
    assert sorted(received)[:-1] == [0] * 19, received
    sent = max(received) // (w.message_size + 6)
    assert max(received) == sent * (w.message_size + 6), received
    assert sent > 0 and (sent - 2) * 20 <= summary["requests"] <= sent * 20, (sent, summary)
