"""Starting and stopping real servers for the tests.

Every process is started here and stopped by its PID, whatever the test did.
A server binds port 0 and the test reads the port from its first log line,
so parallel runs never race for a port.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LISTEN_LINE = re.compile(rb"on (https?)://([^\s:]+|\[[^\]]+\]):(\d+)|on unix:(\S+)")
# Under `make asan-pytest`: ASan's log_path catches its reports, but UBSan's
# (preloaded beside it) go to stderr whatever UBSAN_OPTIONS says, so a report
# line in a server's output is also copied where the target looks for reports.
SANITIZER_LINE = re.compile(rb"runtime error:|ERROR: AddressSanitizer")
SANITIZER_REPORTS = os.environ.get("BATON_TEST_SANITIZER_REPORTS")


class Server:
    def __init__(self, args: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT,
                 python: str = sys.executable, cpus: set[int] | None = None,
                 program: tuple[str, ...] = ("-m", "baton"), netns: str | None = None):
        self.args = args
        # What `python` runs: the command, a script that calls baton.run(), or
        # nothing (a peer server given as `python`).
        self.program = program
        self.cpus = cpus  # the CPUs it may run on (its affinity), if not this process's
        self.netns = netns  # the network namespace it runs in (tests/fleet), if not this process's
        self.python = python
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.host = "127.0.0.1"
        self.scheme = "http"  # https when it serves TLS (its first log line says)
        self.tls_client = None  # the ssl.SSLContext connect() uses over TLS (default: no verification)
        self.uds: str | None = None
        self._log = bytearray()
        self._log_lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self._group_killed = False

    @property
    def log(self) -> str:
        with self._log_lock:
            return self._log.decode("utf-8", "replace")

    def start(self, timeout: float = 15.0, ready=None) -> "Server":
        """Returns once the server's first log line names where it listens, or, for a
        program that prints none, once `ready()` is true."""
        # taskset execs the server in place (same pid): no preexec_fn, which
        # is unsafe in this process's threads.
        pinned = ["taskset", "-c", ",".join(map(str, sorted(self.cpus)))] if self.cpus else []
        # `ip netns exec` too enters the namespace and execs in place.
        inside = ["ip", "netns", "exec", self.netns] if self.netns else []
        self.proc = subprocess.Popen(
            [*inside, *pinned, self.python, *self.program, *self.args],
            cwd=self.cwd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            # Its own process group: workers of a master that had to be killed go with it.
            start_new_session=True,
        )
        found = threading.Event()

        def pump():
            assert self.proc and self.proc.stdout
            for line in iter(self.proc.stdout.readline, b""):
                with self._log_lock:
                    self._log += line
                if SANITIZER_REPORTS and SANITIZER_LINE.search(line):
                    with open(Path(SANITIZER_REPORTS) / f"output.{self.proc.pid}", "ab") as report:
                        report.write(line)
                m = LISTEN_LINE.search(line)
                if m and not found.is_set():
                    if m.group(4):
                        self.uds = m.group(4).decode()
                    else:
                        self.scheme = m.group(1).decode()
                        self.port = int(m.group(3))
                    found.set()

        self._reader = threading.Thread(target=pump, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while not (ready() if ready else found.is_set()):
            if self.proc.poll() is not None:
                self._reader.join(2)
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server did not start:\n{self.log}")
            found.wait(0.02)
        return self

    def log_mark(self) -> int:
        """A position in the output: pass it as `since` to look only at what came after it."""
        with self._log_lock:
            return len(self._log)

    def log_since(self, mark: int) -> str:
        with self._log_lock:
            return self._log[mark:].decode("utf-8", "replace")

    def wait_for_log(self, text: str, timeout: float = 5.0, since: int = 0) -> bool:
        """True once `text` appears in the server's output after `since` (read by another thread).
        Tests that share a server pass a mark taken before their action, so a line another test
        caused cannot satisfy them."""
        deadline = time.monotonic() + timeout
        while text not in self.log_since(since):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    def connect(self, timeout: float = 10.0) -> socket.socket:
        if self.uds:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(timeout)
            s.connect(self.uds)
            return s
        sock = socket.create_connection((self.host, self.port), timeout=timeout)
        if self.scheme == "https":
            from tests.integration.tls import TlsConnection, client_context
            return TlsConnection(sock, self.tls_client or client_context())
        return sock

    def signal(self, signo: int) -> None:
        assert self.proc
        self.proc.send_signal(signo)

    def wait(self, timeout: float) -> int:
        assert self.proc
        code = self.proc.wait(timeout)
        if self._reader:
            self._reader.join(2)
        return code

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if not self._group_killed:
            # Anything left of the group (workers whose master was killed),
            # once: later, the number may name another process's group.
            self._group_killed = True
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._reader:
            self._reader.join(2)
        return self.proc.returncode


_readers: "weakref.WeakKeyDictionary[socket.socket, _Reader]" = weakref.WeakKeyDictionary()


def read_response(sock: socket.socket, head_only: bool = False) -> tuple[int, dict[str, str], bytes, bytes]:
    """Reads one HTTP/1.1 response: (status, lower-cased headers, body, raw head).

    Handles Content-Length, chunked and close-delimited bodies. Leaves any
    following bytes (a pipelined response) in the socket's pending buffer.
    """
    reader = _readers.get(sock)
    if reader is None:
        reader = _readers[sock] = _Reader(sock)
    head = reader.read_until(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(b":")
        key = name.decode().lower()
        value_text = value.strip().decode("latin-1")
        headers[key] = f"{headers[key]}, {value_text}" if key in headers else value_text
    if head_only or status in (100, 204, 304) or 100 <= status < 200:
        return status, headers, b"", head
    if "content-length" in headers:
        body = reader.read_exact(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while True:
            size_line = reader.read_until(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                while reader.read_until(b"\r\n") != b"\r\n":  # the trailer section's lines, then its end
                    pass
                break
            body += reader.read_exact(size)
            reader.read_exact(2)
        body = bytes(body)
    else:
        body = reader.read_to_eof()
    return status, headers, body, head


class _Reader:
    """Buffered reads on a socket, shared by successive read_response calls."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = bytearray()

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            return False
        self.buffer += data
        return True

    def read_until(self, marker: bytes) -> bytes:
        while True:
            i = self.buffer.find(marker)
            if i >= 0:
                out = bytes(self.buffer[: i + len(marker)])
                del self.buffer[: i + len(marker)]
                return out
            if not self._fill():
                raise ConnectionError(f"connection closed before {marker!r}; got {bytes(self.buffer)!r}")

    def read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            if not self._fill():
                raise ConnectionError("connection closed inside a body")
        out = bytes(self.buffer[:n])
        del self.buffer[:n]
        return out

    def read_to_eof(self) -> bytes:
        while self._fill():
            pass
        out = bytes(self.buffer)
        self.buffer.clear()
        return out


