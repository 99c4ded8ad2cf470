"""The wheel on another CPython: installed alone into a fresh plain venv of
that interpreter (tools/wheels.py matrix makes it and names its python in
BATON_MATRIX_PYTHON), serving WSGI inline and as a pool, ASGI in both shapes
on both loops, a Starlette app from PyPI, lifespan, a WebSocket echo, h2c and
an HTTP/3 request (the wheel carries OpenSSL 3.5, ngtcp2 and nghttp3), with nothing leaked and no deprecation warning from baton's own code.
Without BATON_MATRIX_PYTHON the suite runs against this interpreter's venv."""

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as websocket_connect

from tests.conftest import tls_args
from tests.integration.h3client import h3_exchange
from tests.integration.server import ROOT, Server, read_response

PYTHON = os.environ.get("BATON_MATRIX_PYTHON", sys.executable)
VERSION = tuple(int(x) for x in subprocess.run(
    [PYTHON, "-c", "import sys; print('%d %d' % sys.version_info[:2])"], capture_output=True, text=True,
    check=True).stdout.split())

WSGI_SHAPES = {"inline": ["--blocking-threads", "0"], "pool-1": ["--blocking-threads", "1"],
               "pool-4": ["--blocking-threads", "4"]}
ASGI_SHAPES = {"pump-asyncio": ["--asgi-mode", "pump", "--loop", "asyncio"],
               "inverted-asyncio": ["--asgi-mode", "inverted", "--loop", "asyncio"],
               "pump-uvloop": ["--asgi-mode", "pump", "--loop", "uvloop"],
               "inverted-uvloop": ["--asgi-mode", "inverted", "--loop", "uvloop"]}
# A free-threaded CPython (tools/wheels.py sets it for 3.13t): every server
# runs the --threads shape, N loops each running the app (on asyncio's own
# loop: uvloop has no free-threaded wheel).
THREADS = os.environ.get("BATON_MATRIX_THREADS")
if THREADS:
    WSGI_SHAPES = {f"threads-{THREADS}": ["--threads", THREADS]}
    ASGI_SHAPES = {f"threads-{THREADS}": ["--threads", THREADS, "--loop", "asyncio"]}
ANY_SHAPE = next(iter(WSGI_SHAPES.values())) if THREADS else []


# Deprecation warnings shown in every server (once per place): an API that a
# new CPython deprecates shows here while it still works, before a later
# one removes it. Those raised by baton's own code fail the server's tests.
WARNINGS = {"PYTHONWARNINGS": "default::DeprecationWarning,default::PendingDeprecationWarning"}
BATON_WARNING = re.compile(r"^.*/baton/\w+\.py:\d+: \w*DeprecationWarning:.*$", re.MULTILINE)


def serve(*args: str, env: dict | None = None) -> Server:
    return Server(["--port", "0", *args], python=PYTHON, env={**WARNINGS, **(env or {})}).start()


def stop(server: Server) -> None:
    """Stops it, and fails if baton's code raised a deprecation warning while it ran."""
    server.stop()
    found = BATON_WARNING.findall(server.log)
    assert not found, "deprecation warnings from baton's code:\n" + "\n".join(found)


@pytest.fixture(scope="module", params=list(WSGI_SHAPES))
def wsgi(request):
    server = serve(*WSGI_SHAPES[request.param], "tests.matrix.apps:wsgi")
    yield server
    stop(server)


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def asgi(request, tmp_path_factory):
    marker = tmp_path_factory.mktemp("lifespan") / "shutdown"
    server = serve(*ASGI_SHAPES[request.param], "--interface", "asgi", "tests.matrix.apps:asgi",
                   env={"MATRIX_SHUTDOWN_FILE": str(marker)})
    server.marker = marker
    yield server
    stop(server)


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def starlette(request):
    server = serve(*ASGI_SHAPES[request.param], "tests.matrix.apps:starlette")
    yield server
    stop(server)


def test_the_server_runs_the_interpreter_under_test(wsgi):
    version = subprocess.run([PYTHON, "-c", "import baton, sys; print(baton.__file__)"], capture_output=True,
                             text=True, check=True, cwd="/").stdout
    assert str(Path(PYTHON).parent.parent) in version  # the venv's own baton, from the wheel
    assert httpx.get(wsgi.url + "/").text == f"wsgi {VERSION[0]}.{VERSION[1]}"


