"""Metrics for operators (--metrics-bind), overload control that counts
requests (--limit-concurrency) and workers recycled by memory
(--max-worker-rss), against real processes: a real Prometheus (Debian's)
scrapes baton with workers and what it stored is checked through its HTTP
API; promtool checks a scrape; the listener answers while the app is busy
and through a drain, and only GET /metrics; a dead worker's counts stay."""

import concurrent.futures
import http.client
import os
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from tests.integration.server import ROOT, Server

WSGI = "tests.integration.apps.metrics_apps:app"
ASGI = "tests.integration.apps.metrics_apps:asgi"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(*args, metrics_port: int | None = None) -> Server:
    port = metrics_port or free_port()
    server = Server(["--port", "0", "--metrics-bind", f"127.0.0.1:{port}", *args]).start()
    server.metrics_port = port
    return server


def request(server, path: str, method: str = "GET", timeout: float = 10, headers=None) -> tuple[int, dict, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        c.request(method, path, headers={"Connection": "close", **(headers or {})})
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


def scrape(server, path: str = "/metrics", accept: str | None = None) -> tuple[int, str, str]:
    c = http.client.HTTPConnection("127.0.0.1", server.metrics_port, timeout=5)
    try:
        c.request("GET", path, headers={"Accept": accept} if accept else {})
        r = c.getresponse()
        return r.status, r.getheader("Content-Type") or "", r.read().decode()
    finally:
        c.close()


def sample(text: str, series: str) -> float:
    """The value of one series in a scrape (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return 0.0


def requests_of_class(text: str, cls: str, protocol: str = "http/1.1") -> float:
    return sample(text, f'baton_requests_total{{protocol="{protocol}",class="{cls}"}}')


def wait_until(predicate, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


# --- a real Prometheus ------------------------------------------------------------


class Prometheus:
    """Debian's prometheus, scraping one target every second, on loopback."""

    def __init__(self, tmp_path, target_port: int, rule_files: tuple[Path, ...] = ()):
        self.port = free_port()
        config = tmp_path / "prometheus.yml"
        rules = "".join(f"  - {path}\n" for path in rule_files)
        config.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                          + (f"rule_files:\n{rules}" if rules else "") + "scrape_configs:\n"
                          f"  - job_name: baton\n    static_configs:\n      - targets: ['127.0.0.1:{target_port}']\n")
        self.proc = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

    def query(self, expression: str) -> float | None:
        url = f"http://127.0.0.1:{self.port}/api/v1/query?" + urllib.parse.urlencode({"query": expression})
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                import json
                result = json.load(r)["data"]["result"]
        except OSError:
            return None
        return float(result[0]["value"][1]) if result else None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def test_a_real_prometheus_stores_what_baton_with_workers_answered(tmp_path):
    server = serve("-w", "2", "--max-headers", "5", WSGI)
    prometheus = Prometheus(tmp_path, server.metrics_port)
    try:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda p: request(server, p)[0],
                                     ["/"] * 40 + ["/missing"] * 12 + ["/fail"] * 7))
        too_many = request(server, "/", headers={f"x-{i}": "v" for i in range(8)})[0]
        assert statuses.count(200) == 40 and statuses.count(404) == 12 and statuses.count(500) == 7
        assert too_many == 431
        expected = {"2xx": 40, "4xx": 12, "5xx": 7}
        for cls, count in expected.items():
            query = f'sum(baton_requests_total{{protocol="http/1.1",class="{cls}"}})'
            assert wait_until(lambda: prometheus.query(query) == count, 30), (cls, prometheus.query(query))
        assert prometheus.query('baton_rejections_total{cause="header_too_large"}') == 1
        assert prometheus.query('sum(baton_request_duration_seconds_count{protocol="http/1.1"})') == 59
        assert prometheus.query('count(baton_worker_rss_bytes)') == 2
        assert prometheus.query('baton_workers_started_total') == 2
        assert prometheus.query('up{job="baton"}') == 1
    finally:
        prometheus.stop()
        server.stop()