def read_until_closed(sock: socket.socket, timeout: float = 5.0) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout)
    received = b""
    while True:
        data = sock.recv(65536)
        if not data:
            return received
        received += data


def closed_by_peer(sock: socket.socket, timeout: float = 5.0) -> bool:
    """True if the server closes the connection (EOF or reset) within timeout, after any pending bytes."""
    sock.settimeout(timeout)
    reader = _readers.get(sock)
    if reader is not None and reader.buffer:
        return False
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def reset_close(s: socket.socket) -> None:
    """Closes with a reset, so the server sees the client vanish at once."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def crosstalk_probe(connect, clients: int, rounds: int, sizes: list[int]) -> tuple[list[str], int]:
    """Clients send tagged bodies of the given sizes over keep-alive
    connections to a `/tagged` echo route and a fifth of the time vanish
    (reset) at a random point: before their request is whole, or after it
    is sent. Every answer that arrives must be the one to its own request,
    and keep-alive connections must stay open. Returns (what went wrong,
    answers read)."""
    wrong: list[str] = []
    answered = [0]
    lock = threading.Lock()

    def run_client(seed: int) -> None:
        rng = random.Random(seed)
        s = None
        try:
            for i in range(rounds):
                if s is None:
                    s = connect()
                tag = f"c{seed}-r{i}"
                body = bytes([97 + i % 26]) * rng.choice(sizes)
                request = (b"POST /tagged?tag=%s HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n"
                           % (tag.encode(), len(body))) + body
                fate = rng.random()
                if fate < 0.1:
                    s.sendall(request[: rng.randrange(1, len(request))])
                    reset_close(s)
                    s = None
                    continue
                s.sendall(request)
                if fate < 0.2:
                    reset_close(s)
                    s = None
                    continue
                _, headers, answer, _ = read_response(s)
                with lock:
                    answered[0] += 1
                    if answer != tag.encode() + b":" + body:
                        wrong.append(tag)
                    if headers.get("connection") == "close":
                        wrong.append(f"{tag}: the server closed a keep-alive connection")
        except Exception as error:  # a client that fails is a wrong answer too
            with lock:
                wrong.append(f"client {seed}: {error!r}")
        finally:
            if s is not None:
                s.close()

    threads = [threading.Thread(target=run_client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return wrong, answered[0]


def burst(host: str, port: int, count: int, path: str = "/", timeout: float = 10.0) -> list[bytes]:
    """Opens `count` connections at once, as a load generator or a proxy's
    upstream pool does at its start, then asks for `path` on each: the bodies,
    in the connections' order."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
            sock.setblocking(False)
            sock.connect_ex((host, port))
            socks.append(sock)
        for sock in socks:
            sock.settimeout(timeout)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        return [read_response(sock)[2] for sock in socks]
    finally:
        for sock in socks:
            sock.close()
