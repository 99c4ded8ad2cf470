"""The servers a benchmark compares. Adding one is one entry in ARMS.

Each arm turns (port, workload) into a command line. The harness pins it,
starts it, checks one answer byte for byte, loads it and stops it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from bench.harness.apps import Workload

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
FLOOR_SOURCE = ROOT / "bench" / "floor.c"
FLOOR_BINARY = ROOT / "build" / "bench" / "floor"


def debian_version(package: str) -> str:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return result.stdout.strip() or "not installed"


def build_floor() -> Path:
    if not FLOOR_BINARY.exists() or FLOOR_BINARY.stat().st_mtime < FLOOR_SOURCE.stat().st_mtime:
        FLOOR_BINARY.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", str(FLOOR_BINARY), str(FLOOR_SOURCE)], check=True)
    return FLOOR_BINARY


@dataclass(frozen=True)
class Arm:
    name: str
    kind: str  # "baton", "peer" or "ceiling"
    interface: str  # "wsgi", "asgi" or "any" (answers every path the same)
    command: Callable[[int, Workload], list[str]]
    packages: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    describe: str = ""

    def serves(self, workload: Workload) -> bool:
        if self.interface == "any":
            return workload.name == "hello"
        return getattr(workload, self.interface) is not None

    def version(self) -> str:
        if self.kind == "baton":
            out = subprocess.run([str(VENV_BIN / "python"), "-c", "import baton; print(baton.__version__)"],
                                 capture_output=True, text=True)
            return out.stdout.strip()
        return ", ".join(f"{p} {debian_version(p)}" for p in self.packages) or "in-tree"


def _baton(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [str(VENV_BIN / "baton"), w.wsgi or "", "--port", str(port), "--log-level", "warning",
                "--backlog", "4096", *extra]
    return command


def _module_file(spec: str) -> tuple[str, str]:
    module, attribute = spec.split(":")
    return str(ROOT / (module.replace(".", "/") + ".py")), attribute


def _uwsgi(socket_flag: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        path, attribute = _module_file(w.wsgi)
        return ["uwsgi", socket_flag, f"127.0.0.1:{port}", "--plugin", "python3", "--wsgi-file", path,
                "--callable", attribute, "--processes", "1", "--threads", "1", "--disable-logging",
                "--single-interpreter", "--listen", "1024", "--die-on-term", "--chdir", str(ROOT)]
    return command


def _gunicorn(*extra: str) -> Callable[[int, Workload], list[str]]:
    def command(port: int, w: Workload) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "--workers", "1", "--bind", f"127.0.0.1:{port}",
                "--chdir", str(ROOT), "--log-level", "warning", "--backlog", "4096", *extra, w.wsgi]
    return command


ARMS: dict[str, Arm] = {a.name: a for a in (
    Arm("baton-inline", "baton", "wsgi", _baton(),
        describe="baton, one process, the app run on the loop thread"),
    Arm("baton-native", "baton", "any", lambda port, w: [str(VENV_BIN / "baton"), "--native-hello", "--port",
                                                           str(port), "--log-level", "warning", "--backlog", "4096"],
        describe="baton's native hello route: the same C++ path, no Python"),
    Arm("uwsgi-http", "peer", "wsgi", _uwsgi("--http-socket"), packages=("uwsgi-core", "uwsgi-plugin-python3"),
        describe="uWSGI --http-socket, 1 process"),
    Arm("uwsgi-http11", "peer", "wsgi", _uwsgi("--http11-socket"), packages=("uwsgi-core", "uwsgi-plugin-python3"),
        describe="uWSGI --http11-socket (keep-alive), 1 process"),
    Arm("gunicorn-sync", "peer", "wsgi", _gunicorn("--worker-class", "sync"), packages=("gunicorn",),
        describe="gunicorn sync worker, 1 worker"),
    Arm("gunicorn-gthread", "peer", "wsgi", _gunicorn("--worker-class", "gthread", "--threads", "4"),
        packages=("gunicorn",), describe="gunicorn gthread, 1 worker, 4 threads"),
    Arm("floor-c", "ceiling", "any", lambda port, w: [str(build_floor()), str(port)],
        describe="a minimal single-threaded C epoll server (fixed answer, keep-alive)"),
)}


def available(arm: Arm) -> bool:
    if arm.name.startswith("uwsgi"):
        return shutil.which("uwsgi") is not None
    if arm.name.startswith("gunicorn"):
        return subprocess.run([sys.executable, "-c", "import gunicorn"], capture_output=True).returncode == 0
    return True
