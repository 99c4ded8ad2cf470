"""Runs the Autobahn|Testsuite WebSocket conformance cases against a server.

  python3 tools/autobahn.py --url ws://127.0.0.1:PORT/ [--cases '*'] [--exclude '12.*,13.*']
                            [--out build/autobahn/report]
  python3 tools/autobahn.py --serve 'BATON ARGS' [--cases ...] [--summary FILE]
  python3 tools/autobahn.py --setup-only

With --serve, it starts `.venv/bin/python -m baton BATON ARGS --port N` on a
free port itself, runs the cases against ws://127.0.0.1:N/, and stops the
server by its PID. --summary writes what it printed, and the counts by
category, to FILE (the committed summaries in tests/conformance/autobahn/).

The suite (`wstest -m fuzzingclient`, package autobahntestsuite) runs on
Python 2.7 only. The first run makes build/autobahn/venv from pyenv's CPython
2.7 and installs tools/locks/autobahn.txt into it (--no-deps --require-hashes,
by tools/locks.py). Python 2.7 has no `venv` module, so the venv is made by
virtualenv 16.7.12, itself taken from the same lock: pip installs it with its
hash into build/autobahn/bootstrap (--target, pyenv's own site-packages is not
touched) and runs it from there. A stamp in the venv holds the lock's sha256;
a changed lock makes the venv anew.

A run writes <out>/spec.json (agent "baton", the server's URL, the cases),
runs wstest on it, and reads the report that wstest leaves in <out>/index.json
(<out>/index.html is the same for a browser). It prints one summary line, then
each failing case with its `behavior` and `behaviorClose`. A case counts as the
worse of the two; OK, NON-STRICT and INFORMATIONAL pass, anything else fails:
FAILED, UNIMPLEMENTED, and behaviorClose's own WRONG CODE, UNCLEAN and FAILED
BY CLIENT (counted as FAILED). Exit status: 0 when every case passes, 1 when
one fails, 2 when there is no report (wstest failed or could not connect).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locks  # noqa: E402  (tools/locks.py)

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "tools" / "locks" / "autobahn.txt"
BASE = ROOT / "build" / "autobahn"
VENV = BASE / "venv"
BOOTSTRAP = BASE / "bootstrap"
STAMP = VENV / ".baton-lock-sha256"

PASSING = ("OK", "NON-STRICT", "INFORMATIONAL")
# Report order, best first; a case's verdict is the later of its two behaviors.
ORDER = ("OK", "NON-STRICT", "INFORMATIONAL", "FAILED", "UNIMPLEMENTED")


def python27() -> Path:
    found = locks.pyenv_interpreters().get("2.7")
    if found is None:
        raise SystemExit(f"autobahn: no CPython 2.7 under {locks.PYENV_ROOT}/versions (pyenv install 2.7.18)")
    return found


def ensure_venv() -> Path:
    """build/autobahn/venv with the lock installed; made only when the stamp is stale."""
    digest = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        return VENV
    python = python27()
    shutil.rmtree(VENV, ignore_errors=True)
    shutil.rmtree(BOOTSTRAP, ignore_errors=True)
    pin = next((e for e in locks.entries(LOCK) if e.startswith("virtualenv==")), None)
    if pin is None:
        raise SystemExit(f"autobahn: {LOCK} pins no virtualenv")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write(pin + "\n")
    try:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--require-hashes", "--target", str(BOOTSTRAP), "-r", req.name], check=True)
    finally:
        os.unlink(req.name)
    env = dict(os.environ, PYTHONPATH=str(BOOTSTRAP))
    subprocess.run([str(python), "-m", "virtualenv", "--quiet", "--no-download", str(VENV)], check=True, env=env)
    if locks.install(LOCK, VENV, None, keep_going=False) != 0:
        raise SystemExit(f"autobahn: installing {LOCK} into {VENV} failed")
    # wsaccel is optional to autobahn; without it frames are masked and UTF-8
    # checked in pure Python, far slower, so its absence is an error here.
    subprocess.run([str(VENV / "bin" / "python"), "-c", "import autobahntestsuite, wsaccel"], check=True)
    STAMP.write_text(digest + "\n")
    return VENV


def split(patterns: str) -> list[str]:
    return [p.strip() for p in patterns.split(",") if p.strip()]


def case_key(case_id: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in case_id.split("."))


def verdict(result: dict[str, object]) -> str:
    """The worse of a case's behavior and behaviorClose, as one of ORDER.

    behaviorClose has failing words of its own (WRONG CODE, UNCLEAN, FAILED BY
    CLIENT): those, and any word not in ORDER, count as FAILED.
    """
    words = [str(result.get("behavior")), str(result.get("behaviorClose"))]
    return max((w if w in ORDER else "FAILED" for w in words), key=ORDER.index)


def summarize(index: Path, agent: str) -> int:
    results: dict[str, dict[str, object]] = json.loads(index.read_text()).get(agent, {})
    if not results:
        print(f"autobahn: {index} has no results for agent {agent!r}", file=sys.stderr)
        return 2
    counts = dict.fromkeys(ORDER, 0)
    failed: list[str] = []
    for case_id in sorted(results, key=case_key):
        word = verdict(results[case_id])
        counts[word] += 1
        if word not in PASSING:
            failed.append(case_id)
    print(f"autobahn: {len(results)} cases: " + ", ".join(f"{n} {word}" for word, n in counts.items()))
    by_category: dict[str, dict[str, int]] = {}
    for case_id, r in results.items():
        category = by_category.setdefault(case_id.split(".")[0], dict.fromkeys(ORDER, 0))
        category[verdict(r)] += 1
    for category in sorted(by_category, key=int):
        row = by_category[category]
        print(f"  category {category}: " + ", ".join(f"{n} {word}" for word, n in row.items() if n))
    for case_id in failed:
        r = results[case_id]
        print(f"  {case_id}: behavior={r.get('behavior')} behaviorClose={r.get('behaviorClose')}"
              f" remoteCloseCode={r.get('remoteCloseCode')} ({index.parent / str(r.get('reportfile'))})")
    return 1 if failed else 0


def run(url: str, cases: list[str], exclude: list[str], out: Path, agent: str = "baton") -> int:
    venv = ensure_venv()
    out.mkdir(parents=True, exist_ok=True)
    index = out / "index.json"
    index.unlink(missing_ok=True)
    spec = out / "spec.json"
    spec.write_text(json.dumps({
        "outdir": str(out),
        "servers": [{"agent": agent, "url": url}],
        "cases": cases,
        "exclude-cases": exclude,
        "exclude-agent-cases": {},
    }, indent=1) + "\n")
    result = subprocess.run([str(venv / "bin" / "wstest"), "-m", "fuzzingclient", "-s", str(spec)], cwd=out)
    if not index.exists():
        print(f"autobahn: wstest exited {result.returncode} and wrote no {index}", file=sys.stderr)
        return 2
    status = summarize(index, agent)
    if result.returncode != 0:
        print(f"autobahn: wstest exited {result.returncode}", file=sys.stderr)
        status = max(status, 2)
    return status


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_and_run(baton_args: str, cases: list[str], exclude: list[str], out: Path) -> int:
    """Starts baton with `baton_args` on a free port, runs the cases against it, stops it by its PID."""
    port = free_port()
    python = ROOT / ".venv" / "bin" / "python"
    command = [str(python), "-m", "baton", *shlex.split(baton_args), "--port", str(port), "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    print(f"autobahn: {' '.join(command)} did not start", file=sys.stderr)
                    return 2
                time.sleep(0.05)
        status = run(f"ws://127.0.0.1:{port}/", cases, exclude, out)
        if server.poll() is not None:
            print(f"autobahn: the server exited {server.returncode} during the run", file=sys.stderr)
            status = max(status, 1)
        return status
    finally:
        if server.poll() is None:
            os.kill(server.pid, signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="the server under test, e.g. ws://127.0.0.1:8080/")
    parser.add_argument("--cases", default="*", help="comma-separated case patterns (default: '*')")
    parser.add_argument("--exclude", default="", help="comma-separated case patterns to leave out, e.g. '12.*,13.*'")
    parser.add_argument("--out", type=Path, default=BASE / "report", help="report directory")
    parser.add_argument("--serve", help="start baton with these arguments and run against it")
    parser.add_argument("--summary", type=Path, help="also write the summary to this file")
    parser.add_argument("--setup-only", action="store_true", help="make the venv and stop")
    args = parser.parse_args(argv)
    if args.setup_only:
        print(f"autobahn: {ensure_venv()} ready")
        return 0
    if not args.url and not args.serve:
        parser.error("--url or --serve is required")
    captured = io.StringIO()

    class tee(io.TextIOBase):
        def write(self, text: str) -> int:
            sys.__stdout__.write(text)
            if text.startswith(("autobahn:", "  ")) or captured.getvalue():
                captured.write(text)
            return len(text)

    with redirect_stdout(tee()):
        if args.serve:
            status = serve_and_run(args.serve, split(args.cases), split(args.exclude), args.out.resolve())
        else:
            status = run(args.url, split(args.cases), split(args.exclude), args.out.resolve())
    if args.summary:
        args.summary.parent.mkdir(parents=True, exist_ok=True)
        header = f"# tools/autobahn.py --serve {args.serve!r} --cases {args.cases!r}\n" if args.serve else ""
        args.summary.write_text(header + captured.getvalue())
    return status


if __name__ == "__main__":
    sys.exit(main())
