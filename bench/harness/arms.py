"""The servers a benchmark compares. Adding one is one entry in ARMS.

Each arm turns (port, workload) into a command line. The harness pins it,
starts it, checks one answer byte for byte, loads it and stops it.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from bench.harness.apps import Workload

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
BENCH_BUILD = ROOT / "build" / "bench"


def debian_version(package: str) -> str:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return result.stdout.strip() or "not installed"


def build_c(name: str) -> Path:
    """Builds bench/NAME.c (the floor server, the bulk client) when it changed."""
    source, binary = ROOT / "bench" / f"{name}.c", BENCH_BUILD / name
    shared = ROOT / "bench" / "load_summary.h"
    newest = max(source.stat().st_mtime, shared.stat().st_mtime)
    if not binary.exists() or binary.stat().st_mtime < newest:
        binary.parent.mkdir(parents=True, exist_ok=True)
        libraries = ["-lz"] if name == "wsload" else []
        subprocess.run(["cc", "-O2", "-o", str(binary), str(source), *libraries], check=True)
    return binary


@dataclass(frozen=True)
class Arm:
    name: str
    kind: str  # "baton", "peer" or "ceiling"
    interface: str  # "wsgi", "asgi", "static" or "any" (answers every path the same)
    command: Callable[[int, Workload], list[str]]
    # What it runs: distributions from the peers' venv (bench/peers.txt), or
    # Debian packages (`debian`); the first one names it in its label.
    packages: tuple[str, ...] = ()
    debian: bool = False
    # What must import in the peers' venv for it to run.
    modules: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    describe: str = ""
    # Measured from a fresh start: no verification request and no warm-up
    # before the load (the server is verified after it instead).
    cold: bool = False
    # Baton on another CPython than Debian's: its minor version (pyenv's, or
    # the sid chroot's for 3.14 and 3.15), or "sid:3.13" (the chroot's, where
    # pyenv has one too).
    on_python: str = ""
    # The options that make it serve a workload's wire other than plain
    # HTTP/1.1 (TLS, HTTP/2); None: it serves only that.
    wire_flags: Callable[[Workload], list[str]] | None = None

    def serves(self, workload: Workload) -> bool:
        if workload.wire != "http1" and self.wire_flags is None:
            return False
        if self.interface == "any":
            return workload.name == "hello"
        if self.interface == "static":
            return workload.static is not None
        return getattr(workload, self.interface) is not None

    def version(self) -> str:
        if self.kind == "baton":
            where = interpreter_venv(self.on_python) if self.on_python else VENV_BIN
            out = subprocess.run([str(where / "python"), "-c", "import baton, platform; print(baton.__version__, "
                                  "'on CPython', platform.python_version())"], capture_output=True, text=True)
            return out.stdout.strip()
        if self.on_python:
            out = subprocess.run([str(interpreter_venv(self.on_python) / "python"), "-c",
                                  "import importlib.metadata as m, platform, sys; print(', '.join("
                                  "f'{p} {m.version(p)}' for p in sys.argv[1:]), 'on CPython', "
                                  "platform.python_version())", *self.packages], capture_output=True, text=True)
            return out.stdout.strip()
        if self.debian:
            return ", ".join(f"{p} {debian_version(p)}" for p in self.packages)
        versions = peer_versions()
        return ", ".join(f"{p} {versions.get(p.lower(), 'not installed')}" for p in self.packages) or "in-tree"

    def label(self) -> str:
        """The arm's name with the version of what it runs: `granian-asgi (granian 2.8.9)`."""
        if self.kind == "baton" or not self.packages:
            return self.name
        first = self.version().split(",")[0]
        return f"{self.name} ({first})"


_peer_versions: dict[str, str] | None = None


def peer_versions() -> dict[str, str]:
    """Every distribution the peers' venv sees (its own and Debian's), by lower-case name."""
    global _peer_versions
    if _peer_versions is None:
        _peer_versions = {}
        if PEER_PYTHON.exists():
            # The first of a name on sys.path is the one imported: the venv's own before Debian's.
            out = subprocess.run([str(PEER_PYTHON), "-c", "import importlib.metadata as m, json; v = {}\n"
                                  "for d in m.distributions(): v.setdefault(d.metadata['Name'].lower(), d.version)\n"
                                  "print(json.dumps(v))"], capture_output=True, text=True)
            if out.returncode == 0:
                _peer_versions = json.loads(out.stdout)
    return _peer_versions


def _baton(*extra: str, venv_bin: Path | None = None) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str((venv_bin or VENV_BIN) / "baton"), w.wsgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", *extra]
    return command


# A build of an earlier baton to measure beside this one in the same run:
# BATON_BASELINE_VENV names a venv it is installed in (the arm is skipped
# without it). Its inline shape is the one the first benchmark measured.
BASELINE_VENV = Path(os.environ["BATON_BASELINE_VENV"]) if os.environ.get("BATON_BASELINE_VENV") else None


def _baton_asgi(mode: str, loop: str, *extra: str, venv_bin: Path | None = None) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str((venv_bin or VENV_BIN) / "baton"), w.asgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", "--interface", "asgi", "--asgi-mode", mode, "--loop", loop, *extra]
    return command


# Baton on another CPython (pyenv's, or the sid chroot's 3.14 and 3.15; with
# "sid:" the chroot's where pyenv has the minor too): the wheel of that minor
# version (tools/wheels.py builds it) in a plain venv of its own, with
# Starlette, anyio and uvloop from tools/locks/matrix.txt. Made on first use.
FT_PEERS = ROOT / "bench" / "peers-ft.txt"


