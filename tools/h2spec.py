"""Builds h2spec from the vendored snapshot and runs it against baton.

  python3 tools/h2spec.py [--results DIR]

h2spec (summerwind/h2spec at af83a65, MIT, in third_party/h2spec) is built
with Debian's Go and Debian's packaged Go sources in GOPATH mode, nothing
fetched: the snapshot is linked at build/h2spec/src/github.com/summerwind/h2spec
and `go build` finds cobra, color and x/net under /usr/share/gocode. Then
it runs every server case against two fresh servers, each started on a
free port and stopped by its PID:

  h2c-wsgi-pool     the WSGI pool, HTTP/2 with prior knowledge (--http 2), --strict
  h2-asgi-inverted  ASGI inverted on uvloop over TLS (ALPN h2)

and exits non-zero unless every case passed. --results writes each run's
report to DIR/<name>.txt (the committed ones are tests/conformance/h2spec/).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "h2spec"
BINARY = BUILD / "h2spec"
SOURCE = ROOT / "third_party" / "h2spec"
APP = "tests.integration.apps.wire_apps"


def build() -> Path:
    newest = max(p.stat().st_mtime for p in SOURCE.rglob("*.go"))
    if BINARY.exists() and BINARY.stat().st_mtime >= newest:
        return BINARY
    link = BUILD / "src" / "github.com" / "summerwind" / "h2spec"
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(SOURCE)
    env = dict(os.environ, GOPATH=f"{BUILD}:/usr/share/gocode", GO111MODULE="off", GOFLAGS="",
               GOCACHE=str(BUILD / "cache"))
    subprocess.run(["go", "build", "-o", str(BINARY), "./cmd/h2spec"], cwd=link, env=env, check=True)
    return BINARY


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def certificate(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def run_one(name: str, baton_args: list[str], h2spec_args: list[str], results: Path | None) -> bool:
    port = free_port()
    python = ROOT / ".venv" / "bin" / "python"
    server = subprocess.Popen([str(python), "-m", "baton", "--port", str(port), "--log-level", "warning",
                               *baton_args], cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    print(f"h2spec {name}: the server did not start", file=sys.stderr)
                    return False
                time.sleep(0.05)
        out = subprocess.run([str(BINARY), "-h", "127.0.0.1", "-p", str(port), "-P", "/info", "-o", "3",
                              *h2spec_args], capture_output=True, text=True, timeout=600)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    if results is not None:
        results.mkdir(parents=True, exist_ok=True)
        (results / f"{name}.txt").write_text(out.stdout)
    summary = re.search(r"(\d+) tests, (\d+) passed, (\d+) skipped, (\d+) failed", out.stdout)
    if summary is None:
        print(f"h2spec {name}: no summary\n{out.stdout[-2000:]}{out.stderr[-2000:]}", file=sys.stderr)
        return False
    total, passed, skipped, failed = (int(g) for g in summary.groups())
    print(f"h2spec {name}: {total} tests, {passed} passed, {skipped} skipped, {failed} failed")
    if failed or passed != total:
        failures = out.stdout[out.stdout.find("Failures:"):] if "Failures:" in out.stdout else out.stdout[-3000:]
        print(failures, file=sys.stderr)
    return failed == 0 and passed == total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=Path)
    args = parser.parse_args()
    if shutil.which("go") is None:
        print("h2spec: Go is missing (the Makefile installs golang-go)", file=sys.stderr)
        return 2
    build()
    with tempfile.TemporaryDirectory(prefix="baton-h2spec-") as tmp:
        cert, key = certificate(Path(tmp))
        ok = run_one("h2c-wsgi-pool", ["--http", "2", "--blocking-threads", "4", f"{APP}:wsgi"], ["--strict"],
                     args.results)
        ok = run_one("h2-asgi-inverted", ["--interface", "asgi", "--asgi-mode", "inverted", "--loop", "uvloop",
                                          "--ssl-certfile", str(cert), "--ssl-keyfile", str(key), f"{APP}:asgi"],
                     ["-t", "-k"], args.results) and ok
    print(f"h2spec: {'every case passed' if ok else 'cases failed'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
