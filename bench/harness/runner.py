"""Runs a suite: every (workload, connections) configuration, arms alternated
within it round by round, each measurement with its instruments."""

from __future__ import annotations

import http.client
import json
import os
import platform
import re
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import procs
from bench.harness.apps import WORKLOADS, Workload
from bench.harness.arms import ARMS, ROOT, Arm, build_c, debian_version, peer_versions, unavailable

LUA = ROOT / "bench" / "lua"
SCHEMA = 1


@dataclass
class Settings:
    suite: str
    arms: list[str]
    workloads: list[str]
    connections: list[int]
    rounds: int = 3
    duration: float = 10.0
    warmup: float = 2.0
    server_cpus: str = "0"
    client_cpus: str = "1"
    pipeline: int = 0  # >0: wrk sends this many requests per write
    threads: int = 1  # wrk threads
    syscalls: bool = False  # also count syscalls per request (strace -c, a separate short run)
    per_workload_connections: dict = field(default_factory=dict)
    per_workload_arms: dict = field(default_factory=dict)
    # Requests to the workload's background_path kept in flight beside the
    # load, one configuration per level (the mixed workload: 0, 1, 2).
    background: list = field(default_factory=lambda: [0])
    # >0: instead of a load, open this many idle keep-alive connections and
    # report the server's memory per connection.
    idle_connections: int = 0
    # Instead of a load: the server's user-space instructions per request
    # under callgrind, sent one at a time and pipelined at these depths.
    instructions: list = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start listening")


# The first answer each framework workload got; later arms must match it.
reference_bodies: dict[str, bytes] = {}


# (arm, workload) -> whether the arm agreed to permessage-deflate when the
# workload offered it (a server that declines gets the messages plain and
# does no compression work: its row says so).
deflate_agreed: dict[tuple[str, str], bool] = {}


def verify_websocket(port: int, w: Workload) -> bool | None:
    """An opening handshake and one round trip: the arm serves WebSockets at
    the path. Where the workload compresses, whether the arm agreed to."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    offer = "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n" if w.deflate else ""
    s.sendall(f"GET {w.path} HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{offer}\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError(f"no handshake answer: {data[:80]!r}")
        data += chunk
    if not data.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"not a WebSocket: {data[:80]!r}")
    head, data = data.split(b"\r\n\r\n", 1)
    agreed = b"permessage-deflate" in head.lower() if w.deflate else None
    if agreed:
        s.close()  # its echo would come compressed; the handshake is what is checked
        return agreed
    s.sendall(bytes([0x81, 0x84, 1, 2, 3, 4]) + bytes(b ^ m for b, m in zip(b"ping", b"\x01\x02\x03\x04")))
    while len(data) < 6:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError("closed before the echo")
        data += chunk
    if data[:6] != b"\x81\x04ping":
        raise RuntimeError(f"wrong echo: {data[:20]!r}")
    s.close()
    return agreed


def verify(port: int, w: Workload, arm_name: str = "") -> None:
    """One request; status and body must be exactly what every arm sends."""
    if w.client == "wsload":
        agreed = verify_websocket(port, w)
        if agreed is not None:
            deflate_agreed[arm_name, w.name] = agreed
        return
    body = b"x" * w.request_body_size if w.request_body_size else None
    if w.wire == "http1":
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request(w.method, w.path, body=body)
        response = conn.getresponse()
        status, data = response.status, response.read()
        conn.close()
    else:
        status, data = verify_wire(port, w, body)
    expected = w.expected_body()
    if expected is None:
        expected = reference_bodies.setdefault(w.name, data)
    if status != w.status or data != expected:
        raise RuntimeError(f"wrong answer: {status} {data[:80]!r}, expected {expected[:80]!r}")


def verify_wire(port: int, w: Workload, body: bytes | None) -> tuple[int, bytes]:
    """The same over TLS or HTTP/2 (httpx with h2, prior knowledge for h2c), or HTTP/3 (aioquic, as the
    tests use it); the arm must speak the wire."""
    if w.wire == "h3":
        return verify_h3(port, w, body)
    import httpx

    h2 = w.wire in ("h2", "h2c")
    scheme = "http" if w.wire == "h2c" else "https"
    with httpx.Client(http1=not h2, http2=h2, verify=False, timeout=10) as client:
        response = client.request(w.method, f"{scheme}://127.0.0.1:{port}{w.path}", content=body)
    if response.http_version != ("HTTP/2" if h2 else "HTTP/1.1"):
        raise RuntimeError(f"answered in {response.http_version} on a {w.wire} row")
    return response.status_code, response.content


def verify_h3(port: int, w: Workload, body: bytes | None) -> tuple[int, bytes]:
    from bench.harness.arms import bench_certificate
    from tests.integration.h3client import Ask, h3_exchange

    # The length said, as h2load says it (the payload app reads CONTENT_LENGTH).
    fields = [("content-length", str(len(body)))] if body else []
    alpn, (response,) = h3_exchange(port, bench_certificate()[0], [Ask(w.method, w.path, body or b"", fields)])
    if alpn != "h3":
        raise RuntimeError(f"QUIC agreed on {alpn!r}, not h3, on an h3 row")
    return response["status"], response["body"]


def h2load_binary(w: Workload) -> str:
    """Debian's h2load, or for HTTP/3 rows the one tools/h2load_h3.py builds."""
    if w.wire != "h3":
        return "h2load"
    sys.path.insert(0, str(ROOT / "tools"))
    import h2load_h3

    why = h2load_h3.ready()
    if why is not None:
        raise RuntimeError(why)
    return str(h2load_h3.binary())