@pytest.mark.skipif(not THREADS, reason="a GIL build: the GIL is on")
def test_the_gil_stays_off_in_every_loop_thread(wsgi):
    answers = {httpx.get(wsgi.url + "/gil", headers={"Connection": "close"}).text for _ in range(40)}
    assert answers == {"gil=False"}, answers


def test_wsgi_answers_echoes_and_survives_an_app_error(wsgi):
    body = os.urandom(100_000)
    assert httpx.post(wsgi.url + "/echo", content=body).content == body
    mark = wsgi.log_mark()
    assert httpx.get(wsgi.url + "/raise").status_code == 500
    assert wsgi.wait_for_log("the matrix app raised on purpose", since=mark)
    assert httpx.get(wsgi.url + "/").status_code == 200


def test_asgi_answers_echoes_and_sees_the_lifespan_state(asgi):
    assert httpx.get(asgi.url + "/").text == f"asgi {VERSION[0]}.{VERSION[1]}"
    body = os.urandom(300_000)
    assert httpx.post(asgi.url + "/echo", content=body).content == body
    assert httpx.get(asgi.url + "/state").text == f"{VERSION[0]}.{VERSION[1]}"


def test_a_websocket_echoes_text_and_bytes(asgi):
    with websocket_connect(asgi.url.replace("http://", "ws://", 1) + "/echo", open_timeout=10) as ws:
        ws.send("hello from the matrix")
        assert ws.recv(timeout=10) == "hello from the matrix"
        payload = os.urandom(70_000)
        ws.send(payload)
        assert ws.recv(timeout=10) == payload


def h2c(server: Server, method: str, path: str, body: bytes | None = None) -> httpx.Response:
    """One request over HTTP/2 by prior knowledge on the plain port (httpx
    with http1=False opens with HTTP/2's preface)."""
    with httpx.Client(http1=False, http2=True, timeout=10) as client:
        response = client.request(method, server.url + path, content=body)
    assert response.http_version == "HTTP/2"
    return response


def test_h2c_serves_wsgi(wsgi):
    assert h2c(wsgi, "GET", "/").text == f"wsgi {VERSION[0]}.{VERSION[1]}"
    body = os.urandom(200_000)  # more than HTTP/2's initial 64 KiB window
    assert h2c(wsgi, "POST", "/echo", body).content == body


def test_h2c_serves_asgi(asgi):
    assert h2c(asgi, "GET", "/").text == f"asgi {VERSION[0]}.{VERSION[1]}"
    body = os.urandom(200_000)
    assert h2c(asgi, "POST", "/echo", body).content == body


def test_the_wheel_serves_http3_on_the_quic_it_carries(tls_certificates):
    server = serve(*ANY_SHAPE, "--http3", *tls_args(tls_certificates), "tests.matrix.apps:wsgi")
    try:
        alpn, [answer] = h3_exchange(server.port, str(tls_certificates.ca), [("GET", "/")])
        assert alpn == "h3"
        assert answer["status"] == 200
        assert answer["body"] == f"wsgi {VERSION[0]}.{VERSION[1]}".encode()
    finally:
        stop(server)


def test_a_starlette_app_from_pypi_serves_json_streams_and_anyio_cancel_scopes(starlette):
    assert httpx.get(starlette.url + "/json").json() == {"hello": "world", "task": "baton.request"}
    assert httpx.get(starlette.url + "/cancel-scope").text == "cancelled=True"
    assert httpx.get(starlette.url + "/stream").text == "".join(f"piece {i}\n" for i in range(5))


