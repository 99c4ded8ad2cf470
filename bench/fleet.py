"""The fleet benchmark: three hosts behind HAProxy (tests/fleet's harness,
deploy/haproxy.cfg), a fixed request rate from a client machine, and the
latency of a steady stretch against the stretch of a rolling deploy (each
host: its server's own reload on new code, then a full restart), for baton
(`-w 2`) and for Granian (`--workers 2`, its SIGHUP reload) behind the same
HAProxy, alternating, rounds of each.

    .venv/bin/python -m bench.fleet [--rounds 2] [--rate 3000] [--out DIR]

The load is h2load over HTTP/1.1 (`--rps` per connection: an open-loop
rate, so a stall shows in the latencies instead of slowing the senders),
one log line a request; p50 and p99 are of the requests that started in
each stretch. Writes results.json and summary.md to the artifact directory.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

from tests.fleet.fleet import FRONT_PORT, Fleet, GranianHost, Host

SERVERS = {"baton": Host, "granian": GranianHost}
STEADY = 10.0  # seconds of the steady stretch before the deploy


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def one_round(server: str, rate: int, connections: int, workdir: Path) -> dict:
    fleet = Fleet(workdir, host_class=SERVERS[server])
    log = workdir / "requests.tsv"
    try:
        seconds = 60
        load = subprocess.Popen(
            fleet.client.command("h2load", "--h1", "-c", str(connections), "--rps", str(rate // connections),
                                 "-D", str(seconds), "--log-file", str(log),
                                 f"http://{fleet.balancer.address}:{FRONT_PORT}/"),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        began = time.time()
        time.sleep(2 + STEADY)
        deploy_start = time.time()
        fleet.roll("v2")
        deploy_end = time.time()
        summary, _ = load.communicate(timeout=seconds + 60)
    finally:
        fleet.close()
    steady, deploying, statuses = [], [], {}
    for line in log.read_text().split("\n"):
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        start, status, micros = float(parts[0]) / 1e6, int(parts[1]), int(parts[2])
        statuses[status] = statuses.get(status, 0) + 1
        if began + 2 <= start < began + 2 + STEADY:
            steady.append(micros / 1000)
        elif deploy_start <= start < deploy_end:
            deploying.append(micros / 1000)
    failed = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored, (\d+) timeout", summary)
    return {
        "server": server, "rate": rate, "connections": connections,
        "deploy_seconds": round(deploy_end - deploy_start, 2),
        "steady": {"requests": len(steady), "p50_ms": percentile(steady, 0.5), "p99_ms": percentile(steady, 0.99)},
        "deploy": {"requests": len(deploying), "p50_ms": percentile(deploying, 0.5),
                   "p99_ms": percentile(deploying, 0.99)},
        "statuses": statuses,
        "h2load": dict(zip(("total", "started", "done", "succeeded", "failed", "errored", "timeout"),
                           map(int, failed.groups()))) if failed else summary[-600:],
    }


def render(rounds: list[dict]) -> str:
    lines = ["| server | round | rate/s | deploy s | steady p50 ms | steady p99 ms | deploy p50 ms | deploy p99 ms "
             "| p99 ratio | non-2xx | failed |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(rounds):
        ratio = (r["deploy"]["p99_ms"] / r["steady"]["p99_ms"]) if r["steady"]["p99_ms"] and r["deploy"]["p99_ms"] else None
        non2 = sum(n for s, n in r["statuses"].items() if not 200 <= s < 300)
        failed = r["h2load"]["failed"] + r["h2load"]["errored"] + r["h2load"]["timeout"] \
            if isinstance(r["h2load"], dict) else "?"
        lines.append(f"| {r['server']} | {i // len(SERVERS) + 1} | {r['rate']} | {r['deploy_seconds']} "
                     f"| {r['steady']['p50_ms']:.2f} | {r['steady']['p99_ms']:.2f} | {r['deploy']['p50_ms']:.2f} "
                     f"| {r['deploy']['p99_ms']:.2f} | {ratio:.2f} | {non2} | {failed} |")
    medians = []
    for server in SERVERS:
        mine = [r for r in rounds if r["server"] == server]
        if mine:
            medians.append(f"{server}: median steady p99 {statistics.median(r['steady']['p99_ms'] for r in mine):.2f} ms, "
                           f"deploy p99 {statistics.median(r['deploy']['p99_ms'] for r in mine):.2f} ms")
    return "\n".join(lines) + "\n\n" + "\n".join(medians) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rate", type=int, default=3000, help="requests a second, all connections together")
    parser.add_argument("--connections", type=int, default=12)
    parser.add_argument("--out", type=Path, default=Path("bench/results") / f"{date.today()}-fleet")
    args = parser.parse_args()
    rounds = []
    for _ in range(args.rounds):
        for server in SERVERS:  # alternating
            with tempfile.TemporaryDirectory() as d:
                result = one_round(server, args.rate, args.connections, Path(d))
            print(json.dumps(result), flush=True)
            rounds.append(result)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(rounds, indent=1))
    text = render(rounds)
    (args.out / "summary.md").write_text(
        f"# Fleet: a rolling deploy under a fixed rate\n\n`python -m bench.fleet --rounds {args.rounds} "
        f"--rate {args.rate} --connections {args.connections}`\n\n{text}")
    print(text)


if __name__ == "__main__":
    main()
