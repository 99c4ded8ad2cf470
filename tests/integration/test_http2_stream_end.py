"""Where an HTTP/2 response's stream ends: with its last DATA frame once the
app side has finished the response, not in an empty frame of its own when
the app returns (a proxy such as HAProxy holds a response until it sees the
end). An app that goes on working after its answer (a WSGI body's close(),
an ASGI background task) does not hold the client's answer back, and its
access log line, a failure it logs and the next streams of its connection
are as they were."""

import time

import pytest

from tests.conftest import ASGI_SHAPES, SHAPES
from tests.integration.h2client import H2Client
from tests.integration.server import Server

WSGI = "tests.integration.apps.stream_end_apps:wsgi"
ASGI = "tests.integration.apps.stream_end_apps:asgi"
BODY = b"whole before the app returns"
SERVED = {"inline": (SHAPES["inline"], WSGI), "pool-4": (SHAPES["pool-4"], WSGI),
          "pump": (ASGI_SHAPES["pump-uvloop"], ASGI), "inverted": (ASGI_SHAPES["inverted-uvloop"], ASGI)}


@pytest.fixture(params=list(SERVED))
def served(request, tmp_path):
    args, app = SERVED[request.param]
    marks = tmp_path / "marks"
    marks.touch()
    server = Server(["--port", "0", *args, "--access-log", app], env={"BATON_TEST_MARKS": str(marks)}).start()
    server.marks = marks
    server.shape = request.param
    yield server
    server.stop()


def closes(server) -> list[float]:
    return [float(line.split()[1]) for line in server.marks.read_text().splitlines() if line.startswith("closed")]


def test_every_answer_ends_with_its_last_data_frame(served):
    client = H2Client(served)
    try:
        for _ in range(300):
            r = client.get("/")
            assert r.status == 200 and bytes(r.data) == BODY
            assert r.ended_with_payload, "the stream ended in a frame of its own after the last DATA"
    finally:
        client.close()


def test_an_app_still_at_work_after_its_answer_does_not_hold_the_answer_back(served):
    if served.shape == "inline":
        pytest.skip("the inline shape runs the app on the loop thread: nothing goes out until it returns")
    client = H2Client(served)
    try:
        mark = served.log_mark()
        sid = client.request("/after")
        assert client.wait(lambda: client.finished(sid), 10)
        r = client.responses[sid]
        assert r.status == 200 and bytes(r.data) == BODY and r.ended and r.reset is None
        # The answer came whole before the app's after-work (0.8 s) ended.
        assert closes(served) == [], "the stream ended only once the app had returned"
        deadline = time.monotonic() + 10
        while not closes(served) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert closes(served) and r.end_time < closes(served)[0]
        # The access log line comes when the app returns, as on HTTP/1.1.
        assert served.wait_for_log('"GET /after HTTP/2.0" 200', timeout=5, since=mark), served.log_since(mark)
        # The connection goes on serving.
        nxt = client.get("/")
        assert nxt.status == 200 and bytes(nxt.data) == BODY
    finally:
        client.close()


def test_a_failure_after_the_answer_is_logged_as_the_apps(served):
    client = H2Client(served)
    try:
        mark = served.log_mark()
        r = client.get("/after-raises")
        assert r.status == 200 and bytes(r.data) == BODY and r.reset is None
        # Logged as the app's failure: not dropped as though the client had left.
        assert served.wait_for_log("failed after the answer went", timeout=10, since=mark), served.log_since(mark)
    finally:
        client.close()


def test_a_connection_closed_while_an_app_is_still_at_work_is_tidied(served):
    client = H2Client(served)
    r = client.get("/after")
    assert r.status == 200 and r.ended
    client.close()
    deadline = time.monotonic() + 10
    while not closes(served) and time.monotonic() < deadline:
        time.sleep(0.05)
    # The server is whole: a new connection is served.
    fresh = H2Client(served)
    try:
        assert fresh.get("/").status == 200
    finally:
        fresh.close()