def h2load_summary(stdout: str, log_file: Path, seconds: float) -> dict:
    """h2load's counts and its per-request log as the summary wrk's script prints."""
    counts = re.search(r"requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored, (\d+) timeout", stdout)
    traffic = re.search(r"traffic: \S+ \((\d+)\) total", stdout)
    if counts is None or traffic is None:
        raise RuntimeError(f"h2load gave no summary: {stdout[-500:]}")
    durations = sorted(int(line.split()[2]) for line in log_file.read_text().splitlines() if line.strip())
    log_file.unlink(missing_ok=True)

    def percentile(p: float) -> int:
        return durations[min(len(durations) - 1, int(len(durations) * p / 100))] if durations else 0

    return {"requests": int(counts[3]), "duration_us": int(seconds * 1e6), "bytes": int(traffic[1]),
            "errors": {"connect": 0, "read": int(counts[5]), "write": 0, "status": int(counts[4]),
                       "timeout": int(counts[6])},
            "latency_us": {"p50": percentile(50), "p90": percentile(90), "p99": percentile(99),
                           "p999": percentile(99.9), "max": durations[-1] if durations else 0,
                           "mean": sum(durations) / len(durations) if durations else 0.0}}


def load(settings: Settings, port: int, w: Workload, connections: int, duration: float) -> tuple[dict, float]:
    """Runs the workload's load generator pinned to the client CPUs; returns
    its summary and its own CPU seconds."""
    url = f"{'https' if w.wire in ('https', 'h2', 'h3') else 'http'}://127.0.0.1:{port}{w.path}"
    seconds = max(1, round(duration))
    if w.client == "h2load":
        log_file = Path(tempfile.mkstemp(prefix="baton-h2load-")[1])
        body = []
        if w.request_body_size:
            # Every request posts this file (h2load -d).
            data_file = Path(tempfile.mkstemp(prefix="baton-h2load-body-")[1])
            data_file.write_bytes(b"x" * w.request_body_size)
            body = ["-d", str(data_file)]
        command = ["taskset", "-c", settings.client_cpus, h2load_binary(w), *(["--h3"] if w.wire == "h3" else []),
                   f"-c{connections}", f"-m{w.streams}", f"-t{settings.threads}", f"-D{seconds}", *body,
                   "--log-file", str(log_file), url]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(command, capture_output=True, text=True, timeout=duration + 30)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if body:
            Path(body[1]).unlink(missing_ok=True)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return h2load_summary(out.stdout, log_file, seconds), cpu
    if w.client == "wsload":
        if settings.threads != 1:
            raise SystemExit(f"{w.name}: the WebSocket client runs one thread")
        command = ["taskset", "-c", settings.client_cpus, str(build_c("wsload")), f"-c{connections}", f"-d{seconds}",
                   "-t5", f"-p{settings.pipeline or 1}", f"-s{w.message_size}", *(["-z"] if w.deflate else []),
                   *(["-B"] if w.broadcast else []), f"ws://127.0.0.1:{port}{w.path}"]
    elif w.client == "bulk":
        if settings.pipeline or settings.threads != 1:
            raise SystemExit(f"{w.name}: the bulk client runs one thread and does not pipeline")
        command = ["taskset", "-c", settings.client_cpus, str(build_c("bulk")), f"-c{connections}", f"-d{seconds}",
                   "-t5", f"-m{w.method}", f"-b{w.request_body_size}", url]
    else:
        script = LUA / ("pipeline.lua" if settings.pipeline else "post.lua" if w.method == "POST" else "summary.lua")
        command = ["taskset", "-c", settings.client_cpus, "wrk", f"-t{settings.threads}", f"-c{connections}",
                   f"-d{seconds}s", "--timeout", "5s", "-s", str(script),
                   *(["-H", "Connection: close"] if w.fresh else []), url]
    env = dict(os.environ, BATON_PIPELINE_DEPTH=str(settings.pipeline or 1),
               BATON_POST_SIZE=str(w.request_body_size))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, text=True, env=env, timeout=duration + 30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in out.stdout.splitlines():
        if line.startswith("BATON-WRK-JSON "):
            return json.loads(line.split(" ", 1)[1]), cpu
    raise RuntimeError(f"{command[3]} gave no summary: {out.stdout[-500:]} {out.stderr[-500:]}")