@pytest.mark.skipif(VERSION < (3, 12), reason="eager task starts need Python 3.12 or later")
@pytest.mark.skipif(bool(THREADS), reason="the pump's and inverted's own callbacks (the threads shape's are inverted's)")
@pytest.mark.parametrize("shape", ["pump-asyncio", "inverted-asyncio"])
@pytest.mark.parametrize("eager", [True, False])
def test_request_tasks_take_their_first_step_inside_the_drain_on_3_12_and_later(shape, eager):
    env = {} if eager else {"BATON_X_EAGER_TASKS": "0"}
    server = serve(*ASGI_SHAPES[shape], "--interface", "asgi", "tests.matrix.apps:asgi", env=env)
    try:
        stack = httpx.get(server.url + "/stack").text.split()
    finally:
        stop(server)
    # The asyncio side's callbacks in baton/asgi.py: on_wake (pump) and run_pass / queued_pass (inverted).
    inside_the_drain = bool({"on_wake", "run_pass", "queued_pass"} & set(stack))
    assert inside_the_drain == eager, stack


def test_lifespan_shutdown_runs_on_sigterm_and_the_exit_is_clean(tmp_path):
    marker = tmp_path / "shutdown"
    server = serve(*ANY_SHAPE, "--interface", "asgi", "tests.matrix.apps:asgi",
                   env={"MATRIX_SHUTDOWN_FILE": str(marker)})
    assert httpx.get(server.url + "/state").status_code == 200
    server.signal(signal.SIGTERM)
    assert server.wait(10) == 0
    assert marker.read_text() == "shut down"
    stop(server)


def post_many(sock, count: int) -> None:
    """`count` small POSTs on one keep-alive connection, each answer read before the next."""
    request = b"POST /echo HTTP/1.1\r\nHost: m\r\nContent-Length: 64\r\n\r\n" + b"x" * 64
    for _ in range(count):
        sock.sendall(request)
        status, _, body, _ = read_response(sock)
        assert status == 200 and body == b"x" * 64


def allocated_blocks(sock) -> int:
    sock.sendall(b"GET /blocks HTTP/1.1\r\nHost: m\r\n\r\n")
    return int(read_response(sock)[2])


@pytest.mark.parametrize("interface", ["wsgi", "asgi"])
def test_ten_thousand_requests_leave_no_python_objects_behind(interface):
    """The bridge's reference-leak check: Python's allocated blocks after a
    warm-up, then after 10 000 more requests on one keep-alive connection."""
    args = ["--blocking-threads", "1"] if interface == "wsgi" else ["--interface", "asgi"]
    args = [*ANY_SHAPE, *args]
    server = serve(*args, f"tests.matrix.apps:{interface}")
    try:
        with server.connect() as sock:
            post_many(sock, 2000)
            before = allocated_blocks(sock)
            post_many(sock, 10_000)
            after = allocated_blocks(sock)
    finally:
        stop(server)
    print(f"allocated blocks: {before} before, {after} after")
    # A leaked object per request would be 10 000 blocks or more.
    assert after - before < 1000, f"{after - before} blocks more after 10 000 requests"


def test_the_wheels_of_the_neighbouring_pythons_are_refused_by_pip(tmp_path):
    """Each is tagged for its own CPython alone (cpXY-cpXY), the manylinux tag
    they share notwithstanding: 3.15's pip refuses 3.14's wheel, 3.14's
    refuses 3.13's and 3.15's (the one minor below and the one above, each
    pip call taking a second), and the same minor's other build: 3.13t's
    pip refuses the cp313 wheel, 3.13's the cp313t one."""
    free_threaded = bool(THREADS)
    wheels = {}
    for w in (ROOT / "dist").glob("baton-*-cp*.whl"):
        python, abi = re.search(r"-cp(\d+)-cp(\d+t?)-", w.name).groups()
        wheels[(int(python[0]), int(python[1:]), abi.endswith("t"))] = w
    neighbours = [(VERSION[0], VERSION[1] - 1, free_threaded), (VERSION[0], VERSION[1] + 1, free_threaded),
                  (VERSION[0], VERSION[1], not free_threaded)]  # and the same minor's other build (t or not)
    others = [w for key, w in wheels.items() if key in neighbours]
    if not others:
        pytest.skip("no wheel of a neighbouring Python in dist/ (make wheels)")
    for wheel in others:
        out = subprocess.run([PYTHON, "-m", "pip", "install", "--no-index", "--no-deps", "--target",
                              str(tmp_path / "t"), str(wheel)], capture_output=True, text=True)
        assert out.returncode != 0, wheel.name
        assert "is not a supported wheel on this platform" in out.stderr, (wheel.name, out.stderr)