def test_promtool_checks_a_scrape_in_both_formats(tmp_path):
    server = serve("--threads", "1", WSGI)
    try:
        for _ in range(5):
            request(server, "/")
        status, content_type, text = scrape(server)
        assert status == 200 and content_type.startswith("text/plain; version=0.0.4")
        check = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        status, content_type, open_text = scrape(server, accept="application/openmetrics-text; version=1.0.0")
        assert content_type.startswith("application/openmetrics-text") and open_text.endswith("# EOF\n")
        assert requests_of_class(open_text, "2xx") == 5
    finally:
        server.stop()


def test_every_family_counts_what_happened(tmp_path):
    server = serve("--interface", "asgi", ASGI)
    try:
        request(server, "/")
        with ws_connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            ws.send("hello")
            assert ws.recv(timeout=5) == "hello"
            assert wait_until(lambda: sample(scrape(server)[2], "baton_websockets") == 1, 5)
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 400")
        sock.close()
        assert wait_until(lambda: sample(scrape(server)[2], 'baton_websocket_closes_total{code="1000"}') == 1, 5)
        text = scrape(server)[2]
        assert requests_of_class(text, "2xx") == 1
        assert requests_of_class(text, "1xx", "websocket") == 1
        assert sample(text, 'baton_rejections_total{cause="bad_request"}') == 1
        assert sample(text, "baton_websockets") == 0
        assert sample(text, 'baton_request_bytes_total{protocol="websocket"}') > 0
        assert sample(text, 'baton_build_info{version="0.1.0",python="') == 0  # the labels go on: just present
        assert 'baton_build_info{version="0.1.0"' in text
    finally:
        server.stop()


def test_the_loop_counts_its_gil_wait_only_when_another_thread_can_hold_the_gil():
    # The inline shape: the app runs on the loop thread. Alone, the loop
    # never waits for the GIL and does not time it (the counter stays 0);
    # once a thread of the app's spins in Python, taking the GIL back waits.
    server = serve("--blocking-threads", "0", WSGI)
    try:
        for _ in range(50):
            assert request(server, "/")[0] == 200
        text = scrape(server)[2]
        assert "\nbaton_loop_gil_wait_seconds_total 0\n" in text, text
        assert request(server, "/spin?s=3")[0] == 200

        # Requests until the loop has waited: a request that comes while the
        # spinning thread is still waking to take the GIL the loop let go
        # finds it free (20 requests in a row did so, once in five runs).
        def waited():
            assert request(server, "/")[0] == 200
            return sample(scrape(server)[2], "baton_loop_gil_wait_seconds_total") > 0.01
        assert wait_until(waited, 2.5)
    finally:
        server.stop()


def test_the_listener_answers_only_get_metrics():
    server = serve(WSGI)
    try:
        assert scrape(server, "/other")[0] == 404
        c = http.client.HTTPConnection("127.0.0.1", server.metrics_port, timeout=5)
        c.request("POST", "/metrics", body=b"x")
        assert c.getresponse().status == 405
        c.close()
        sock = socket.create_connection(("127.0.0.1", server.metrics_port))
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 400")
        sock.close()
    finally:
        server.stop()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_metrics_on_port_0_logs_the_port_the_kernel_chose(workers):
    server = Server(["--port", "0", "--workers", workers, "--metrics-bind", "127.0.0.1:0", WSGI]).start()
    try:
        assert server.wait_for_log("metrics at http://127.0.0.1:")
        shown = server.log.split("metrics at http://127.0.0.1:", 1)[1].split("/", 1)[0]
        server.metrics_port = int(shown)
        assert server.metrics_port != 0
        status, _, text = scrape(server)
        assert status == 200 and "baton_requests_total" in text
    finally:
        server.stop()


def test_a_metrics_port_in_use_fails_at_start_with_one_line():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        result = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "baton", WSGI, "--port", "0",
                                 "--metrics-bind", f"127.0.0.1:{holder.getsockname()[1]}"],
                                cwd=ROOT, capture_output=True, text=True, timeout=20)
    finally:
        holder.close()
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("baton: error: --metrics-bind: ") and "in use" in lines[0], lines


