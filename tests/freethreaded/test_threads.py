"""The --threads shape on a free-threaded CPython (3.13t, built by
`make python-ft`; BATON_FT_PYTHON names the python of a venv that has baton
installed, as `make freethreaded` makes it): N loop threads in one process,
each running the app itself. What a worker has, a loop thread has: the GIL
stays off, every loop serves and two run the app at once, TERM drains them
all, HUP reloads them in place, health says 503 on all of them, lifespan
runs on each (ASGI), WebSockets and h2c, the access log, workers of
threads, a stuck loop under --timeout, --max-requests, a module that turns
the GIL back on, and a stress run (many connections, views that block and
raise, WebSockets opening and dropping, a reload under load) with every
request answered and memory flat. Every server is started by the `serve`
fixture (conftest.py), which stops it, and every process of it, whatever
the test's outcome."""

import concurrent.futures
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import psutil
import pytest
from websockets.sync.client import connect as ws_connect

from tests.integration.h2client import H2Client
from tests.integration.server import ROOT, burst

PYTHON = os.environ.get("BATON_FT_PYTHON")
pytestmark = pytest.mark.skipif(not PYTHON, reason="no free-threaded CPython here (make freethreaded builds one)")

WSGI = "tests.freethreaded.apps:wsgi"
ASGI = "tests.freethreaded.apps:asgi"
LOOPS = {"baton-loop-0", "baton-loop-1"}


def calls(server) -> list[str]:
    return server.record.read_text().splitlines() if server.record.exists() else []


class Answer:
    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content
        self.text = content.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.content)


def get(server, path: str, timeout: float = 10, method: str = "GET", body: bytes | None = None) -> Answer:
    # A new connection each time (a connection stays on the loop that
    # accepted it), by http.client: cheap enough for thousands.
    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Connection": "close"})
        response = connection.getresponse()
        return Answer(response.status, response.read())
    finally:
        connection.close()


def many(server, path: str, count: int, workers: int = 16) -> list[Answer]:
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda _: get(server, path), range(count)))


