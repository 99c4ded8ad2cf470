"""What one 64 KiB file costs the server over HTTP/2 with TLS, for two builds
alternating: the server's CPU time per request (`perf stat -e task-clock` on
its process, user and kernel) over rounds of h2load, and its user-space
instructions per request under callgrind (the difference of two runs, so
start-up and shutdown fall out).

    .venv/bin/python -m bench.h2_file_cost --baseline-venv /tmp/base-venv [--rounds 10] [--out DIR]

Server on CPU 0, h2load on CPU 1; 4 connections of 10 streams, the file
served by the core (--static-path-route, the inline shape). This machine's
perf has no hardware counters (a virtual machine): cycles are not to be
had, task-clock is the CPU time. Writes results.json and summary.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.harness.arms import VENV_BIN, bench_certificate, static_dir
from bench.harness.runner import free_port

ROOT = Path(__file__).resolve().parent.parent
PATH = "/static/64k.bin"


def command(venv_bin: Path, port: int) -> list[str]:
    cert, key = bench_certificate()
    return [str(venv_bin / "python"), str(venv_bin / "baton"), "apps.hello.app:application", "--port", str(port),
            "--log-level", "warning", "--blocking-threads", "0", "--ssl-certfile", cert, "--ssl-keyfile", key,
            "--static-path-route", "/static", "--static-path-mount", str(static_dir())]


def wait_up(port: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        ok = subprocess.run(["curl", "-sk", "-o", "/dev/null", "-w", "%{http_code}", f"https://127.0.0.1:{port}{PATH}"],
                            capture_output=True, text=True).stdout == "200"
        if ok:
            return
        time.sleep(0.3)
    raise RuntimeError("the server did not come up")


def h2load(port: int, requests: int) -> None:
    out = subprocess.run(["taskset", "-c", "1", "h2load", "-n", str(requests), "-c", "4", "-m", "10",
                          f"https://127.0.0.1:{port}{PATH}"], capture_output=True, text=True, timeout=600).stdout
    if not re.search(rf"{requests} succeeded", out):
        raise RuntimeError(f"h2load: not every request succeeded:\n{out}")


def cpu_round(venv_bin: Path, requests: int) -> float:
    """Server CPU milliseconds a request, over `requests` after a warm-up."""
    port = free_port()
    proc = subprocess.Popen(["taskset", "-c", "0", *command(venv_bin, port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_up(port, proc)
        h2load(port, 2000)
        with tempfile.NamedTemporaryFile(mode="r", suffix=".perf") as f:
            perf = subprocess.Popen(["perf", "stat", "-x,", "-e", "task-clock", "-p", str(proc.pid), "-o", f.name])
            time.sleep(0.2)
            h2load(port, requests)
            perf.send_signal(signal.SIGINT)
            perf.wait(30)
            ms = next(float(line.split(",")[0]) for line in f.read().splitlines() if "task-clock" in line)
        return ms / requests
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)


def callgrind_total(venv_bin: Path, requests: int) -> int:
    port = free_port()
    out_dir = Path(tempfile.mkdtemp(prefix="baton-h2file-callgrind-"))
    proc = subprocess.Popen(["taskset", "-c", "0", "valgrind", "--tool=callgrind",
                             f"--callgrind-out-file={out_dir}/callgrind.%p", *command(venv_bin, port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env=dict(os.environ, PYTHONHASHSEED="0"))
    try:
        wait_up(port, proc, timeout=300)
        h2load(port, requests)
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    total = 0
    for f in out_dir.glob("callgrind.*"):
        total += next(int(line.split()[1]) for line in f.read_text(errors="replace").splitlines()
                      if line.startswith(("summary:", "totals:")))
        f.unlink()
    out_dir.rmdir()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-venv", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / f"{date.today()}-h2-file-cost")
    args = parser.parse_args()
    builds = {"baseline": args.baseline_venv / "bin", "this": VENV_BIN}
    cpu: dict[str, list[float]] = {name: [] for name in builds}
    for r in range(args.rounds):
        for name, venv_bin in builds.items():
            cpu[name].append(cpu_round(venv_bin, args.requests))
            print(f"round {r + 1}: {name} {cpu[name][-1] * 1000:.1f} us a request", flush=True)
    instructions = {}
    for name, venv_bin in builds.items():
        few, many = callgrind_total(venv_bin, 1000), callgrind_total(venv_bin, 5000)
        instructions[name] = round((many - few) / 4000)
        print(f"{name}: {instructions[name]} user-space instructions a request", flush=True)
    medians = {name: statistics.median(values) * 1000 for name, values in cpu.items()}
    results = {"baseline_venv": str(args.baseline_venv), "requests": args.requests, "rounds": args.rounds,
               "cpu_us_per_request": {k: [v * 1000 for v in vs] for k, vs in cpu.items()},
               "cpu_us_median": medians, "instructions_per_request": instructions}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    ratio_cpu = medians["this"] / medians["baseline"]
    ratio_instr = instructions["this"] / instructions["baseline"]
    (args.out / "summary.md").write_text(
        f"# 64 KiB over HTTP/2 with TLS: the server's cost a request\n\n"
        f"`python -m bench.h2_file_cost --baseline-venv {args.baseline_venv} --rounds {args.rounds}`; "
        f"h2load -c 4 -m 10, {args.requests} requests a round, server on CPU 0, h2load on CPU 1.\n\n"
        f"| build | CPU a request (median of {args.rounds}, task-clock) | user-space instructions a request |\n"
        f"|---|---|---|\n"
        f"| baseline | {medians['baseline']:.1f} us | {instructions['baseline']:,} |\n"
        f"| this | {medians['this']:.1f} us | {instructions['this']:,} |\n"
        f"| ratio | {ratio_cpu:.3f} | {ratio_instr:.3f} |\n")
    print((args.out / "summary.md").read_text())


if __name__ == "__main__":
    main()