def start(arm: Arm, w: Workload, settings: Settings, log_path: Path) -> tuple[subprocess.Popen, int, list[str]]:
    port = free_port()
    command = arm.command(port, w)
    if w.wire != "http1" and arm.wire_flags is not None:
        command = [*command, *arm.wire_flags(w)]
    log = open(log_path, "ab")
    proc = subprocess.Popen(["taskset", "-c", settings.server_cpus, *command], cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT, env=dict(os.environ, **arm.env), start_new_session=True)
    log.close()
    try:
        wait_ready(port, proc)
        if not arm.cold:
            verify(port, w, arm.name)
    except Exception:
        stop(proc)
        raise
    return proc, port, command


class Background:
    """Keeps `level` requests to `path` in flight, each on its own keep-alive
    connection, until stopped; counts them and their worst latency."""

    def __init__(self, port: int, path: str, level: int):
        self.port, self.path, self.level = port, path, level
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._loop, daemon=True) for _ in range(level)]
        self.completed = 0
        self.max_us = 0

    def _loop(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self.stopping.is_set():
            t0 = time.monotonic()
            try:
                conn.request("GET", self.path)
                conn.getresponse().read()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            self.completed += 1
            self.max_us = max(self.max_us, int((time.monotonic() - t0) * 1e6))
        conn.close()

    def __enter__(self):
        for t in self.threads:
            t.start()
        time.sleep(0.05 if self.level else 0)  # the slow requests are in flight before the load starts
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for t in self.threads:
            t.join(35)


def stop(proc: subprocess.Popen) -> None:
    """Kills the arm's whole session at once: its measurements are taken, and a
    graceful stop (seconds for some peers) would only lengthen the suite."""
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        pass


def count_syscalls(settings: Settings, port: int, pid: int, w: Workload, connections: int) -> dict:
    """strace -c over a short separate run: calls per request, by syscall, for the whole process tree.
    strace slows the server a great deal, so this run's rate is not reported."""
    out_file = Path(f"/tmp/baton-bench-strace-{pid}.txt")
    attach = [x for p in procs.tree(pid) for x in ("-p", str(p))]
    tracer = subprocess.Popen(["strace", "-c", "-f", "-qq", "-o", str(out_file), *attach],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    summary, _ = load(settings, port, w, connections, 2)
    tracer.send_signal(2)
    tracer.wait(30)
    calls: dict[str, int] = {}
    for line in out_file.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != "total":
            calls[parts[-1]] = int(parts[3])
    out_file.unlink(missing_ok=True)
    requests = max(summary["requests"], 1)
    per_request = {name: round(n / requests, 3) for name, n in sorted(calls.items(), key=lambda kv: -kv[1])}
    return {"requests": summary["requests"], "per_request": per_request,
            "total_per_request": round(sum(calls.values()) / requests, 3)}


def measure_idle_memory(arm: Arm, w: Workload, count: int, settings: Settings, log_path: Path) -> dict:
    """RSS before and after `count` keep-alive connections that each made one
    request and then sit idle: the memory an idle connection costs."""
    proc, port, command = start(arm, w, settings, log_path)
    sockets = []
    try:
        request = f"GET {w.path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
        if w.client == "wsload":  # an open WebSocket, idle after its handshake
            request = (f"GET {w.path} HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        # One request on a first connection brings in whatever the first
        # request allocates, so it is not counted against the idle ones.
        warm = socket.create_connection(("127.0.0.1", port))
        warm.sendall(request)
        warm.recv(65536)
        time.sleep(1.5)
        pids = procs.tree(proc.pid)
        rss_before, _ = procs.rss_kib(pids)
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(request)
            sockets.append(s)
        for s in sockets:
            s.settimeout(10)
            s.recv(65536)
        # Past the server's idle trimming (baton frees idle buffers each second).
        time.sleep(2.5)
        rss_after, _ = procs.rss_kib(procs.tree(proc.pid))
    finally:
        for s in sockets:
            s.close()
        stop(proc)
    per_connection = (rss_after - rss_before) * 1024 / count
    return {"arm": arm.name, "workload": w.name, "connections": count, "command": command, "idle_memory": {
        "rss_before_kib": rss_before, "rss_after_kib": rss_after,
        "bytes_per_connection": round(per_connection)}}


def send_requests(port: int, request: bytes, total: int, connections: int, depth: int) -> None:
    """Exactly `total` requests over `connections` keep-alive connections,
    `depth` written at a time on each (1: the next only after the answer).
    Answers must carry a Content-Length; each is read whole before it counts."""
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=120) for _ in range(connections)]
    selector = selectors.DefaultSelector()
    owed = {s: 0 for s in sockets}  # requests sent on a socket and not yet answered
    buffers = {s: b"" for s in sockets}
    left, answered = total, 0

    def send(s: socket.socket) -> None:
        nonlocal left
        n = min(depth, left)
        if n:
            left -= n
            owed[s] += n
            s.sendall(request * n)

    try:
        for s in sockets:
            selector.register(s, selectors.EVENT_READ)
            send(s)
        while answered < total:
            for key, _ in selector.select(120):
                s = key.fileobj
                data = s.recv(65536)
                if not data:
                    raise RuntimeError("the server closed a connection")
                buf = buffers[s] + data
                while (end := buf.find(b"\r\n\r\n")) >= 0:
                    length = 0
                    for line in buf[:end].split(b"\r\n")[1:]:
                        name, _, value = line.partition(b":")
                        if name.strip().lower() == b"content-length":
                            length = int(value)
                    if len(buf) < end + 4 + length:
                        break
                    buf = buf[end + 4 + length:]
                    answered += 1
                    owed[s] -= 1
                buffers[s] = buf
                if owed[s] == 0:
                    send(s)
    finally:
        for s in sockets:
            s.close()


def interpreted(command: list[str]) -> list[str]:
    """A script named first runs through the interpreter its #! line names
    (so callgrind instruments the interpreter, not a shell's exec)."""
    try:
        with open(command[0], "rb") as f:
            first = f.readline()
    except OSError:
        return command
    return [first[2:].decode().strip(), *command] if first.startswith(b"#!") else command


def callgrind_total(arm: Arm, w: Workload, connections: int, total: int, depth: int, settings: Settings,
                    log_path: Path) -> int:
    """Instructions the arm's processes executed in user space from start to
    exit, serving `total` requests (plus the one verification request)."""
    port = free_port()
    out_dir = Path(tempfile.mkdtemp(prefix="baton-bench-callgrind-"))
    log = open(log_path, "ab")
    proc = subprocess.Popen(["taskset", "-c", settings.server_cpus, "valgrind", "--tool=callgrind",
                             f"--callgrind-out-file={out_dir}/callgrind.%p", *interpreted(arm.command(port, w))],
                            # One hash seed for every arm: the interpreter's dict probes (the
                            # environ's, the scope's) otherwise cost a different number of
                            # instructions in each process, 1-2 % of a WSGI hello.
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, PYTHONHASHSEED="0", **arm.env), start_new_session=True)
    log.close()
    try:
        wait_ready(port, proc, timeout=180)
        verify(port, w)
        send_requests(port, f"GET {w.path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode(), total, connections, depth)
        os.killpg(proc.pid, signal.SIGINT)  # a graceful stop: callgrind writes its counts at exit
        proc.wait(180)
    finally:
        stop(proc)
    counts = []
    for f in out_dir.glob("callgrind.*"):
        for line in f.read_text(errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                counts.append(int(line.split()[1]))
                break
        f.unlink()
    out_dir.rmdir()
    if not counts:
        raise RuntimeError("callgrind wrote no counts")
    return sum(counts)


# Requests in callgrind's two runs: their difference over the difference of
# the counts leaves start-up and shutdown out.
INSTRUCTION_RUNS = (2_000, 12_000)


def measure_instructions(arm: Arm, w: Workload, connections: int, settings: Settings, log_path: Path) -> dict:
    per_request = {}
    for depth in settings.instructions:
        few, many = (callgrind_total(arm, w, connections, n, depth, settings, log_path) for n in INSTRUCTION_RUNS)
        per_request[str(depth)] = round((many - few) / (INSTRUCTION_RUNS[1] - INSTRUCTION_RUNS[0]))
    return {"arm": arm.name, "workload": w.name, "connections": connections, "command": arm.command(0, w),
            "instructions": {"per_request": per_request, "requests": list(INSTRUCTION_RUNS)}}


def measure(arm: Arm, w: Workload, connections: int, settings: Settings, log_path: Path,
            background: int = 0) -> dict:
    if settings.idle_connections:
        return measure_idle_memory(arm, w, settings.idle_connections, settings, log_path)
    if settings.instructions:
        return measure_instructions(arm, w, connections, settings, log_path)
    proc, port, command = start(arm, w, settings, log_path)
    background_stats = None
    try:
        with Background(port, w.background_path or w.path, background if w.background_path else 0) as slow:
            if not arm.cold:
                load(settings, port, w, connections, settings.warmup)
            pids = procs.tree(proc.pid)
            rss_start, _ = procs.rss_kib(pids)
            sampler = procs.CpuSampler(proc.pid)
            sampler.start()
            summary, client_cpu = load(settings, port, w, connections, settings.duration)
            sampler.stop()
        if slow.level:
            background_stats = {"in_flight": slow.level, "completed": slow.completed, "max_us": slow.max_us}
        if arm.cold:
            verify(port, w)
        pids = procs.tree(proc.pid)
        rss_end, rss_peak = procs.rss_kib(pids)
        syscalls = count_syscalls(settings, port, proc.pid, w, connections) if settings.syscalls else None
    finally:
        stop(proc)
    seconds = summary["duration_us"] / 1e6
    requests = summary["requests"]
    threads = sampler.threads()
    total_cpu = sum(t["cpu_seconds"] for t in threads)
    per_request = (lambda s: round(s / requests * 1e6, 3) if requests else None)
    for t in threads:
        t["us_per_request"] = per_request(t["cpu_seconds"])
    busiest = threads[0] if threads else None
    errors = summary["errors"]
    return {
        "arm": arm.name, "workload": w.name, "connections": connections, "command": command,
        "requests": requests, "seconds": seconds, "rps": requests / seconds if seconds else 0.0,
        "latency_us": summary["latency_us"],
        **({"deflate_agreed": deflate_agreed.get((arm.name, w.name))} if w.deflate else {}),
        "errors": {k: v for k, v in errors.items() if k != "status"}, "non_2xx": errors["status"],
        "cpu": {"total_us_per_request": per_request(total_cpu), "cores": round(total_cpu / seconds, 3),
                "threads": threads,
                "bound_thread": busiest and {"name": busiest["name"], "tid": busiest["tid"],
                                             "cpu_fraction": busiest["cpu_fraction_median"],
                                             "saturated": busiest["cpu_fraction_median"] >= 0.95}},
        "client": {"cpu_fraction": round(client_cpu / seconds, 3), "bound": client_cpu / seconds >= 0.95},
        "rss_kib": {"start": rss_start, "end": rss_end, "peak": rss_peak, "growth": rss_end - rss_start},
        "syscalls": syscalls,
        "background": background, "background_requests": background_stats,
        "samples": [{"t": round(t - sampler.samples[0][0], 3),
                     "ticks": {f"{pid}/{tid}": ticks for (pid, tid), (_, ticks) in snapshot.items()}}
                    for t, snapshot in sampler.samples],
    }


def keep_log_tails(out_dir: Path, keep: int = 16384) -> None:
    """Servers' own logs are kept for diagnosis, but only their last bytes:
    some peers log a line per queued request (waitress), megabytes a run."""
    for log in out_dir.glob("*.log"):
        size = log.stat().st_size
        if size > keep:
            with open(log, "rb") as f:
                f.seek(size - keep)
                tail = f.read()
            log.write_bytes(b"[... %d earlier bytes dropped ...]\n" % (size - keep) + tail)


def machine() -> dict:
    model = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    # The code measured: "-modified" when sources differ from the commit
    # (regenerated artifacts and pages do not count).
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always"], capture_output=True,
                            text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", "src", "python", "apps",
                              "bench/harness", "bench/lua", "bench/floor.c", "bench/bulk.c", "bench/wsload.c",
                              "bench/load_summary.h"]).returncode
    if commit and changed:
        commit += "-modified"
    return {"cpu_model": model, "cores": os.cpu_count(), "kernel": platform.release(), "commit": commit or "unknown",
            "python": platform.python_version(), "wrk": debian_version("wrk"),
            "packages": {p: debian_version(p) for p in WORKLOAD_PACKAGES}}