def wait_until(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize("app", [WSGI, ASGI], ids=["wsgi", "asgi"])
def test_the_gil_stays_off_and_every_loop_thread_serves(serve, app):
    server = serve("--threads", "2", app)
    answers = [r.json() for r in many(server, "/whoami", 200)]
    assert all(a["gil"] is False for a in answers)
    assert {a["thread"] for a in answers} == LOOPS
    assert len({a["pid"] for a in answers}) == 1
    assert "2 loop threads" in server.log
    assert "GIL" not in server.log


def test_two_loop_threads_run_the_app_at_once(serve):
    # A WSGI view holds its loop thread until another request releases it:
    # only a second loop, running the app at the same time, can. With one
    # socket both loops wait on, the idle loop takes the new connection;
    # with a socket each (the default), the kernel's hash may give it to
    # the held loop, where it waits (README: Limits).
    server = serve("--threads", "2", "--no-accept-spread", WSGI)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        held = pool.submit(get, server, "/hold?gate=a&timeout=10")
        assert wait_until(lambda: "holding a" in calls(server))
        release = get(server, "/release?gate=a").json()
        answer = held.result(timeout=10).json()
    assert answer["released"] is True
    assert {answer["thread"], release["thread"]} == LOOPS


@pytest.mark.parametrize("app", [WSGI, ASGI], ids=["wsgi", "asgi"])
def test_sigterm_drains_every_loop_thread(serve, app):
    server = serve("--threads", "2", "--graceful-timeout", "5", app)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        slow = [pool.submit(get, server, "/sleep?s=1.5") for _ in range(2)]
        assert wait_until(lambda: len([c for c in calls(server) if c.startswith("/sleep")]) == 2)
        server.proc.send_signal(signal.SIGTERM)
        assert [f.result(timeout=10).text for f in slow] == ["slept", "slept"]
    assert server.proc.wait(10) == 0
    assert {c.split()[1] for c in calls(server) if c.startswith("/sleep")} <= LOOPS
    assert server.log.count("shutting down") == 2


def test_health_says_503_on_every_loop_once_a_drain_begins(serve):
    server = serve("--threads", "2", "--health-path", "/healthz", "--graceful-timeout", "10", ASGI)
    assert {get(server, "/healthz").status_code for _ in range(10)} == {200}
    # Slow requests on every loop, long enough for twenty health checks to
    # be answered while they hold the drain open (a ThreadSanitizer build
    # of the interpreter is several times slower). The kernel picks each
    # connection's loop, so they are sent until both loops hold one: a loop
    # with nothing in flight ends its drain at once and closes its socket,
    # and the connections the kernel queued on it are reset (a known gap).
    def sleeping() -> list[str]:
        return [c for c in calls(server) if c.startswith("/sleep")]

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        slow = []
        while len(slow) < 12 and {c.split()[1] for c in sleeping()} != LOOPS:
            slow += [pool.submit(get, server, "/sleep?s=4") for _ in range(2)]
            assert wait_until(lambda: len(sleeping()) == len(slow))
        assert {c.split()[1] for c in sleeping()} == LOOPS, sleeping()
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        # Twenty new connections, which the kernel spreads over the
        # loops: every one says 503 while the slow requests finish.
        statuses = [get(server, "/healthz").status_code for _ in range(20)]
        assert [f.result(timeout=10).text for f in slow] == ["slept"] * len(slow)
    assert set(statuses) == {503}, statuses


def test_sighup_reloads_every_loop_in_place(serve):
    server = serve("--threads", "2", WSGI)
    pid = server.proc.pid
    before = many(server, "/whoami", 40)
    assert {r.json()["thread"] for r in before} == LOOPS
    mark = server.log_mark()
    server.proc.send_signal(signal.SIGHUP)
    assert server.wait_for_log("reloading: starting over on the same sockets", since=mark)
    assert server.wait_for_log("2 loop threads", since=mark)
    after = many(server, "/whoami", 40)
    assert {r.json()["pid"] for r in after} == {pid}
    assert {r.json()["thread"] for r in after} == LOOPS


def loop_shares(server, count: int = 64) -> list[int]:
    """How many of a burst of `count` connections each loop thread served."""
    threads = [json.loads(body)["thread"] for body in burst(server.host, server.port, count, "/whoami")]
    return sorted(threads.count(name) for name in LOOPS)


@pytest.mark.parametrize("app", [WSGI, ASGI], ids=["wsgi", "asgi"])
def test_a_burst_of_connections_is_spread_over_the_loop_threads_also_after_a_reload(serve, app):
    # Sharing one socket, the first loop the kernel woke took all 64 of a
    # burst; each loop's own socket in an SO_REUSEPORT group takes a share
    # by the kernel's hash of the client's port: 32 on average, below 12
    # about once in 10^7. A reload passes every loop's socket on (the
    # sockets regrouped, not shared), so the spread survives it.
    server = serve("--threads", "2", app)
    for _ in range(3):
        shares = loop_shares(server)
        assert shares[0] >= 12, shares
    mark = server.log_mark()
    server.proc.send_signal(signal.SIGHUP)
    assert server.wait_for_log("2 loop threads", since=mark)
    for _ in range(3):
        shares = loop_shares(server)
        assert shares[0] >= 12, shares


def test_lifespan_runs_on_each_loop_with_its_own_state(serve):
    server = serve("--threads", "2", ASGI)
    answers = [r.json() for r in many(server, "/whoami", 100)]
    # Each loop's requests see the state its own startup set.
    assert all(a["state"] == a["thread"] for a in answers)
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(10) == 0
    startups = sorted(c.split()[1] for c in calls(server) if c.startswith("startup"))
    shutdowns = sorted(c.split()[1] for c in calls(server) if c.startswith("shutdown"))
    assert startups == shutdowns == sorted(LOOPS)


def test_websockets_and_h2c_are_served_by_the_loop_threads(serve):
    server = serve("--threads", "2", ASGI)
    for i in range(10):
        with ws_connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            ws.send(f"text {i}")
            assert ws.recv(timeout=5) == f"text {i}"
            ws.send(bytes([i]) * 1000)
            assert ws.recv(timeout=5) == bytes([i]) * 1000
    threads = set()
    for _ in range(10):
        client = H2Client(server)
        response = client.get("/whoami")
        assert response.status == 200
        threads.add(json.loads(bytes(response.data))["thread"])
        client.close()
    assert threads <= LOOPS


def test_the_access_log_has_every_loops_lines(serve):
    server = serve("--threads", "2", "--access-log", WSGI)
    answers = [r.json()["thread"] for r in many(server, "/whoami", 100)]
    assert set(answers) == LOOPS
    assert wait_until(lambda: server.log.count('"GET /whoami HTTP/1.1" 200') == 100), server.log[-2000:]


@pytest.mark.parametrize("app", [WSGI, ASGI], ids=["wsgi", "asgi"])
def test_the_json_access_log_names_the_loop_that_served(serve, app, tmp_path):
    log = tmp_path / "access.log"
    server = serve("--threads", "2", "--access-log", "--access-log-format", "json", "--access-logfile", str(log), app)
    served = {f"i={i}": answer.json() for i, answer in enumerate(get(server, f"/whoami?i={i}") for i in range(40))}
    assert {a["thread"] for a in served.values()} == LOOPS

    def entries() -> dict[str, dict]:
        lines = log.read_bytes().splitlines() if log.exists() else []
        return {entry["query"]: entry for entry in map(json.loads, lines) if entry["path"] == "/whoami"}

    assert wait_until(lambda: len(entries()) == len(served)), log.read_text() if log.exists() else "no log"
    for query, entry in entries().items():
        assert f"baton-loop-{entry['loop']}" == served[query]["thread"]
        assert entry["worker"] == served[query]["pid"] == server.proc.pid


def test_workers_of_threads_serve_from_every_loop_of_every_worker(serve):
    server = serve("-w", "2", "--threads", "2", WSGI)
    answers = [r.json() for r in many(server, "/whoami", 400, workers=32)]
    assert len({a["pid"] for a in answers}) == 2
    assert {(a["pid"], a["thread"]) for a in answers} == {(p, t) for p in {a["pid"] for a in answers}
                                                          for t in LOOPS}


def test_http3_reaches_the_loop_that_owns_each_connection_across_workers_of_threads(serve, tls_certificates):
    # Four workers of two loops: eight UDP sockets read, each connection's
    # datagrams steered by its connection ID to the loop that issued it, a
    # client that moves to a new port mid-connection included
    # (tests/integration/test_http3_workers.py has the rest of the design).
    import asyncio

    from tests.conftest import tls_args
    from tests.integration.h3client import converse

    server = serve("-w", "4", "--threads", "2", "--http3", *tls_args(tls_certificates), WSGI)
    ca = str(tls_certificates.ca)
    plans = [n % 4 == 0 for n in range(400)]

    async def run():
        return await asyncio.gather(*(converse(server.port, ca, [[("GET", "/whoami")], [("GET", "/whoami")]],
                                               rebind, timeout=60) for rebind in plans), return_exceptions=True)

    results = asyncio.run(run())
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, f"{len(failures)} of 400 connections failed, the first: {failures[0]!r}"
    owners = set()
    for before, after in results:
        first, second = (json.loads(answer[0]["body"]) for answer in (before, after))
        assert (first["pid"], first["thread"]) == (second["pid"], second["thread"]), "a connection moved loops"
        owners.add((first["pid"], first["thread"]))
    assert len(owners) == 8, f"new connections reached {len(owners)} of the 8 loops"


def test_workers_of_threads_finish_their_requests_and_exit_when_their_master_is_killed(serve):
    # The kernel's death signal reaches the worker's main thread, which
    # passes it to every loop; each loop retires, a request in flight on
    # any of them answered first.
    server = serve("-w", "2", "--threads", "2", "--graceful-timeout", "3", WSGI)
    pids = {a.json()["pid"] for a in many(server, "/whoami", 100)}
    assert len(pids) == 2
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        held = pool.submit(get, server, "/hold?gate=dies&timeout=1", 30)
        assert wait_until(lambda: "holding dies" in calls(server))
        killed_at = time.monotonic()
        os.kill(server.proc.pid, signal.SIGKILL)
        assert held.result(timeout=10).status_code == 200

    assert wait_until(lambda: all(gone(pid) for pid in pids), timeout=3 + 1 - (time.monotonic() - killed_at))
    probe = socket.socket()
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    probe.bind(("127.0.0.1", server.port))  # the port is free
    probe.close()


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting to be reaped counts): asked once, so a process that exits
    between two questions is not taken for one that never existed."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_stuck_loop_thread_retires_its_worker_and_a_new_one_serves(serve):
    server = serve("-w", "1", "--threads", "2", "--timeout", "2", "--graceful-timeout", "1", WSGI)
    first = get(server, "/whoami").json()["pid"]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        stuck = pool.submit(get, server, "/hold?gate=never&timeout=60", 30)
        assert wait_until(lambda: "holding never" in calls(server))
        assert server.wait_for_log("a loop thread of worker", timeout=10), server.log[-2000:]
        assert wait_until(lambda: get(server, "/whoami").json()["pid"] != first, timeout=15)
        # The stuck request's connection is lost with its process: a thread cannot be killed.
        with pytest.raises(OSError):
            stuck.result(timeout=20)
    # Gone (its sockets close as it exits, a moment before it is reaped).
    assert wait_until(lambda: gone(first))
    assert {r.status_code for r in many(server, "/whoami", 40)} == {200}