def test_a_scrape_is_answered_while_every_app_thread_is_busy_and_through_a_drain():
    server = serve("--blocking-threads", "1", "--graceful-timeout", "5", WSGI)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        slow = pool.submit(request, server, "/slow?s=2")
        assert wait_until(lambda: sample(scrape(server)[2], "baton_pool_busy_threads") == 1, 5)
        assert sample(scrape(server)[2], "baton_requests_in_flight") == 1
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        status, _, text = scrape(server)  # the drain is under way: the slow view is still inside the app
        assert status == 200 and sample(text, "baton_requests_in_flight") == 1
        assert slow.result(10)[0] == 200
    assert server.proc.wait(10) == 0
    server.stop()


def test_a_dead_workers_counts_never_go_backwards():
    server = serve("-w", "1", WSGI)
    try:
        pid = int(request(server, "/pid")[2])
        for _ in range(9):
            request(server, "/")
        assert wait_until(lambda: requests_of_class(scrape(server)[2], "2xx") == 10, 5)
        before = 10
        os.kill(pid, signal.SIGKILL)
        assert wait_until(lambda: int(request(server, "/pid")[2]) != pid)
        # The new worker's answer on top (counted by its loop just after the
        # answer is written: the scrape may come first, so it is awaited).
        assert wait_until(lambda: requests_of_class(scrape(server)[2], "2xx") >= before + 1, 5)
        text = scrape(server)[2]
        assert sample(text, 'baton_worker_respawns_total{cause="crash"}') == 1
        assert sample(text, 'baton_worker_restarts_total{worker="0"}') == 1
    finally:
        server.stop()


# --- --limit-concurrency ---------------------------------------------------------


def test_limit_concurrency_4_with_14_slow_requests_gives_exactly_10_503s_and_health_and_metrics_answer():
    server = serve("--blocking-threads", "16", "--limit-concurrency", "4", "--health-path", "/healthz", WSGI)
    try:
        with concurrent.futures.ThreadPoolExecutor(14) as pool:
            slow = [pool.submit(request, server, "/slow?s=2", "GET", 10) for _ in range(4)]
            assert wait_until(lambda: sample(scrape(server)[2], "baton_requests_in_flight") == 4, 5)
            refused = list(pool.map(lambda _: request(server, "/slow?s=2"), range(10)))
            # While the four are in: the health path and the scrape answer.
            assert request(server, "/healthz")[0] == 200
            assert scrape(server)[0] == 200
            answered = [f.result(10) for f in slow]
        assert [r[0] for r in refused] == [503] * 10
        assert all(r[1].get("retry-after") == "1" for r in refused)
        assert [r[0] for r in answered] == [200] * 4
        text = scrape(server)[2]
        assert sample(text, 'baton_rejections_total{cause="over_concurrency"}') == 10
        # Idle keep-alive connections take no slot: four of them open, and a request still goes through.
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(6)]
        assert request(server, "/")[0] == 200
        for s in idle:
            s.close()
    finally:
        server.stop()


def test_an_open_websocket_takes_a_slot_of_the_limit():
    server = serve("--interface", "asgi", "--limit-concurrency", "1", ASGI)
    try:
        with ws_connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            ws.send("hi")
            assert ws.recv(timeout=5) == "hi"
            assert request(server, "/")[0] == 503
        assert wait_until(lambda: request(server, "/")[0] == 200, 5)
    finally:
        server.stop()


# --- --max-worker-rss ---------------------------------------------------------------


def test_a_worker_over_max_worker_rss_is_replaced_with_no_request_lost():
    server = serve("-w", "1", "--max-worker-rss", "120", WSGI)
    try:
        first = int(request(server, "/pid")[2])
        request(server, "/grow?mb=150")
        seen, statuses = set(), []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status, _, body = request(server, "/pid")
            statuses.append(status)
            seen.add(int(body) if status == 200 else 0)
            if len(seen - {first, 0}) >= 1 and not _alive(first):
                break
            time.sleep(0.02)
        assert set(statuses) == {200}, statuses
        assert seen - {first}, "no new worker served"
        assert not _alive(first), "the old worker did not retire"
        assert server.wait_for_log("over --max-worker-rss 120: replacing it")
        # Counted when the master reaps it (its loop looks four times a second).
        assert wait_until(lambda: sample(scrape(server)[2], 'baton_worker_respawns_total{cause="memory"}') == 1, 5)
    finally:
        server.stop()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False
