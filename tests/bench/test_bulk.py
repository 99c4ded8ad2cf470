"""The bulk client (bench/bulk.c), which loads the 1 MiB echo instead of wrk:
it sends whole requests, counts only whole answers, and counts what went
wrong instead of hiding it. No speed is asserted here."""

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.integration.server import Server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.harness import arms, runner  # noqa: E402
from bench.harness.apps import WORKLOADS  # noqa: E402


def test_every_echo_counted_went_to_the_server_and_came_back_whole(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--blocking-threads", "1", "--access-log", "--access-logfile", str(log),
                     "apps.payload.app:application"]).start()
    try:
        settings = runner.Settings("test", [], ["post-1m"], [4], client_cpus="0-1")
        summary, client_cpu = runner.load(settings, server.port, WORKLOADS["post-1m"], 4, 1)
    finally:
        server.stop()
    assert summary["requests"] > 0
    assert summary["errors"] == {"connect": 0, "read": 0, "write": 0, "status": 0, "timeout": 0}
    # Every counted answer carried the whole echoed body.
    assert summary["bytes"] >= summary["requests"] * 1024 * 1024
    echoes = [line for line in log.read_text().splitlines() if '"POST /echo HTTP/1.1" 200 1048576' in line]
    assert len(echoes) >= summary["requests"], log.read_text()[-500:]
    assert 0 < summary["latency_us"]["p50"] <= summary["latency_us"]["p99"] <= summary["latency_us"]["max"]
    assert client_cpu > 0


def each_connection(listener: socket.socket, stop: threading.Event, handle) -> None:
    """Calls handle(conn) in a thread of its own for each connection accepted until `stop`."""
    listener.settimeout(0.2)
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def answer_every_request(listener: socket.socket, status: bytes, stop: threading.Event, close: bool = False) -> None:
    """Reads each request whole (head and Content-Length body), answers it
    with `status`; with `close`, says so and closes after each answer."""
    each_connection(listener, stop, lambda conn: serve_one(conn, status, stop, close))


def serve_one(conn: socket.socket, status: bytes, stop: threading.Event, close: bool) -> None:
    try:
        answer_on(conn, status, stop, close)
    except OSError:
        pass  # the client stops at its deadline with requests in flight


def answer_on(conn: socket.socket, status: bytes, stop: threading.Event, close: bool) -> None:
    data = b""
    with conn:
        while not stop.is_set():
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, data = data.split(b"\r\n\r\n", 1)
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            while len(data) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            data = data[length:]
            conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: 2\r\n"
                         + (b"Connection: close\r\n" if close else b"") + b"\r\nno")
            if close:
                return


def run_bulk(serve, body_size: int) -> dict:
    """Runs the bulk client for a second against `serve(listener, stop)`, run
    in a thread; returns its summary."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(listener, stop))
    thread.start()
    try:
        port = listener.getsockname()[1]
        out = subprocess.run([str(arms.build_c("bulk")), "-c2", "-d1", f"-b{body_size}", f"http://127.0.0.1:{port}/x"],
                             capture_output=True, text=True, timeout=30)
    finally:
        stop.set()
        thread.join()
        listener.close()
    line = next(x for x in out.stdout.splitlines() if x.startswith("BATON-WRK-JSON "))
    return json.loads(line.split(" ", 1)[1])


def run_bulk_against(status: bytes, close: bool = False) -> dict:
    return run_bulk(lambda listener, stop: answer_every_request(listener, status, stop, close), 1000)


def test_answers_of_4xx_and_5xx_are_counted_as_errors_as_wrk_counts_them():
    failed = run_bulk_against(b"500 Internal Server Error")
    assert failed["requests"] > 0
    assert failed["errors"]["status"] >= failed["requests"]
    moved = run_bulk_against(b"302 Found")
    assert moved["requests"] > 0 and moved["errors"]["status"] == 0


def test_a_server_that_closes_after_each_answer_gets_the_next_request_on_a_new_connection():
    summary = run_bulk_against(b"200 OK", close=True)
    assert summary["requests"] > 10
    assert summary["errors"] == {"connect": 0, "read": 0, "write": 0, "status": 0, "timeout": 0}


def test_a_server_that_closes_mid_answer_is_a_read_error_not_a_request():
    def half_answer(conn: socket.socket) -> None:
        with conn:
            time.sleep(0.01)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")

    summary = run_bulk(lambda listener, stop: each_connection(listener, stop, half_answer), 10)
    assert summary["requests"] == 0
    assert summary["errors"]["read"] > 0