# The Debian packages the workloads' own code comes from.
WORKLOAD_PACKAGES = ("python3", "python3-flask", "python3-werkzeug", "python3-django", "python3-starlette",
                     "python3-uvloop", "python3-httptools", "python3-h11")


def summarize(runs: list[dict]) -> list[dict]:
    groups: dict[tuple, list[dict]] = {}
    for r in runs:
        if "error" not in r and "idle_memory" not in r and "instructions" not in r:
            groups.setdefault((r["workload"], r["connections"], r.get("background", 0), r["arm"]), []).append(r)
    rows = []
    for (workload, connections, background, arm), rs in groups.items():
        rps = sorted(r["rps"] for r in rs)
        median_run = sorted(rs, key=lambda r: r["rps"])[len(rs) // 2]
        rows.append({
            "workload": workload, "connections": connections, "background": background, "arm": arm,
            "rounds": len(rs),
            "rps_median": statistics.median(rps), "rps_min": rps[0], "rps_max": rps[-1],
            **({"deflate_agreed": rs[0]["deflate_agreed"]} if "deflate_agreed" in rs[0] else {}),
            "p50_us": statistics.median(r["latency_us"]["p50"] for r in rs),
            "p90_us": statistics.median(r["latency_us"]["p90"] for r in rs),
            "p99_us": statistics.median(r["latency_us"]["p99"] for r in rs),
            "max_us": max(r["latency_us"]["max"] for r in rs),
            "cpu_us_per_request": statistics.median(r["cpu"]["total_us_per_request"] or 0 for r in rs),
            "threads": median_run["cpu"]["threads"][:4],
            "bound_thread": median_run["cpu"]["bound_thread"],
            "client_cpu_fraction": statistics.median(r["client"]["cpu_fraction"] for r in rs),
            "client_bound": median_run["client"]["bound"],
            "socket_errors": sum(sum(r["errors"].values()) for r in rs),
            "non_2xx": sum(r["non_2xx"] for r in rs),
            "rss_peak_kib": max(r["rss_kib"]["peak"] for r in rs),
            "rss_growth_kib": statistics.median(r["rss_kib"]["growth"] for r in rs),
            "syscalls_per_request": next((r["syscalls"] for r in rs if r.get("syscalls")), None),
        })
    for r in runs:
        for key in ("idle_memory", "instructions"):
            if key in r:
                rows.append({"workload": r["workload"], "connections": r["connections"], "arm": r["arm"],
                             key: r[key]})
    return rows


def run(settings: Settings, out_dir: Path, progress=print) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    reference_bodies.clear()
    reasons = {a: unavailable(ARMS[a]) for a in settings.arms}
    arms = [ARMS[a] for a in settings.arms if reasons[a] is None]
    skipped = {a: why for a, why in reasons.items() if why is not None}
    for name, why in skipped.items():
        progress(f"skipping {name}: {why}")
    plan = []
    for wname in settings.workloads:
        w = WORKLOADS[wname]
        names = settings.per_workload_arms.get(wname)
        serving = [a for a in arms if a.serves(w) and (names is None or a.name in names)]
        levels = settings.background if w.background_path else [0]
        for connections in settings.per_workload_connections.get(wname, settings.connections):
            for background in levels:
                for round_index in range(settings.rounds):
                    order = serving if round_index % 2 == 0 else list(reversed(serving))
                    plan += [(w, connections, background, round_index, a) for a in order]
    per_run = settings.warmup + settings.duration + 1.5
    artifact = {
        "schema": SCHEMA, "suite": settings.suite, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine(), "settings": settings.__dict__,
        "arms": {a.name: {"kind": a.kind, "version": a.version(), "label": a.label(), "describe": a.describe}
                 for a in arms},
        # Why an arm of the suite did not run (a peer that would not install, say).
        "skipped_arms": skipped,
        # Every distribution the peers' venv imports from, with its version.
        "peer_packages": peer_versions(), "runs": [],
        # The workloads not loaded by wrk, and by what (artifacts without it: all by wrk).
        "clients": {n: WORKLOADS[n].client for n in settings.workloads if WORKLOADS[n].client != "wrk"},
    }
    started = time.monotonic()
    for i, (w, connections, background, round_index, arm) in enumerate(plan):
        left = (len(plan) - i) * per_run
        slow = f" +{background} slow" if background else ""
        progress(f"[{i + 1}/{len(plan)}] {w.name} c{connections}{slow} round {round_index + 1}/{settings.rounds} "
                 f"{arm.name} (about {int(left // 60)}m{int(left % 60):02d}s left)")
        try:
            result = measure(arm, w, connections, settings, out_dir / f"{arm.name}.log", background)
        except Exception as error:  # a broken arm is reported, not fatal
            result = {"arm": arm.name, "workload": w.name, "connections": connections, "error": str(error)}
            progress(f"    {arm.name} failed: {error}")
        else:
            if "idle_memory" in result or "instructions" in result:
                progress(f"    {result['idle_memory']['bytes_per_connection']} bytes per idle connection"
                         if "idle_memory" in result else
                         f"    instructions per request by pipeline depth: {result['instructions']['per_request']}")
                result["round"] = round_index
                artifact["runs"].append(result)
                continue
            progress(f"    {result['rps']:.0f} rps, p99 {result['latency_us']['p99']} us, "
                     f"{result['cpu']['total_us_per_request']} us CPU/req, busiest thread "
                     f"{result['cpu']['bound_thread']['name'] if result['cpu']['bound_thread'] else '-'} "
                     f"{result['cpu']['bound_thread']['cpu_fraction'] if result['cpu']['bound_thread'] else 0:.0%}"
                     f", client {result['client']['cpu_fraction']:.0%}")
        result["round"] = round_index
        artifact["runs"].append(result)
    artifact["elapsed_seconds"] = round(time.monotonic() - started, 1)
    keep_log_tails(out_dir)
    artifact["summary"] = summarize(artifact["runs"])
    (out_dir / "results.json").write_text(json.dumps(artifact, indent=1))
    return artifact
