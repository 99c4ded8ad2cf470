"""Starting the --threads suite's servers, and stopping every one of them,
and every process of theirs, whatever a test's outcome.

A test that failed used to leave its `baton --threads 2` running: a server
is stopped here, by the fixture that started it, when the test ends however
it ends (an assertion, an exception, a server that would not start). Each
server runs in a process group of its own (tests/integration/server.py), and
stopping it kills that whole group, so the workers of `-w N` go with their
master. At the end of the session every group the suite ever started is
killed once more, in case a finaliser itself failed half way.
"""

import os
import time

import pytest

from tests.integration.server import Server

PYTHON = os.environ.get("BATON_FT_PYTHON")

# Every server the session started, for the guard at its end.
_started: list[Server] = []


@pytest.fixture
def serve(tmp_path):
    """serve(*args, env=None) starts baton on the free-threaded python with those arguments (and a record
    file of the app's calls, read by calls()); every server it started is stopped after the test."""
    servers: list[Server] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Server:
        record = tmp_path / f"calls-{time.monotonic_ns()}.log"
        server = Server(["--port", "0", *args], python=PYTHON,
                        env={"BATON_TEST_RECORD": str(record), **(env or {})})
        server.record = record
        # Kept before it starts: a server that fails to start may still
        # have a process (or its workers) to stop.
        servers.append(server)
        _started.append(server)
        return server.start()

    yield start
    # Each is stopped even if stopping another one failed.
    errors = []
    for server in servers:
        try:
            server.stop()
        except Exception as error:  # noqa: BLE001 (reported below, after the others are stopped)
            errors.append(error)
    if errors:
        raise errors[0]


@pytest.fixture(scope="session", autouse=True)
def no_server_outlives_the_session():
    """The second guard: every process group the suite started is killed at the end of the session."""
    yield
    for server in _started:
        server.stop()
