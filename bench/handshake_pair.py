"""TLS handshakes: each server's CPU a handshake, with the servers run side by
side rather than one after another.

    .venv/bin/python -m bench.handshake_pair --arms baton-baseline-inline-h2 baton-inline granian-wsgi-bt1 \\
        [--rounds 5] [--duration 10] [--connections 8] [--out DIR]

On this machine a server's CPU a handshake drifts by a fifth or more within
minutes (the same build measured 244 and 333 us in one suite run), more
than most changes to the handshake are worth, so arms measured in turn
compare noise. Here every arm's server runs at once on CPU 0, each loaded
by a wrk of its own on CPU 1 (one thread, --connections connections,
`Connection: close`: a handshake a request, resumed by ticket as wrk does),
so a round's arms share whatever the machine does in it. A server's CPU is
its process tree's user and system time over the round, divided by the
requests its wrk completed; the ratios are taken within each round, and
the medians of those are reported. The rates are not comparable to the
suites' (each server has part of a core), the CPU a handshake is.
Arms are named as in bench/harness/arms.py (BATON_BASELINE_VENV for the
baseline arms); the servers start in a rotated order each round. Writes
results.json and summary.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
from datetime import date
from pathlib import Path

from bench.harness import procs
from bench.harness.apps import WORKLOADS
from bench.harness.arms import ARMS
from bench.harness.runner import Settings, start, stop

ROOT = Path(__file__).resolve().parent.parent
WORKLOAD = WORKLOADS["handshake-https"]


def cpu_ticks(pid: int) -> int:
    total = 0
    for p in procs.tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return total


def one_round(arms: list[str], duration: int, connections: int, log_dir: Path) -> dict[str, dict]:
    settings = Settings("handshake-pair", arms, [WORKLOAD.name], [connections], server_cpus="0", client_cpus="1")
    servers = {}
    try:
        for name in arms:
            proc, port, _ = start(ARMS[name], WORKLOAD, settings, log_dir / f"{name}.log")
            servers[name] = (proc, port)
        before = {name: cpu_ticks(proc.pid) for name, (proc, _) in servers.items()}
        loads = {name: subprocess.Popen(["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{duration}s",
                                         "-H", "Connection: close", f"https://127.0.0.1:{port}{WORKLOAD.path}"],
                                        stdout=subprocess.PIPE, text=True)
                 for name, (_, port) in servers.items()}
        outputs = {name: load.communicate(timeout=duration + 60)[0] for name, load in loads.items()}
        after = {name: cpu_ticks(proc.pid) for name, (proc, _) in servers.items()}
    finally:
        for proc, _ in servers.values():
            stop(proc)
    tick_us = 1e6 / os.sysconf("SC_CLK_TCK")
    result = {}
    for name, out in outputs.items():
        found = re.search(r"(\d+) requests in", out)
        if not found or re.search(r"Non-2xx|Socket errors", out):
            raise RuntimeError(f"{name}: wrk did not complete cleanly:\n{out}")
        requests = int(found.group(1))
        result[name] = {"requests": requests,
                        "cpu_us_per_handshake": round((after[name] - before[name]) * tick_us / requests, 1),
                        "pid": servers[name][0].pid}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arms", nargs="+", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / f"{date.today()}-handshake-pair")
    args = parser.parse_args()
    unknown = [a for a in args.arms if a not in ARMS]
    if unknown:
        parser.error(f"unknown arms: {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)
    rounds = []
    for r in range(args.rounds):
        order = args.arms[r % len(args.arms):] + args.arms[:r % len(args.arms)]
        rounds.append(one_round(order, args.duration, args.connections, args.out))
        print(f"round {r + 1}: " + ", ".join(f"{name} {v['cpu_us_per_handshake']} us ({v['requests']} handshakes)"
                                             for name, v in rounds[-1].items()), flush=True)
    first = args.arms[0]
    medians = {name: statistics.median(r[name]["cpu_us_per_handshake"] for r in rounds) for name in args.arms}
    ratios = {name: statistics.median(r[name]["cpu_us_per_handshake"] / r[first]["cpu_us_per_handshake"]
                                      for r in rounds) for name in args.arms}
    results = {"arms": args.arms, "rounds": rounds, "duration": args.duration, "connections": args.connections,
               "baseline_venv": os.environ.get("BATON_BASELINE_VENV", ""), "cpu_us_median": medians,
               f"ratio_to_{first}_median": ratios}
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [f"# TLS handshakes, servers side by side: CPU a handshake\n",
             f"`python -m bench.handshake_pair --arms {' '.join(args.arms)} --rounds {args.rounds} "
             f"--duration {args.duration} --connections {args.connections}`"
             + (f" (BATON_BASELINE_VENV={results['baseline_venv']})" if results["baseline_venv"] else "") + ".",
             "Every server on CPU 0 at once, a wrk each on CPU 1 (`Connection: close`, resumed by ticket).\n",
             f"| arm | CPU a handshake, median of {args.rounds} | ÷ {first}, median of the rounds' ratios | per round |",
             "|---|---|---|---|"]
    for name in args.arms:
        per_round = ", ".join(f"{r[name]['cpu_us_per_handshake']}" for r in rounds)
        lines.append(f"| {name} | {medians[name]:.1f} us | {ratios[name]:.3f} | {per_round} |")
    (args.out / "summary.md").write_text("\n".join(lines) + "\n")
    print((args.out / "summary.md").read_text())


if __name__ == "__main__":
    main()