@functools.cache
def interpreter_venv(spec: str) -> Path:
    sys.path.insert(0, str(ROOT / "tools"))
    import locks
    import sid_chroot
    import wheels

    minor = spec.removeprefix("sid:")
    wheel = wheels.build([minor])[0]
    where = BENCH_BUILD / f"venv-{spec.replace(':', '-')}"
    stamp = where / ".installed"
    if not stamp.exists() or stamp.stat().st_mtime < wheel.stat().st_mtime:
        if spec.startswith("sid:"):
            # tools/sid_chroot.py writes launchers for 3.14 and 3.15 only;
            # another of the chroot's interpreters gets one the same way.
            if not sid_chroot.host_python(minor).exists():
                sid_chroot.write_host_files(sid_chroot.CHROOT, minor)
            python = sid_chroot.host_python(minor)
        else:
            python = wheels.wheel_interpreters()[minor]
        wheels.fresh_venv(python, where)
        subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-index", str(wheel)],
                       check=True)
        # uvloop has no free-threaded wheel.
        leave_out = frozenset({"uvloop"}) if minor == wheels.FREE_THREADED else frozenset()
        if locks.install(ROOT / "tools" / "locks" / "matrix.txt", where, None, keep_going=False,
                         leave_out=leave_out) != 0:
            raise RuntimeError(f"tools/locks/matrix.txt did not install into {where}")
        # The free-threading rows' Django and Granian (its last release with
        # a cp313t wheel), on 3.13t and on the GIL's 3.13 alike.
        if minor in ("3.13", wheels.FREE_THREADED) and locks.install(FT_PEERS, where, None, keep_going=False) != 0:
            raise RuntimeError(f"{FT_PEERS.relative_to(ROOT)} did not install into {where}")
        stamp.touch()
    return where / "bin"


def baton_script_on(spec: str) -> list[str]:
    """The start of a command that runs the baton script of the venv of
    `spec` (a minor version, or "sid:" and one: interpreter_venv).

    pyenv's: the script, whose #! names the venv's python (callgrind runs
    that interpreter, bench/harness/runner.py `interpreted`). The sid
    chroot's: the venv's python is a shell launcher (tools/sid_chroot.py
    host_python) that execs sid's loader, and callgrind does not follow an
    exec: it would count the shell and write nothing. So the launcher's own
    exec line is run here, with the venv's python as argv[0] (the venv is
    found by it) and the script as the interpreter's first argument."""
    venv_bin = interpreter_venv(spec)
    sys.path.insert(0, str(ROOT / "tools"))
    import sid_chroot

    launcher = sid_chroot.host_python(spec.removeprefix("sid:"))
    if not (venv_bin / "python").resolve() == launcher.resolve():
        return [str(venv_bin / "baton")]
    exec_line = next(line for line in launcher.read_text().splitlines() if line.startswith("exec "))
    words = shlex.split(exec_line)[1:]
    if words[-1] != "$@" or "$0" not in words:
        raise RuntimeError(f"{launcher}: not the exec line expected: {exec_line}")
    return [str(venv_bin / "python") if word == "$0" else word for word in words[:-1]] + [str(venv_bin / "baton")]


