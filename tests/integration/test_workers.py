"""Workers under a master, in every shape: shared sockets, respawn, recycling,
--timeout, the signals (TERM, INT, QUIT, HUP under load, TTIN/TTOU, USR1),
--reload, and an app that cannot load."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import psutil
import pytest

from tests.integration.server import ROOT, Server, burst, read_response

OPS = "tests.integration.apps.ops_apps:app"
OPS_ASGI = "tests.integration.apps.ops_apps:asgi_app"
WORKER_SHAPES = {
    "inline": ["--blocking-threads", "0", OPS],
    "pool": ["--blocking-threads", "2", OPS],
    "asgi": [OPS_ASGI],
}


@pytest.fixture(params=list(WORKER_SHAPES))
def shape(request):
    return WORKER_SHAPES[request.param]


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting to be reaped counts), asked once: one that exits between
    two questions is not taken for one that never existed."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def start(*args, env=None) -> Server:
    return Server(["--port", "0", *args], env=env).start()


def workers_of(server: Server) -> set[int]:
    """The master's live children. A child can exit and be reaped between
    the listing and the status read: it is not a worker then."""
    pids = set()
    for child in psutil.Process(server.proc.pid).children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                pids.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return pids


def wait_for_workers(server: Server, count: int, exclude=(), timeout: float = 10.0) -> set[int]:
    """The worker pids once `count` are up and serving, none of them in `exclude`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = workers_of(server)
        # "pid 12" must not be taken for the start of "pid 1234".
        log = server.log
        if len(pids) == count and not pids & set(exclude) and all(re.search(rf"\bpid {pid}\b", log) for pid in pids):
            return pids
        time.sleep(0.05)
    raise AssertionError(f"wanted {count} workers (not {exclude}), have {workers_of(server)}:\n{server.log}")


def pid_of_answer(server: Server, path: str = "/") -> int:
    return httpx.get(server.url + path, timeout=10).json()["pid"]


def test_workers_share_the_sockets(shape):
    server = start("--workers", "2", *shape)
    try:
        pids = wait_for_workers(server, 2)
        assert server.proc.pid not in pids
        seen = set()
        lock = threading.Lock()

        def client():
            for _ in range(15):
                answer = httpx.get(server.url + "/slow?0.02", timeout=10)
                assert answer.status_code == 200
                with lock:
                    seen.add(answer.json()["pid"])

        threads = [threading.Thread(target=client) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert seen == pids
        if "--blocking-threads" in shape:
            assert httpx.get(server.url + "/").json()["wsgi.multiprocess"] is True
    finally:
        server.stop()


def test_a_dead_worker_is_replaced_within_one_and_a_half_seconds(shape):
    server = start("--workers", "2", *shape)
    try:
        pids = wait_for_workers(server, 2)
        victim = min(pids)
        mark = server.log_mark()
        killed_at = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        new = wait_for_workers(server, 2, exclude={victim}, timeout=5)
        assert time.monotonic() - killed_at < 1.5
        assert len(new - pids) == 1
        assert server.wait_for_log(f"worker {victim} was killed by SIGKILL; starting another", since=mark), \
            server.log_since(mark)
        for _ in range(10):
            assert httpx.get(server.url + "/").status_code == 200
    finally:
        server.stop()


def test_max_requests_recycles_without_failing_a_request(shape):
    server = start("--workers", "1", "--max-requests", "10", "--max-requests-jitter", "3", *shape)
    try:
        wait_for_workers(server, 1)
        pids = set()
        for _ in range(40):
            # A new connection each time, as a browser's first request.
            response = httpx.get(server.url + "/", headers={"Connection": "close"}, timeout=10)
            assert response.status_code == 200
            pids.add(response.json()["pid"])
        assert len(pids) >= 3, pids
        assert server.wait_for_log("(--max-requests): recycling this worker"), server.log
        assert server.wait_for_log("retired; starting another"), server.log
    finally:
        server.stop()


def test_timeout_pool_answers_504_and_replaces_the_worker():
    server = start("--workers", "2", "--timeout", "1", "--blocking-threads", "2", "--graceful-timeout", "2", OPS)
    try:
        pids = wait_for_workers(server, 2)
        started = time.monotonic()
        hung = httpx.get(server.url + "/hang", timeout=15)
        assert hung.status_code == 504
        assert time.monotonic() - started < 4
        # Nobody else noticed.
        for _ in range(10):
            assert httpx.get(server.url + "/").status_code == 200
        assert server.wait_for_log("past the timeout; answering 504")
        # The worker whose thread is stuck retires, and another takes its place.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (len(workers_of(server) & pids) == 1
                                                   and len(workers_of(server)) == 2):
            time.sleep(0.1)
        assert len(workers_of(server) & pids) == 1 and len(workers_of(server)) == 2, (pids, workers_of(server))
    finally:
        server.stop()


