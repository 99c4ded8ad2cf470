"""The pieces of the instructions suite that its numbers rest on: the client
sends exactly the requests it is asked for (the count divides the
instructions), and the page shows each arm's change from the baseline build
at the same connection count. The callgrind runs themselves are too slow
for the test suite; `make bench SUITE=instructions` runs them."""

import sys
import time
from pathlib import Path

import pytest

from tests.integration.server import Server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import render  # noqa: E402
from bench.harness import runner  # noqa: E402


@pytest.mark.parametrize("depth", [1, 3])
def test_the_client_sends_exactly_the_requests_asked_for(tmp_path, depth):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--blocking-threads", "0", "--access-log", "--access-logfile", str(log),
                     "apps.hello.app:application"]).start()
    try:
        runner.send_requests(server.port, b"GET /counted HTTP/1.1\r\nHost: bench\r\n\r\n", 37, 4, depth)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and log.read_text().count("/counted") < 37:
            time.sleep(0.05)
        time.sleep(0.2)  # nothing more may follow
        assert log.read_text().count("/counted") == 37
    finally:
        server.stop()


def test_a_script_is_run_through_the_interpreter_its_first_line_names(tmp_path):
    script = tmp_path / "tool"
    script.write_text("#!/usr/bin/python3\nprint('hi')\n")
    assert runner.interpreted([str(script), "--flag"]) == ["/usr/bin/python3", str(script), "--flag"]
    binary = tmp_path / "binary"
    binary.write_bytes(b"\x7fELF\x02\x01")
    assert runner.interpreted([str(binary), "8000"]) == [str(binary), "8000"]


def test_changes_are_taken_from_the_baseline_at_the_same_connection_count():
    def row(arm, connections, one, pipelined):
        return {"arm": arm, "workload": "hello", "connections": connections,
                "instructions": {"per_request": {"1": one, "8": pipelined}, "requests": [2000, 12000]}}

    artifact = {"summary": [row("baton-baseline-inline", 1, 10000, 8000), row("baton-inline", 1, 8000, 6000),
                            row("baton-baseline-inline", 16, 20000, 10000), row("baton-inline", 16, 15000, 9000)]}
    text = "\n".join(render.instructions_table(artifact))
    assert "| baton-inline | 1 | one at a time -20.0 %, pipelined 8 deep -25.0 % |" in text
    assert "| baton-inline | 16 | one at a time -25.0 %, pipelined 8 deep -10.0 % |" in text
    assert "| baton-inline | 16 | 15000 | 9000 |" in text