def _baton_on(spec: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [*baton_script_on(spec), w.wsgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", *extra]
    return command


def _baton_asgi_on(spec: str, mode: str, loop: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [*baton_script_on(spec), w.asgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", "--interface", "asgi", "--asgi-mode", mode, "--loop", loop]
    return command


# The files the static workloads serve, written on first use.
STATIC_DIR = ROOT / "build" / "bench" / "static"


def static_dir() -> str:
    from apps.payload.app import BLOB

    STATIC_DIR.mkdir(parents=True, exist_ok=True)
    target = STATIC_DIR / "64k.bin"
    if not target.exists() or target.read_bytes() != BLOB:
        target.write_bytes(BLOB)
    return str(STATIC_DIR)


def _baton_static(port: int, w: Workload) -> list[str]:
    return _baton("--blocking-threads", "0", "--static-path-route", "/static", "--static-path-mount",
                  static_dir())(port, w)


def _baton_static_pool(port: int, w: Workload) -> list[str]:
    return _baton("--static-path-route", "/static", "--static-path-mount", static_dir())(port, w)


ACCESS_LOG = Path(tempfile.gettempdir()) / "baton-bench-access.log"


def _baton_access_log(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        ACCESS_LOG.unlink(missing_ok=True)  # a fresh file per start: the runs write millions of lines
        return _baton(*extra, "--access-log", "--access-logfile", str(ACCESS_LOG))(port, w)
    return command


def _module_file(spec: str) -> tuple[str, str]:
    module, attribute = spec.split(":")
    return str(ROOT / (module.replace(".", "/") + ".py")), attribute


# The peer servers run from their own venv (make bench-deps), installed from
# bench/peers.txt: current releases from PyPI at pinned versions, beside
# Debian's Django, Flask, Starlette and FastAPI (--system-site-packages).
PEERS_VENV = ROOT / "bench" / ".venv-peers"
PEER_PYTHON = PEERS_VENV / "bin" / "python"
PEERS_REPORT = PEERS_VENV / "install-report.json"


def _uwsgi(socket_flag: str, processes: int = 1) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        path, attribute = _module_file(w.wsgi)
        return [str(PEERS_VENV / "bin" / "uwsgi"), socket_flag, f"127.0.0.1:{port}", "--wsgi-file", path,
                "--callable", attribute, "--processes", str(processes), "--threads", "1", "--disable-logging",
                "--single-interpreter", "--listen", "1024", "--die-on-term", "--chdir", str(ROOT)]
    return command


def _waitress(threads: int) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str(PEER_PYTHON), "-m", "waitress", f"--listen=127.0.0.1:{port}", f"--threads={threads}",
                "--backlog=4096", "--connection-limit=2000", w.wsgi]
    return command


def _python_api(server: str) -> Callable[[int, Workload], list[str]]:
    # Servers with no command line of their own (bench/harness/serve_peer.py).
    def command(port: int, w: Workload) -> list[str]:
        # As a module from the root (the arms' cwd), so `apps` is the root's.
        return [str(PEER_PYTHON), "-m", "bench.harness.serve_peer", server, w.wsgi, str(port)]
    return command


def _uvicorn(loop: str, http: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str(PEER_PYTHON), "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "--loop", loop,
                "--http", http, "--log-level", "warning", "--no-access-log", "--backlog", "4096", *extra, w.asgi]
    return command


def _hypercorn(port: int, w: Workload) -> list[str]:
    # uvloop is hypercorn's fastest worker class.
    return [str(PEER_PYTHON), "-m", "hypercorn", "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
            "--backlog", "4096", "--worker-class", "uvloop", w.asgi]


def _daphne(port: int, w: Workload) -> list[str]:
    # Twisted listens with a backlog of 50 unless its endpoint string says
    # otherwise: 1 000 WebSockets opening at once then wait seconds for SYN
    # retries. The endpoint gives it the same backlog as every other arm.
    return [str(PEER_PYTHON), "-m", "daphne", "-e", f"tcp:port={port}:interface=127.0.0.1:backlog=4096",
            "-v", "0", w.asgi]


def _socketify(interface: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str(PEER_PYTHON), "-m", "socketify", getattr(w, interface), "--port", str(port), "--interface",
                interface, "--disable-listen-log", "true"]
    return command


# Granian, given its best settings for these rows (read from its --help and
# its source, granian/server/common.py, and measured here): one Rust
# runtime thread in the single-threaded runtime (its `auto` picks the
# multi-threaded one for WSGI and ASGI; on one core st serves ~6 % more on
# the WSGI hello and the same on two, and a second runtime thread serves
# less on both), HTTP/1 only and no WebSocket handling (the rows are plain
# HTTP/1.1, as baton serves them), the backlog baton's arms get. Its
# backpressure (connections it serves at once, per worker) defaults to the
# backlog, 4096: the idle-memory suite holds 5000, and past 4096 Granian
# answers none of the rest, so it is raised to 8192 (no row serves more
# than 512 at once otherwise, so it changes nothing there).
GRANIAN_COMMON = ("--http", "1", "--no-ws", "--log-level", "warning", "--backlog", "4096", "--backpressure", "8192",
                  "--runtime-threads", "1", "--runtime-mode", "st")


# The same with its WebSockets on, for the WebSocket rows.
GRANIAN_WS = tuple(a for a in GRANIAN_COMMON if a != "--no-ws")


def _granian_ws(port: int, w: Workload) -> list[str]:
    return [str(PEERS_VENV / "bin" / "granian"), "--interface", "asgi", "--host", "127.0.0.1", "--port", str(port),
            *GRANIAN_WS, "--loop", "uvloop", w.asgi or ""]


def _granian(interface: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        app = w.wsgi if interface == "wsgi" else w.asgi
        return [str(PEERS_VENV / "bin" / "granian"), "--interface", interface, "--host", "127.0.0.1", "--port",
                str(port), *GRANIAN_COMMON, *extra, app or ""]
    return command


def _granian_static(port: int, w: Workload) -> list[str]:
    return _granian("wsgi", "--blocking-threads", "1", "--static-path-route", "/static", "--static-path-mount",
                    static_dir())(port, w)


NGINX_CONFIG = """worker_processes 1;
daemon off;
error_log stderr warn;
pid {prefix}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 10000000;
  client_body_temp_path {prefix}/body;
  proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi;
  scgi_temp_path {prefix}/scgi;
  server {{
    listen 127.0.0.1:{port} backlog=4096{listen_extra};
{tls}    location / {{ default_type text/plain; return 200 "Hello, World!"; }}
    location /static/ {{ alias {static}/; sendfile on; tcp_nopush on; etag on; }}
  }}
}}
"""


def _nginx(port: int, w: Workload) -> list[str]:
    prefix = tempfile.mkdtemp(prefix="baton-bench-nginx-")
    config = Path(prefix) / "nginx.conf"
    listen_extra, tls = "", ""
    if w.wire in ("https", "h2"):
        cert, key = bench_certificate()
        listen_extra = " ssl http2" if w.wire == "h2" else " ssl"
        tls = f"    ssl_certificate {cert};\n    ssl_certificate_key {key};\n"
    elif w.wire == "h2c":
        listen_extra = " http2"
    config.write_text(NGINX_CONFIG.format(prefix=prefix, port=port, static=static_dir(), listen_extra=listen_extra,
                                          tls=tls))
    return [shutil.which("nginx") or "/usr/sbin/nginx", "-p", prefix, "-c", str(config)]


# TLS for the TLS and HTTP/2 rows: one self-signed P-256 certificate for
# 127.0.0.1, made on first use, that every server loads.
TLS_DIR = BENCH_BUILD / "tls"


def bench_certificate() -> tuple[str, str]:
    cert, key = TLS_DIR / "cert.pem", TLS_DIR / "key.pem"
    if not cert.exists() or not key.exists():
        TLS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "3650", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    return str(cert), str(key)


def _baton_wire(w: Workload) -> list[str]:
    # HTTP/2 is on by default (ALPN h2 over TLS, h2c with prior knowledge);
    # HTTP/3 answers on UDP at the TCP port once asked for.
    if w.wire == "h2c":
        return []
    cert, key = bench_certificate()
    return ["--ssl-certfile", cert, "--ssl-keyfile", key, *(["--http3"] if w.wire == "h3" else [])]


def _granian_wire(w: Workload) -> list[str]:
    # Later options win: --http replaces GRANIAN_COMMON's "1" (h2c needs "2").
    flags = ["--http", {"https": "1", "h2": "auto", "h2c": "2"}[w.wire]]
    if w.wire != "h2c":
        cert, key = bench_certificate()
        flags += ["--ssl-certificate", cert, "--ssl-keyfile", key]
    return flags


def _hypercorn_wire(w: Workload) -> list[str]:
    if w.wire == "h2c":
        return []
    cert, key = bench_certificate()
    return ["--certfile", cert, "--keyfile", key]


def _hypercorn_h3(port: int, w: Workload) -> list[str]:
    # QUIC on UDP at the TCP port, as baton's --http3; hypercorn needs
    # aioquic for --quic-bind, and TLS for both (wire_flags adds it).
    return [*_hypercorn(port, w), "--quic-bind", f"127.0.0.1:{port}"]


def _gunicorn(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        app = w.asgi if "asgi" in extra else w.wsgi
        return [str(PEER_PYTHON), "-m", "gunicorn", "--workers", "1", "--bind", f"127.0.0.1:{port}",
                "--chdir", str(ROOT), "--log-level", "warning", "--backlog", "4096", *extra, app or ""]
    return command


ARMS: dict[str, Arm] = {a.name: a for a in (
    Arm("baton-inline", "baton", "wsgi", _baton("--blocking-threads", "0"),
        wire_flags=_baton_wire,
        describe="baton, one process, the app run on the loop thread"),
    Arm("baton-inline-cold", "baton", "wsgi", _baton("--blocking-threads", "0"), cold=True,
        describe="baton inline, loaded straight after start (no verification request, no warm-up)"),
    Arm("baton-pool-1", "baton", "wsgi", _baton("--blocking-threads", "1"),
        describe="baton, the loop detached from the GIL, 1 pool thread"),
    Arm("baton-pool-1-cold", "baton", "wsgi", _baton("--blocking-threads", "1"), cold=True,
        describe="baton pool of 1, loaded straight after start"),
    Arm("baton-pool-4", "baton", "wsgi", _baton("--blocking-threads", "4"),
        wire_flags=_baton_wire,
        describe="baton, the loop detached from the GIL, 4 pool threads (turn barrier on)"),
    Arm("baton-pool-4-noturn", "baton", "wsgi", _baton("--blocking-threads", "4"), env={"BATON_X_POOL_TURN": "0"},
        describe="A/B: baton pool of 4 without the turn barrier (BATON_X_POOL_TURN=0)"),
    Arm("baton-pool-4-norunner", "baton", "wsgi", _baton("--blocking-threads", "4"), env={"BATON_X_POOL_RUNNER": "0"},
        describe="A/B: baton pool of 4 waking an idle thread for each job, none left to the running thread "
                 "(BATON_X_POOL_RUNNER=0)"),
    Arm("baton-pool-1-attached", "baton", "wsgi", _baton("--blocking-threads", "1"),
        env={"BATON_X_LOOP_ATTACHED": "1"},
        describe="A/B: baton pool of 1 with the loop taking the GIL every pass (BATON_X_LOOP_ATTACHED=1)"),
    Arm("baton-pool-4-attached", "baton", "wsgi", _baton("--blocking-threads", "4"),
        env={"BATON_X_LOOP_ATTACHED": "1"},
        describe="A/B: baton pool of 4 with the loop taking the GIL every pass (BATON_X_LOOP_ATTACHED=1)"),
    Arm("baton-pool-4-fallback", "baton", "wsgi", _baton("--blocking-threads", "4"),
        env={"BATON_X_POOL_FALLBACK": "inline"},
        describe="A/B: baton pool of 4, requests run inline on the loop thread when all are busy"),
    Arm("baton-baseline-inline", "baton", "wsgi",
        _baton("--blocking-threads", "0", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="an earlier baton build (BATON_BASELINE_VENV), its inline shape: the before of a before/after"),
    Arm("baton-baseline-pool-1", "baton", "wsgi",
        _baton("--blocking-threads", "1", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="the earlier build (BATON_BASELINE_VENV) as a pool of one"),
    Arm("baton-baseline-pool-4", "baton", "wsgi",
        _baton("--blocking-threads", "4", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="the earlier build (BATON_BASELINE_VENV) as a pool of four"),
    Arm("baton-baseline-asgi-inverted-uvloop", "baton", "asgi",
        _baton_asgi("inverted", "uvloop", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="the earlier build (BATON_BASELINE_VENV), ASGI inverted on uvloop"),
    Arm("baton-baseline-asgi-pump-uvloop", "baton", "asgi",
        _baton_asgi("pump", "uvloop", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="the earlier build (BATON_BASELINE_VENV), ASGI pump on uvloop"),
    Arm("baton-baseline-inline-h2", "baton", "wsgi",
        _baton("--blocking-threads", "0", venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        wire_flags=_baton_wire, describe="the earlier build (BATON_BASELINE_VENV), inline, over TLS and HTTP/2"),
    Arm("baton-baseline-static", "baton", "wsgi",
        lambda port, w: _baton("--blocking-threads", "0", "--static-path-route", "/static", "--static-path-mount",
                               static_dir(), venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None)(port, w),
        wire_flags=_baton_wire, describe="the earlier build (BATON_BASELINE_VENV), files answered by the core"),
    Arm("baton-native", "baton", "any", lambda port, w: [str(VENV_BIN / "baton"), "--native-hello", "--port",
                                                           str(port), "--log-level", "warning", "--backlog", "4096"],
        describe="baton's native hello route: the same C++ path, no Python"),
    Arm("baton-asgi-pump", "baton", "asgi", _baton_asgi("pump", "asyncio"),
        describe="baton ASGI, pump (the native loop on its own thread), stdlib asyncio"),
    Arm("baton-asgi-pump-uvloop", "baton", "asgi", _baton_asgi("pump", "uvloop"),
        describe="baton ASGI, pump, uvloop"),
    Arm("baton-asgi-inverted", "baton", "asgi", _baton_asgi("inverted", "asyncio"),
        describe="baton ASGI, inverted (the native loop stepped inside asyncio, one thread), stdlib asyncio"),
    Arm("baton-asgi-inverted-uvloop", "baton", "asgi", _baton_asgi("inverted", "uvloop"),
        wire_flags=_baton_wire,
        describe="baton ASGI, inverted, uvloop"),
    Arm("baton-w2-inline", "baton", "wsgi", _baton("--workers", "2", "--blocking-threads", "0"),
        describe="baton --workers 2, the app on each worker's loop thread"),
    Arm("baton-w2-pool", "baton", "wsgi", _baton("--workers", "2"),
        describe="baton --workers 2, each with its pool of 4 app threads (the default)"),
    Arm("baton-w2-asgi", "baton", "asgi", _baton_asgi("pump", "uvloop", "--workers", "2"),
        describe="baton ASGI --workers 2, pump on uvloop"),
    Arm("baton-w2-pool-1", "baton", "wsgi", _baton("--workers", "2", "--blocking-threads", "1"),
        describe="baton --workers 2, each with a pool of 1 app thread"),
    Arm("baton-w2-asgi-inverted", "baton", "asgi", _baton_asgi("inverted", "uvloop", "--workers", "2"),
        describe="baton ASGI --workers 2, inverted (one thread per worker) on uvloop"),
    Arm("baton-inline-h2", "baton", "wsgi", _baton("--blocking-threads", "0"), wire_flags=_baton_wire,
        describe="baton inline, over TLS and HTTP/2 (the after of baton-baseline-inline-h2)"),
    Arm("baton-static", "baton", "wsgi", _baton_static,
        wire_flags=_baton_wire,
        describe="baton inline with --static-path-route/--static-path-mount: files answered by the core"),
    Arm("baton-inline-accesslog", "baton", "wsgi", _baton_access_log("--blocking-threads", "0"),
        describe="baton inline with --access-log to a file (the combined format)"),
    Arm("baton-pool-1-accesslog", "baton", "wsgi", _baton_access_log("--blocking-threads", "1"),
        describe="baton pool of 1 with --access-log to a file (the combined format)"),
    Arm("baton-inline-accesslog-json", "baton", "wsgi",
        _baton_access_log("--blocking-threads", "0", "--access-log-format", "json"),
        describe="baton inline with --access-log to a file, as JSON lines"),
    Arm("baton-pool-1-accesslog-json", "baton", "wsgi",
        _baton_access_log("--blocking-threads", "1", "--access-log-format", "json"),
        describe="baton pool of 1 with --access-log to a file, as JSON lines"),
    Arm("baton-asgi-inverted-uvloop-py313", "baton", "asgi", _baton_asgi_on("3.13", "inverted", "uvloop"),
        on_python="3.13", describe="baton ASGI, inverted, uvloop, on CPython 3.13 (pyenv's; each request's task started eagerly)"),
    Arm("baton-asgi-inverted-uvloop-py313-lazy", "baton", "asgi", _baton_asgi_on("3.13", "inverted", "uvloop"),
        on_python="3.13", env={"BATON_X_EAGER_TASKS": "0"},
        describe="A/B: the same on CPython 3.13 with the tasks queued, not started eagerly (BATON_X_EAGER_TASKS=0)"),
    Arm("baton-pool-4-static", "baton", "static", _baton_static_pool,
        wire_flags=_baton_wire,
        describe="baton with its default pool of 4 and --static-path-route/--static-path-mount"),
    Arm("granian-wsgi-bt1", "peer", "wsgi", _granian("wsgi", "--blocking-threads", "1"), packages=("granian",),
        wire_flags=_granian_wire,
        modules=("granian",), describe="Granian WSGI, 1 blocking thread (Rust runtime st, 1 thread)"),
    Arm("granian-wsgi-bt4", "peer", "wsgi", _granian("wsgi", "--blocking-threads", "4"), packages=("granian",),
        wire_flags=_granian_wire,
        modules=("granian",), describe="Granian WSGI, 4 blocking threads (Rust runtime st, 1 thread)"),
    Arm("granian-wsgi-bt1-pipeline", "peer", "wsgi",
        _granian("wsgi", "--blocking-threads", "1", "--http1-pipeline-flush"), packages=("granian",),
        modules=("granian",), describe="Granian WSGI, 1 blocking thread, --http1-pipeline-flush (aggregates the "
                                       "flushes of pipelined answers)"),
    Arm("granian-asgi", "peer", "asgi", _granian("asgi", "--loop", "uvloop"), packages=("granian", "uvloop"),
        wire_flags=_granian_wire,
        modules=("granian", "uvloop"), describe="Granian ASGI on uvloop, asyncio tasks (its default)"),
    Arm("granian-asgi-rust", "peer", "asgi", _granian("asgi", "--loop", "uvloop", "--task-impl", "rust"),
        packages=("granian", "uvloop"), modules=("granian", "uvloop"),
        describe="Granian ASGI on uvloop, --task-impl rust (experimental, Python < 3.12 only)"),
    Arm("granian-w2-wsgi-bt1", "peer", "wsgi", _granian("wsgi", "--workers", "2", "--blocking-threads", "1"),
        packages=("granian",), modules=("granian",), describe="Granian WSGI --workers 2, 1 blocking thread each"),
    Arm("granian-w2-wsgi-bt4", "peer", "wsgi", _granian("wsgi", "--workers", "2", "--blocking-threads", "4"),
        packages=("granian",), modules=("granian",), describe="Granian WSGI --workers 2, 4 blocking threads each"),
    Arm("granian-w2-asgi", "peer", "asgi", _granian("asgi", "--workers", "2", "--loop", "uvloop"),
        packages=("granian", "uvloop"), modules=("granian", "uvloop"),
        describe="Granian ASGI --workers 2 on uvloop"),
    Arm("granian-static", "peer", "static", _granian_static, packages=("granian",), modules=("granian",),
        wire_flags=_granian_wire,
        describe="Granian WSGI, 1 blocking thread, --static-path-route/--static-path-mount"),
    Arm("uwsgi-http", "peer", "wsgi", _uwsgi("--http-socket"), packages=("pyuwsgi",), modules=("pyuwsgi",),
        describe="uWSGI (pyuwsgi) --http-socket, 1 process"),
    Arm("uwsgi-http11", "peer", "wsgi", _uwsgi("--http11-socket"), packages=("pyuwsgi",), modules=("pyuwsgi",),
        describe="uWSGI (pyuwsgi) --http11-socket (keep-alive), 1 process"),
    Arm("uwsgi-p2", "peer", "wsgi", _uwsgi("--http11-socket", processes=2), packages=("pyuwsgi",),
        modules=("pyuwsgi",), describe="uWSGI (pyuwsgi) --http11-socket --processes 2"),
    Arm("gunicorn-w2-sync", "peer", "wsgi", _gunicorn("--worker-class", "sync", "--workers", "2"),
        packages=("gunicorn",), modules=("gunicorn",), describe="gunicorn -w 2, sync workers"),
    Arm("gunicorn-w2-gthread", "peer", "wsgi", _gunicorn("--worker-class", "gthread", "--threads", "4",
                                                          "--workers", "2"),
        packages=("gunicorn",), modules=("gunicorn",), describe="gunicorn -w 2, gthread with 4 threads each"),
    Arm("uvicorn-w2", "peer", "asgi", _uvicorn("uvloop", "httptools", "--workers", "2"),
        packages=("uvicorn", "uvloop", "httptools"), modules=("uvicorn", "uvloop", "httptools"),
        describe="uvicorn --workers 2, uvloop and httptools"),
    Arm("nginx-static", "ceiling", "static", _nginx, packages=("nginx",), debian=True,
        wire_flags=lambda w: [],
        describe="nginx, 1 worker, the same file from location /static/ with sendfile"),
    Arm("gunicorn-sync", "peer", "wsgi", _gunicorn("--worker-class", "sync"), packages=("gunicorn",),
        modules=("gunicorn",), describe="gunicorn sync worker, 1 worker"),
    Arm("gunicorn-gthread", "peer", "wsgi", _gunicorn("--worker-class", "gthread", "--threads", "4"),
        packages=("gunicorn",), modules=("gunicorn",), describe="gunicorn gthread, 1 worker, 4 threads"),
    Arm("gunicorn-asgi", "peer", "asgi", _gunicorn("--worker-class", "asgi"), packages=("gunicorn",),
        modules=("gunicorn",), describe="gunicorn's ASGI worker (-k asgi), 1 worker"),
    Arm("waitress-1", "peer", "wsgi", _waitress(1), packages=("waitress",), modules=("waitress",),
        describe="waitress, 1 thread"),
    Arm("waitress-4", "peer", "wsgi", _waitress(4), packages=("waitress",), modules=("waitress",),
        describe="waitress, 4 threads"),
    Arm("socketify-wsgi", "peer", "wsgi", _socketify("wsgi"), packages=("socketify",), modules=("socketify",),
        describe="socketify (uWebSockets in Python), WSGI, 1 process"),
    Arm("fastpysgi", "peer", "wsgi", _python_api("fastpysgi"), packages=("fastpysgi",), modules=("fastpysgi",),
        describe="fastpysgi (libuv and llhttp; FastWSGI's successor), WSGI, 1 process, 1 thread"),
    Arm("bjoern", "peer", "wsgi", _python_api("bjoern"), packages=("bjoern",), modules=("bjoern",),
        describe="bjoern (libev and http-parser), WSGI, 1 process, 1 thread"),
    Arm("socketify-asgi", "peer", "asgi", _socketify("asgi"), packages=("socketify",), modules=("socketify",),
        describe="socketify (uWebSockets in Python), ASGI, 1 process"),
    Arm("uvicorn-h11", "peer", "asgi", _uvicorn("asyncio", "h11"), packages=("uvicorn", "h11"),
        modules=("uvicorn", "h11"), describe="uvicorn, asyncio loop, h11 parser"),
    Arm("uvicorn-uvloop", "peer", "asgi", _uvicorn("uvloop", "httptools"),
        packages=("uvicorn", "uvloop", "httptools"), modules=("uvicorn", "uvloop", "httptools"),
        describe="uvicorn, uvloop, httptools parser"),
    Arm("uvicorn-uvloop-cold", "peer", "asgi", _uvicorn("uvloop", "httptools"), cold=True,
        packages=("uvicorn", "uvloop", "httptools"), modules=("uvicorn", "uvloop", "httptools"),
        describe="uvicorn with uvloop and httptools, loaded straight after start"),
    Arm("granian-asgi-ws", "peer", "asgi", _granian_ws, packages=("granian", "uvloop"), modules=("granian", "uvloop"),
        describe="Granian ASGI on uvloop with its WebSockets on (no permessage-deflate: it has none)"),
    Arm("uvicorn-ws-sansio", "peer", "asgi", _uvicorn("uvloop", "httptools", "--ws", "websockets-sansio"),
        packages=("uvicorn", "websockets", "uvloop"), modules=("uvicorn", "websockets", "uvloop"),
        describe="uvicorn, uvloop, WebSockets by websockets' sans-I/O core (permessage-deflate on)"),
    Arm("uvicorn-wsproto", "peer", "asgi", _uvicorn("uvloop", "httptools", "--ws", "wsproto"),
        packages=("uvicorn", "wsproto", "uvloop"), modules=("uvicorn", "wsproto", "uvloop"),
        describe="uvicorn, uvloop, WebSockets by wsproto (permessage-deflate on)"),
    Arm("hypercorn", "peer", "asgi", _hypercorn, packages=("hypercorn", "uvloop"), modules=("hypercorn", "uvloop"),
        wire_flags=_hypercorn_wire,
        describe="hypercorn, uvloop worker class, 1 worker"),
    Arm("hypercorn-h3", "peer", "asgi", _hypercorn_h3, packages=("hypercorn", "aioquic", "uvloop"),
        modules=("hypercorn", "aioquic", "uvloop"), wire_flags=_hypercorn_wire,
        describe="hypercorn, uvloop worker class, 1 worker, HTTP/3 over aioquic (--quic-bind) beside TLS"),
    Arm("daphne", "peer", "asgi", _daphne, packages=("daphne", "twisted"), modules=("daphne",),
        describe="daphne (Twisted)"),
    Arm("nginx", "ceiling", "any", _nginx, packages=("nginx",), debian=True,
        describe="nginx, 1 worker, `return 200` (no upstream)"),
    Arm("floor-c", "ceiling", "any", lambda port, w: [str(build_c("floor")), str(port)],
        describe="a minimal single-threaded C epoll server (fixed answer, keep-alive)"),
)}


# The hello's shapes (WSGI inline and a pool of one, ASGI inverted and pump
# on uvloop, and the inverted one with its tasks queued, not started
# eagerly) on CPython 3.13 (pyenv's) and 3.14 and 3.15 (the sid chroot's,
# run on this host under sid's loader): the same wheel source and the same
# venv contents on each. pyenv's 3.13 is built without PGO and LTO (-O3,
# libpython shared, GCC 12) where Debian's are built with both (GCC 16):
# sid's own 3.13 (py313-sid) tells the build's share of a 3.13-3.14
# difference from the interpreter's.
_SID = "the sid chroot's, run on this host by sid's loader"
for _minor, _whose in (("3.13", "pyenv's"), ("3.14", _SID), ("3.15", _SID),
                       ("sid:3.13", f"{_SID}; Debian's build, as 3.14's is")):
    _tag = "py" + _minor.removeprefix("sid:").replace(".", "") + ("-sid" if _minor.startswith("sid:") else "")
    _on = f"on CPython {_minor.removeprefix('sid:')} ({_whose})"
    for _arm in (
            Arm(f"baton-inline-{_tag}", "baton", "wsgi", _baton_on(_minor, "--blocking-threads", "0"),
                on_python=_minor, describe=f"baton, one process, the app run on the loop thread, {_on}"),
            Arm(f"baton-pool-1-{_tag}", "baton", "wsgi", _baton_on(_minor, "--blocking-threads", "1"),
                on_python=_minor, describe=f"baton, the loop detached from the GIL, 1 pool thread, {_on}"),
            Arm(f"baton-asgi-pump-uvloop-{_tag}", "baton", "asgi", _baton_asgi_on(_minor, "pump", "uvloop"),
                on_python=_minor, describe=f"baton ASGI, pump, uvloop, {_on}"),
            Arm(f"baton-asgi-inverted-uvloop-{_tag}", "baton", "asgi", _baton_asgi_on(_minor, "inverted", "uvloop"),
                on_python=_minor, describe=f"baton ASGI, inverted, uvloop, {_on} (each request's task started "
                                           "eagerly)"),
            Arm(f"baton-asgi-inverted-uvloop-{_tag}-lazy", "baton", "asgi",
                _baton_asgi_on(_minor, "inverted", "uvloop"), on_python=_minor, env={"BATON_X_EAGER_TASKS": "0"},
                describe=f"A/B: the same {_on} with the tasks queued, not started eagerly (BATON_X_EAGER_TASKS=0)")):
        ARMS.setdefault(_arm.name, _arm)  # 3.13's inverted arms are the ones above


# The free-threading rows: baton and Granian on the free-threaded 3.13t
# (tools/python_ft.py) and, for the GIL's side, on pyenv's 3.13 (the same
# minor; pyenv's is built -O3 without PGO or LTO, as the 3.13t here is).
# Granian 2.8 ships no cp313t wheel: 2.7.9, its last that does, pinned in
# bench/peers-ft.txt, for both.
def _granian_on(spec: str, interface: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        app = w.wsgi if interface == "wsgi" else w.asgi
        return [str(interpreter_venv(spec) / "granian"), "--interface", interface, "--host", "127.0.0.1", "--port",
                str(port), *GRANIAN_COMMON, *extra, app or ""]
    return command


_FT = "on the free-threaded CPython 3.13t"
_GIL = "on CPython 3.13 with the GIL (pyenv's)"
for _arm in (
        Arm("baton-ft-t1", "baton", "wsgi", _baton_on("3.13t", "--threads", "1", "--blocking-threads", "0"),
            on_python="3.13t", describe=f"baton --threads 1, the app on the loop thread, {_FT}"),
        Arm("baton-ft-t2", "baton", "wsgi", _baton_on("3.13t", "--threads", "2", "--blocking-threads", "0"),
            on_python="3.13t", describe=f"baton --threads 2: two loop threads in one process, each running the "
                                        f"app, {_FT}"),
        Arm("baton-ft-w2", "baton", "wsgi", _baton_on("3.13t", "--workers", "2", "--blocking-threads", "0"),
            on_python="3.13t", describe=f"baton --workers 2, the app on each worker's loop thread, {_FT}"),
        Arm("baton-ft-asgi-t1", "baton", "asgi", _baton_asgi_on("3.13t", "inverted", "asyncio"),
            on_python="3.13t", describe=f"baton ASGI inverted on asyncio, one loop thread, {_FT}"),
        Arm("baton-ft-pool-4", "baton", "wsgi", _baton_on("3.13t", "--blocking-threads", "4"),
            on_python="3.13t", describe=f"baton's pool of 4, {_FT}: its threads run Python at once, no turn "
                                        "barrier"),
        Arm("baton-ft-pool-4-turn", "baton", "wsgi", _baton_on("3.13t", "--blocking-threads", "4"),
            on_python="3.13t", env={"BATON_X_POOL_TURN": "force"},
            describe=f"A/B: baton's pool of 4, {_FT}, with the turn barrier kept on (BATON_X_POOL_TURN=force)"),
        Arm("granian-ft-w2", "peer", "wsgi",
            _granian_on("3.13t", "wsgi", "--workers", "2", "--blocking-threads", "1"), on_python="3.13t",
            packages=("granian",),
            describe=f"Granian 2.7.9 WSGI --workers 2 (threads on this build), 1 blocking thread each, {_FT}"),
        Arm("granian-ft-w1", "peer", "wsgi", _granian_on("3.13t", "wsgi", "--blocking-threads", "1"),
            on_python="3.13t", packages=("granian",),
            describe=f"Granian 2.7.9 WSGI, 1 worker, 1 blocking thread, {_FT}"),
        Arm("baton-py313-w2", "baton", "wsgi", _baton_on("3.13", "--workers", "2", "--blocking-threads", "0"),
            on_python="3.13", describe=f"baton --workers 2, the app on each worker's loop thread, {_GIL}"),
        Arm("baton-py313-asgi-t1", "baton", "asgi", _baton_asgi_on("3.13", "inverted", "asyncio"),
            on_python="3.13", describe=f"baton ASGI inverted on asyncio, {_GIL}"),
        Arm("baton-py313-pool-4", "baton", "wsgi", _baton_on("3.13", "--blocking-threads", "4"),
            on_python="3.13", describe=f"baton's pool of 4 with its turn barrier, {_GIL}"),
        Arm("granian-py313-w2", "peer", "wsgi",
            _granian_on("3.13", "wsgi", "--workers", "2", "--blocking-threads", "1"),
            on_python="3.13", packages=("granian",),
            describe=f"Granian 2.7.9 WSGI --workers 2 (processes), 1 blocking thread each, {_GIL}"),
        # A/B: the one listening socket every loop waits on, as before each
        # loop had its own (binding.spread).
        Arm("baton-ft-t2-shared", "baton", "wsgi",
            _baton_on("3.13t", "--threads", "2", "--blocking-threads", "0", "--no-accept-spread"), on_python="3.13t",
            describe=f"A/B: baton --threads 2 with one listening socket both loops wait on (EPOLLEXCLUSIVE), {_FT}"),
        Arm("baton-py313-w2-shared", "baton", "wsgi",
            _baton_on("3.13", "--workers", "2", "--blocking-threads", "0", "--no-accept-spread"), on_python="3.13",
            describe=f"A/B: baton --workers 2 with one listening socket both workers wait on, {_GIL}")):
    ARMS[_arm.name] = _arm


# Metrics on (--metrics-bind, the scrape served on a port of its own that
# the kernel picks): each baton arm of the instructions suite and the hello
# rows again, to measure what recording costs. Granian's own metrics
# (--metrics) beside them in GRANIAN_METRICS_ARMS below.
METRICS_BIND = ("--metrics-bind", "127.0.0.1:0")
for _arm in (
        Arm("baton-inline-metrics", "baton", "wsgi", _baton("--blocking-threads", "0", *METRICS_BIND),
            describe="baton inline with metrics on (--metrics-bind)"),
        Arm("baton-pool-1-metrics", "baton", "wsgi", _baton("--blocking-threads", "1", *METRICS_BIND),
            describe="baton pool of 1 with metrics on (--metrics-bind)"),
        Arm("baton-asgi-inverted-uvloop-metrics", "baton", "asgi", _baton_asgi("inverted", "uvloop", *METRICS_BIND),
            describe="baton ASGI, inverted, uvloop, with metrics on (--metrics-bind)"),
        Arm("baton-asgi-pump-uvloop-metrics", "baton", "asgi", _baton_asgi("pump", "uvloop", *METRICS_BIND),
            describe="baton ASGI, pump, uvloop, with metrics on (--metrics-bind)")):
    ARMS[_arm.name] = _arm


def _granian_metrics(interface: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    """Granian with its Prometheus exporter on, on a port of its own (Granian
    takes no port 0 for it: a free one is found at each start)."""
    def command(port: int, w: Workload) -> list[str]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            metrics_port = s.getsockname()[1]
        return _granian(interface, *extra, "--metrics", "--metrics-port", str(metrics_port))(port, w)
    return command


for _arm in (
        Arm("granian-wsgi-bt1-metrics", "peer", "wsgi", _granian_metrics("wsgi", "--blocking-threads", "1"),
            packages=("granian",), modules=("granian",),
            describe="Granian WSGI, 1 blocking thread, with its metrics on (--metrics)"),
        Arm("granian-asgi-metrics", "peer", "asgi", _granian_metrics("asgi", "--loop", "uvloop"),
            packages=("granian", "uvloop"), modules=("granian", "uvloop"),
            describe="Granian ASGI on uvloop, with its metrics on (--metrics)")):
    ARMS[_arm.name] = _arm


def unavailable(arm: Arm) -> str | None:
    """Why the arm cannot run here, or None when it can."""
    if arm.name.startswith("baton-baseline"):
        if BASELINE_VENV is not None and (BASELINE_VENV / "bin" / "baton").exists():
            return None
        return "BATON_BASELINE_VENV names no venv with baton in it"
    if arm.on_python.startswith("sid:"):
        sys.path.insert(0, str(ROOT / "tools"))
        import sid_chroot

        minor = arm.on_python.removeprefix("sid:")
        if not sid_chroot.ready():
            return sid_chroot.status()[1]
        found = (sid_chroot.CHROOT / "usr" / "bin" / f"python{minor}").exists()
        return None if found else f"no python{minor} in the sid chroot (its apt-get install python{minor})"
    if arm.on_python:
        sys.path.insert(0, str(ROOT / "tools"))
        import wheels

        found = arm.on_python in wheels.wheel_interpreters()
        return None if found else f"no CPython {arm.on_python}: {wheels.missing_reason(arm.on_python)}"
    if arm.name.startswith("nginx"):
        found = shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()
        return None if found else "nginx is not installed (make bench-deps)"
    if not arm.modules:
        return None
    if not PEER_PYTHON.exists():
        return f"{PEERS_VENV.relative_to(ROOT)} does not exist (make bench-deps)"
    failed = json.loads(PEERS_REPORT.read_text()).get("failed", {}) if PEERS_REPORT.exists() else {}
    for package in arm.packages:
        for name, error in failed.items():
            if name.lower() == package.lower():
                return f"{name} did not install: {error.splitlines()[-1] if error else 'see make bench-deps'}"
    probe = subprocess.run([str(PEER_PYTHON), "-c", f"import {', '.join(arm.modules)}"], capture_output=True,
                           text=True)
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        return f"import {', '.join(arm.modules)} failed: {lines[-1] if lines else probe.returncode}"
    return None


def available(arm: Arm) -> bool:
    return unavailable(arm) is None