@pytest.mark.parametrize("args, path", [(["--blocking-threads", "0", OPS], "/hang"), ([OPS_ASGI], "/block")],
                         ids=["inline", "asgi-blocked-loop"])
def test_timeout_kills_a_worker_whose_loop_stopped(args, path):
    server = start("--workers", "2", "--timeout", "1", *args)
    try:
        pids = wait_for_workers(server, 2)
        started = time.monotonic()
        with server.connect(timeout=15) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            try:
                assert sock.recv(100) == b""  # closed: the worker was killed
            except ConnectionResetError:
                pass
        assert time.monotonic() - started < 5
        assert server.wait_for_log("(--timeout 1); killing it")
        killed = {int(pid) for pid in re.findall(r"worker (\d+) made no progress", server.log)}
        assert len(killed) == 1 and killed < pids, (killed, pids, server.log)
        wait_for_workers(server, 2, exclude=killed)
        for _ in range(10):
            assert httpx.get(server.url + "/").status_code == 200
        assert workers_of(server) & pids == pids - killed, server.log
    finally:
        server.stop()


def test_timeout_spares_workers_when_the_whole_machine_stalled():
    """A paused VM stops the master and its workers alike: on waking, every
    heartbeat is older than --timeout though no loop is stuck. The master sees
    that it stalled too and gives the workers a round to stamp again. The
    master wakes first here, its workers 100 ms later, the worst order."""
    server = start("--workers", "2", "--timeout", "1", *WORKER_SHAPES["inline"])
    try:
        pids = wait_for_workers(server, 2)
        everyone = [server.proc.pid, *pids]
        time.sleep(0.5)  # the master has booted both and looks at their stamps
        for pid in everyone:
            os.kill(pid, signal.SIGSTOP)
        time.sleep(2)
        os.kill(server.proc.pid, signal.SIGCONT)
        time.sleep(0.1)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pytest.fail(f"the master killed worker {pid} while it was stopped:\n{server.log}")
        time.sleep(1.5)  # several rounds of the master's look
        assert "killing it" not in server.log, server.log
        assert workers_of(server) == pids
        assert httpx.get(server.url + "/").status_code == 200
    finally:
        for pid in (server.proc.pid, *workers_of(server)):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        server.stop()


