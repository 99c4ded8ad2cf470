"""The servers a benchmark compares. Adding one is one entry in ARMS.

Each arm turns (port, workload) into a command line. The harness pins it,
starts it, checks one answer byte for byte, loads it and stops it.
"""

from __future__ import annotations

import os
import shutil
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
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        binary.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


@dataclass(frozen=True)
class Arm:
    name: str
    kind: str  # "baton", "peer" or "ceiling"
    interface: str  # "wsgi", "asgi" or "any" (answers every path the same)
    command: Callable[[int, Workload], list[str]]
    packages: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    describe: str = ""
    # Measured from a fresh start: no verification request and no warm-up
    # before the load (the server is verified after it instead).
    cold: bool = False

    def serves(self, workload: Workload) -> bool:
        if self.interface == "any":
            return workload.name == "hello"
        if self.interface == "static":
            return workload.static is not None
        return getattr(workload, self.interface) is not None

    def version(self) -> str:
        if self.kind == "baton":
            out = subprocess.run([str(VENV_BIN / "python"), "-c", "import baton; print(baton.__version__)"],
                                 capture_output=True, text=True)
            return out.stdout.strip()
        return ", ".join(f"{p} {debian_version(p)}" for p in self.packages) or "in-tree"


def _baton(*extra: str, venv_bin: Path | None = None) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str((venv_bin or VENV_BIN) / "baton"), w.wsgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", *extra]
    return command


# A build of an earlier baton to measure beside this one in the same run:
# BATON_BASELINE_VENV names a venv it is installed in (the arm is skipped
# without it). Its inline shape is the one the first benchmark measured.
BASELINE_VENV = Path(os.environ["BATON_BASELINE_VENV"]) if os.environ.get("BATON_BASELINE_VENV") else None