def test_max_requests_recycles_the_process_of_threads_without_losing_a_request(serve):
    server = serve("-w", "1", "--threads", "2", "--max-requests", "30", WSGI)
    answers = many(server, "/whoami", 200, workers=4)
    assert {r.status_code for r in answers} == {200}
    assert len({r.json()["pid"] for r in answers}) >= 3  # 200 requests, about 30 a process


GIL_MODULE = r"""
#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "gilneeder", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_gilneeder(void) { return PyModule_Create(&def); }
"""


def test_a_module_that_turns_the_gil_back_on_is_named_in_one_line_and_serving_goes_on(serve, tmp_path):
    # An extension that does not declare Py_mod_gil: importing it turns the GIL on.
    source = tmp_path / "gilneeder.c"
    source.write_text(GIL_MODULE)
    include = subprocess.run([PYTHON, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    suffix = subprocess.run([PYTHON, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["gcc", "-shared", "-fPIC", f"-I{include}", "-o", str(tmp_path / f"gilneeder{suffix}"),
                    str(source)], check=True)
    (tmp_path / "gil_app.py").write_text("import gilneeder\nfrom tests.freethreaded.apps import wsgi\n")
    server = serve("--threads", "2", "--app-dir", str(tmp_path), "gil_app:wsgi",
                   env={"PYTHONPATH": str(ROOT)})
    answers = [r.json() for r in many(server, "/whoami", 40)]
    assert all(a["gil"] is True for a in answers)
    lines = [line for line in server.log.splitlines() if "GIL" in line]
    assert len(lines) == 1, server.log
    assert "the GIL is enabled again: gilneeder did not declare it can run without it" in lines[0]


def test_stress_many_connections_blocking_and_raising_views_websockets_and_a_reload(serve):
    # Both interfaces at once would need two servers; the WSGI loops take the
    # HTTP load (views that sleep, burn CPU, raise, echo bodies) and a HUP
    # halfway, the ASGI ones the WebSockets opening and dropping.
    wsgi = serve("--threads", "2", WSGI)
    asgi = serve("--threads", "2", ASGI)
    paths = ["/whoami", "/cpu?ms=2", "/sleep?s=0.01", "/raise"]
    process = psutil.Process(wsgi.proc.pid)

    def one(i: int) -> int:
        if i % 50 == 0:
            body = os.urandom(70000)
            r = get(wsgi, "/echo", 30, "POST", body)
            assert r.content == body
            return r.status_code
        return get(wsgi, paths[i % len(paths)]).status_code

    def socket_churn(i: int) -> None:
        with ws_connect(f"ws://127.0.0.1:{asgi.port}/ws") as ws:
            ws.send(str(i))
            assert ws.recv(timeout=10) == str(i)
            if i % 2:
                ws.socket.close()  # dropped without a close handshake

    with concurrent.futures.ThreadPoolExecutor(32) as pool:
        warm = list(pool.map(one, range(400)))
        rss_warm = process.memory_info().rss
        statuses = list(pool.map(one, range(2000)))
        wsgi.proc.send_signal(signal.SIGHUP)
        statuses += list(pool.map(one, range(2000)))
        list(pool.map(socket_churn, range(400)))
    expected = {200, 500}
    assert set(warm) <= expected and set(statuses) <= expected
    assert statuses.count(500) == sum(1 for i in list(range(2000)) * 2 if i % 4 == 3 and i % 50)
    assert process.memory_info().rss - rss_warm < 48 << 20
    assert wsgi.proc.poll() is None and asgi.proc.poll() is None
    assert "Segmentation" not in wsgi.log + asgi.log and "Fatal Python error" not in wsgi.log + asgi.log