def test_term_drains_every_worker_then_exits_0(shape):
    server = start("--workers", "2", "--graceful-timeout", "10", *shape)
    try:
        pids = wait_for_workers(server, 2)
        slow = server.connect()
        slow.sendall(b"GET /slow?1 HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.3)
        started = time.monotonic()
        server.signal(signal.SIGTERM)
        status, _, _, _ = read_response(slow)
        assert status == 200
        assert server.wait(10) == 0
        assert time.monotonic() - started < 5
        assert all(gone(p) for p in pids)
    finally:
        server.stop()


def alive(pid: int) -> bool:
    """A process that runs (a zombie nobody reaped yet has exited)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def port_is_free(port: int) -> bool:
    """A new server could listen on `port` (as baton binds: SO_REUSEADDR, not SO_REUSEPORT)."""
    probe = socket.socket()
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
        probe.listen()
        return True
    except OSError:
        return False
    finally:
        probe.close()


def test_workers_finish_their_requests_and_exit_when_their_master_is_killed(shape):
    # A master killed with SIGKILL cannot tell its workers: the kernel does
    # (PR_SET_PDEATHSIG), and the workers retire as a reload retires them,
    # finishing what they hold. Under load, with a slow request in flight.
    graceful = 3
    server = start("--workers", "2", "--graceful-timeout", str(graceful), "--metrics-bind", "127.0.0.1:0", *shape)
    wrk = None
    try:
        pids = wait_for_workers(server, 2)
        metrics_port = int(re.search(r"metrics at http://127\.0\.0\.1:(\d+)/metrics", server.log).group(1))
        wrk = subprocess.Popen(["wrk", "-t", "1", "-c", "8", "-d", "4s", server.url + "/"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        slow = server.connect()
        slow.sendall(b"GET /slow?1 HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.5)
        killed_at = time.monotonic()
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(5)  # its descriptors are closed once it has died
        # The metrics socket was the master's alone: free while the workers drain.
        assert port_is_free(metrics_port)
        status, _, _, _ = read_response(slow)
        assert status == 200  # the request in flight was answered
        deadline = killed_at + graceful + 1
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in pids if alive(pid)]
        assert not left, f"workers {left} outlived their master by {time.monotonic() - killed_at:.1f} s"
        assert port_is_free(server.port)
        for pid in pids:
            assert server.wait_for_log(f"[{pid}] [INFO] retiring: finishing the requests in flight"), server.log
    finally:
        if wrk is not None:
            wrk.kill()
            wrk.wait()
        server.stop()


@pytest.mark.parametrize("signo", [signal.SIGINT, signal.SIGQUIT], ids=["INT", "QUIT"])
def test_int_and_quit_are_quick(signo):
    server = start("--workers", "2", "--graceful-timeout", "30", "--blocking-threads", "2", OPS)
    try:
        wait_for_workers(server, 2)
        slow = server.connect()
        slow.sendall(b"GET /slow?20 HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.3)
        started = time.monotonic()
        server.signal(signo)
        assert server.wait(10) == 0
        assert time.monotonic() - started < 4
        assert slow.recv(100) == b""
    finally:
        server.stop()


def test_ttin_and_ttou():
    server = start("--workers", "1", OPS)
    try:
        first = wait_for_workers(server, 1)
        server.signal(signal.SIGTTIN)
        two = wait_for_workers(server, 2)
        assert first < two
        server.signal(signal.SIGTTOU)
        one = wait_for_workers(server, 1)
        assert one < two
        # The master's lines are read from its output by a thread of the
        # test: on a loaded machine they may come after the workers are seen.
        assert server.wait_for_log("SIGTTIN: 2 workers") and server.wait_for_log("SIGTTOU: 1 workers"), server.log
    finally:
        server.stop()


def burst_pids(server: Server, count: int = 64) -> list[int]:
    return [json.loads(body)["pid"] for body in burst(server.host, server.port, count, timeout=5)]


def test_every_part_of_the_sockets_is_served_after_ttou_and_ttin():
    # Each worker accepts from a socket of its own (SO_REUSEPORT), and the
    # kernel hashes a connection to one of the two: with one worker left,
    # the other's socket must still be served (a new generation takes both),
    # or about half of a burst would wait there unanswered.
    server = start("--workers", "2", OPS)
    try:
        two = wait_for_workers(server, 2)
        server.signal(signal.SIGTTOU)
        one = wait_for_workers(server, 1)
        assert set(burst_pids(server)) == one
        server.signal(signal.SIGTTIN)
        again = wait_for_workers(server, 2, exclude=two - one)
        assert one < again
        for _ in range(2):
            assert set(burst_pids(server)) <= again
    finally:
        server.stop()


def test_usr1_makes_workers_reopen_the_access_log(tmp_path):
    log = tmp_path / "access.log"
    server = start("--workers", "2", "--access-log", "--access-logfile", str(log), OPS)
    try:
        wait_for_workers(server, 2)
        httpx.get(server.url + "/before")
        os.rename(log, tmp_path / "old.log")
        server.signal(signal.SIGUSR1)
        time.sleep(0.5)
        for _ in range(10):
            httpx.get(server.url + "/after", headers={"Connection": "close"})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (not log.exists() or log.read_text().count("/after") < 10):
            time.sleep(0.05)
        assert log.read_text().count("/after") == 10
        assert "/after" not in (tmp_path / "old.log").read_text()
    finally:
        server.stop()


def parse_wrk(output: str) -> dict:
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {"requests": requests, "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "errors": sum(map(int, errors.groups())) if errors else 0}


def test_hup_under_load_fails_nothing_and_replaces_every_worker(shape, tmp_path):
    server = start("--workers", "2", *shape)
    try:
        before = wait_for_workers(server, 2)
        wrk = subprocess.Popen(["wrk", "-t", "2", "-c", "16", "-d", "5s", server.url + "/"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        time.sleep(1)
        server.signal(signal.SIGHUP)
        time.sleep(1.5)
        server.signal(signal.SIGHUP)
        output, _ = wrk.communicate(timeout=30)
        result = parse_wrk(output)
        assert result["requests"] > 500, output
        assert result["non2xx"] == 0 and result["errors"] == 0, output
        after = wait_for_workers(server, 2)
        assert not before & after
        assert server.log.count("reload: new workers serving; old ones draining") == 2
    finally:
        server.stop()


def copy_app(directory, version: str) -> None:
    (directory / "reloadable.py").write_text(
        "def app(environ, start_response):\n"
        f"    body = b'version {version}'\n"
        "    start_response('200 OK', [('Content-Length', str(len(body)))])\n"
        "    return [body]\n")


def test_hup_loads_fresh_code_and_a_broken_reload_keeps_the_old(tmp_path):
    copy_app(tmp_path, "1")
    server = start("--workers", "2", "--app-dir", str(tmp_path), "reloadable:app")
    try:
        first = wait_for_workers(server, 2)
        assert httpx.get(server.url + "/").text == "version 1"
        copy_app(tmp_path, "2")
        server.signal(signal.SIGHUP)
        second = wait_for_workers(server, 2, exclude=first)
        assert httpx.get(server.url + "/").text == "version 2"
        (tmp_path / "reloadable.py").write_text("raise ImportError('broken on purpose')\n")
        mark = server.log_mark()
        server.signal(signal.SIGHUP)
        assert server.wait_for_log("reload failed: the new code does not load", since=mark, timeout=10)
        assert "broken on purpose" in server.log_since(mark)
        for _ in range(10):
            assert httpx.get(server.url + "/").text == "version 2"
        assert workers_of(server) == second
    finally:
        server.stop()


def test_reload_watches_python_files(tmp_path):
    copy_app(tmp_path, "1")
    server = start("--reload", "--app-dir", str(tmp_path), "reloadable:app")
    try:
        first = wait_for_workers(server, 1)
        assert httpx.get(server.url + "/").text == "version 1"
        time.sleep(0.5)
        copy_app(tmp_path, "2")
        wait_for_workers(server, 1, exclude=first)
        deadline = time.monotonic() + 10
        while httpx.get(server.url + "/").text != "version 2":
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        server.stop()


def test_reload_waits_for_a_save_in_steps_to_end_and_loads_what_was_saved_last(tmp_path):
    # An editor's save is several changes: here the file is emptied, and
    # 50 ms later written whole. Reloading at the first change loaded an
    # empty module (the reload failed, the old workers stayed) and let the
    # second change, in the same burst, go by, so version 2 never came.
    # The reload waits for the changes to stop, then loads version 2, once.
    copy_app(tmp_path, "1")
    server = start("--reload", "--app-dir", str(tmp_path), "reloadable:app")
    try:
        first = wait_for_workers(server, 1)
        assert httpx.get(server.url + "/").text == "version 1"
        time.sleep(0.5)
        (tmp_path / "reloadable.py").write_text("")
        time.sleep(0.05)
        copy_app(tmp_path, "2")
        wait_for_workers(server, 1, exclude=first)
        deadline = time.monotonic() + 10
        while httpx.get(server.url + "/").text != "version 2":
            assert time.monotonic() < deadline, server.log
            time.sleep(0.1)
        assert "reload failed" not in server.log
        assert server.log.count("changed; reloading") == 1, server.log
    finally:
        server.stop()


def test_workers_that_cannot_load_the_app_stop_the_master():
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    result = subprocess.run([sys.executable, "-m", "baton", "--port", "0", "--workers", "2",
                             "tests.integration.apps.default_names.needs_env"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30, env=env)
    assert result.returncode == 1, result
    assert "Traceback (most recent call last)" in result.stderr
    assert "KeyError: 'DATABASE_URL'" in result.stderr
    assert "the application failed to load; stopping" in result.stderr