def _baton_asgi(mode: str, loop: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str(VENV_BIN / "baton"), w.asgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", "--interface", "asgi", "--asgi-mode", mode, "--loop", loop, *extra]
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


ACCESS_LOG = Path(tempfile.gettempdir()) / "baton-bench-access.log"


def _baton_access_log(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        ACCESS_LOG.unlink(missing_ok=True)  # a fresh file per start: the runs write millions of lines
        return _baton(*extra, "--access-log", "--access-logfile", str(ACCESS_LOG))(port, w)
    return command


def _module_file(spec: str) -> tuple[str, str]:
    module, attribute = spec.split(":")
    return str(ROOT / (module.replace(".", "/") + ".py")), attribute


def _uwsgi(socket_flag: str, processes: int = 1) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        path, attribute = _module_file(w.wsgi)
        return ["uwsgi", socket_flag, f"127.0.0.1:{port}", "--plugin", "python3", "--wsgi-file", path,
                "--callable", attribute, "--processes", str(processes), "--threads", "1", "--disable-logging",
                "--single-interpreter", "--listen", "1024", "--die-on-term", "--chdir", str(ROOT)]
    return command


def _waitress(threads: int) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [sys.executable, "-m", "waitress", f"--listen=127.0.0.1:{port}", f"--threads={threads}",
                "--backlog=4096", "--connection-limit=2000", w.wsgi]
    return command


def _uvicorn(loop: str, http: str, *extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "--loop", loop,
                "--http", http, "--log-level", "warning", "--no-access-log", "--backlog", "4096", *extra, w.asgi]
    return command


def _hypercorn(port: int, w: Workload) -> list[str]:
    return [sys.executable, "-m", "hypercorn", "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
            "--backlog", "4096", w.asgi]


def _daphne(port: int, w: Workload) -> list[str]:
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0", w.asgi]


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
    listen 127.0.0.1:{port} backlog=4096;
    location / {{ default_type text/plain; return 200 "Hello, World!"; }}
    location /static/ {{ alias {static}/; sendfile on; tcp_nopush on; etag on; }}
  }}
}}
"""


def _nginx(port: int, w: Workload) -> list[str]:
    prefix = tempfile.mkdtemp(prefix="baton-bench-nginx-")
    config = Path(prefix) / "nginx.conf"
    config.write_text(NGINX_CONFIG.format(prefix=prefix, port=port, static=static_dir()))
    return [shutil.which("nginx") or "/usr/sbin/nginx", "-p", prefix, "-c", str(config)]


def _gunicorn(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "--workers", "1", "--bind", f"127.0.0.1:{port}",
                "--chdir", str(ROOT), "--log-level", "warning", "--backlog", "4096", *extra, w.wsgi]
    return command


ARMS: dict[str, Arm] = {a.name: a for a in (
    Arm("baton-inline", "baton", "wsgi", _baton("--blocking-threads", "0"),
        describe="baton, one process, the app run on the loop thread"),
    Arm("baton-inline-cold", "baton", "wsgi", _baton("--blocking-threads", "0"), cold=True,
        describe="baton inline, loaded straight after start (no verification request, no warm-up)"),
    Arm("baton-pool-1", "baton", "wsgi", _baton("--blocking-threads", "1"),
        describe="baton, the loop detached from the GIL, 1 pool thread"),
    Arm("baton-pool-1-cold", "baton", "wsgi", _baton("--blocking-threads", "1"), cold=True,
        describe="baton pool of 1, loaded straight after start"),
    Arm("baton-pool-4", "baton", "wsgi", _baton("--blocking-threads", "4"),
        describe="baton, the loop detached from the GIL, 4 pool threads (turn barrier on)"),
    Arm("baton-pool-4-noturn", "baton", "wsgi", _baton("--blocking-threads", "4"), env={"BATON_POOL_TURN": "0"},
        describe="A/B: baton pool of 4 without the turn barrier (BATON_POOL_TURN=0)"),
    Arm("baton-pool-1-attached", "baton", "wsgi", _baton("--blocking-threads", "1"),
        env={"BATON_LOOP_ATTACHED": "1"},
        describe="A/B: baton pool of 1 with the loop taking the GIL every pass (BATON_LOOP_ATTACHED=1)"),
    Arm("baton-pool-4-attached", "baton", "wsgi", _baton("--blocking-threads", "4"),
        env={"BATON_LOOP_ATTACHED": "1"},
        describe="A/B: baton pool of 4 with the loop taking the GIL every pass (BATON_LOOP_ATTACHED=1)"),
    Arm("baton-pool-4-fallback", "baton", "wsgi", _baton("--blocking-threads", "4"),
        env={"BATON_POOL_FALLBACK": "inline"},
        describe="A/B: baton pool of 4, requests run inline on the loop thread when all are busy"),
    Arm("baton-baseline-inline", "baton", "wsgi", _baton(venv_bin=BASELINE_VENV / "bin" if BASELINE_VENV else None),
        describe="an earlier baton build (BATON_BASELINE_VENV), its inline shape: the before of a before/after"),
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
    Arm("baton-static", "baton", "wsgi", _baton_static,
        describe="baton inline with --static-path-route/--static-path-mount: files answered by the core"),
    Arm("baton-inline-accesslog", "baton", "wsgi", _baton_access_log("--blocking-threads", "0"),
        describe="baton inline with --access-log to a file (the combined format)"),
    Arm("baton-pool-1-accesslog", "baton", "wsgi", _baton_access_log("--blocking-threads", "1"),
        describe="baton pool of 1 with --access-log to a file (the combined format)"),
    Arm("uwsgi-http", "peer", "wsgi", _uwsgi("--http-socket"), packages=("uwsgi-core", "uwsgi-plugin-python3"),
        describe="uWSGI --http-socket, 1 process"),
    Arm("uwsgi-http11", "peer", "wsgi", _uwsgi("--http11-socket"), packages=("uwsgi-core", "uwsgi-plugin-python3"),
        describe="uWSGI --http11-socket (keep-alive), 1 process"),
    Arm("uwsgi-p2", "peer", "wsgi", _uwsgi("--http11-socket", processes=2),
        packages=("uwsgi-core", "uwsgi-plugin-python3"), describe="uWSGI --http11-socket --processes 2"),
    Arm("gunicorn-w2-sync", "peer", "wsgi", _gunicorn("--worker-class", "sync", "--workers", "2"),
        packages=("gunicorn",), describe="gunicorn -w 2, sync workers"),
    Arm("gunicorn-w2-gthread", "peer", "wsgi", _gunicorn("--worker-class", "gthread", "--threads", "4",
                                                          "--workers", "2"),
        packages=("gunicorn",), describe="gunicorn -w 2, gthread with 4 threads each"),
    Arm("uvicorn-w2", "peer", "asgi", _uvicorn("uvloop", "httptools", "--workers", "2"),
        packages=("python3-uvicorn", "python3-uvloop", "python3-httptools"),
        describe="uvicorn --workers 2, uvloop and httptools"),
    Arm("nginx-static", "ceiling", "static", _nginx, packages=("nginx-light",),
        describe="nginx, 1 worker, the same file from location /static/ with sendfile"),
    Arm("gunicorn-sync", "peer", "wsgi", _gunicorn("--worker-class", "sync"), packages=("gunicorn",),
        describe="gunicorn sync worker, 1 worker"),
    Arm("gunicorn-gthread", "peer", "wsgi", _gunicorn("--worker-class", "gthread", "--threads", "4"),
        packages=("gunicorn",), describe="gunicorn gthread, 1 worker, 4 threads"),
    Arm("waitress-1", "peer", "wsgi", _waitress(1), packages=("python3-waitress",),
        describe="waitress, 1 thread"),
    Arm("waitress-4", "peer", "wsgi", _waitress(4), packages=("python3-waitress",),
        describe="waitress, 4 threads"),
    Arm("uvicorn-h11", "peer", "asgi", _uvicorn("asyncio", "h11"), packages=("python3-uvicorn", "python3-h11"),
        describe="uvicorn, asyncio loop, h11 parser"),
    Arm("uvicorn-uvloop", "peer", "asgi", _uvicorn("uvloop", "httptools"),
        packages=("python3-uvicorn", "python3-uvloop", "python3-httptools"),
        describe="uvicorn, uvloop, httptools parser"),
    Arm("uvicorn-uvloop-cold", "peer", "asgi", _uvicorn("uvloop", "httptools"), cold=True,
        packages=("python3-uvicorn", "python3-uvloop", "python3-httptools"),
        describe="uvicorn with uvloop and httptools, loaded straight after start"),
    Arm("hypercorn", "peer", "asgi", _hypercorn, packages=("python3-hypercorn",),
        describe="hypercorn (asyncio), 1 worker"),
    Arm("daphne", "peer", "asgi", _daphne, packages=("python3-daphne",), describe="daphne (Twisted)"),
    Arm("nginx", "ceiling", "any", _nginx, packages=("nginx-light",),
        describe="nginx, 1 worker, `return 200` (no upstream)"),
    Arm("floor-c", "ceiling", "any", lambda port, w: [str(build_c("floor")), str(port)],
        describe="a minimal single-threaded C epoll server (fixed answer, keep-alive)"),
)}


MODULES = {"gunicorn": "gunicorn", "waitress": "waitress", "uvicorn-h11": "uvicorn",
           "uvicorn-uvloop": "uvloop, httptools, uvicorn", "hypercorn": "hypercorn", "daphne": "daphne"}


def available(arm: Arm) -> bool:
    if arm.name.startswith("baton-baseline"):
        return BASELINE_VENV is not None and (BASELINE_VENV / "bin" / "baton").exists()
    if arm.name.startswith("uwsgi"):
        return shutil.which("uwsgi") is not None
    if arm.name.startswith("nginx"):
        return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()
    for prefix, modules in MODULES.items():
        if arm.name.startswith(prefix):
            return subprocess.run([sys.executable, "-c", f"import {modules}"], capture_output=True).returncode == 0
    return True
