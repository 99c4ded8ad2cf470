"""HTTP/3 downloads over a path with a round trip: how fast one QUIC
connection carries a large file once its congestion window, not the CPU, is
the bound, and so its pacer decides when each burst leaves.

    BATON_BASELINE_VENV=... .venv/bin/python -m bench.h3_paced \\
        --arms baton-baseline-static baton-static [--delays-us 0 2500 10000] \\
        [--rounds 5] [--size-mib 16] [--downloads 4] [--out DIR]

This machine's kernel has no netem, so the path is bench/udp_delay.c: a
relay on loopback that holds every datagram DELAY us each way (a round trip
of twice that, plus loopback's). A delay of 0 runs without the relay. Each
round starts every arm in turn (rotated from round to round) with the file
answered by its core (files under --static-path-mount), the server on
CPU 0 and the relay and the client on CPU 1, and times `--downloads`
downloads of the file, one after another on one connection (h2load built
with HTTP/3: make h2load-h3; one client, one stream). The rate is the
file's bytes over h2load's time; the medians of the rounds are reported,
and each arm's ratio to the first arm, taken within each round. Writes
results.json and summary.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import time
from datetime import date
from pathlib import Path

from bench.harness.apps import Workload
from bench.harness.arms import ARMS, build_c, static_dir
from bench.harness.runner import Settings, free_port, h2load_binary, machine, start, stop

ROOT = Path(__file__).resolve().parent.parent
# h2load's windows (2^24 a stream, 2^26 the connection) so that the client's
# flow control is not what bounds a connection over a long round trip.
WINDOW_BITS = ["-w", "24", "-W", "26"]


def big_file(size_mib: int) -> tuple[str, bytes]:
    name = f"{size_mib}m.bin"
    target = Path(static_dir()) / name
    body = bytes((i * 7 + 3) % 251 for i in range(251)) * (size_mib * 1024 * 1024 // 251 + 1)
    body = body[:size_mib * 1024 * 1024]
    if not target.exists() or target.stat().st_size != len(body):
        target.write_bytes(body)
    return name, body


def download(arm: str, workload: Workload, delay_us: int, downloads: int, log_dir: Path) -> float:
    """Megabytes a second over `downloads` downloads on one connection."""
    settings = Settings("h3-paced", [arm], [workload.name], [1], server_cpus="0", client_cpus="1")
    proc, port, _ = start(ARMS[arm], workload, settings, log_dir / f"{arm}.log")
    relay = None
    try:
        target = port
        if delay_us > 0:
            target = free_port()
            relay = subprocess.Popen(["taskset", "-c", "1", str(build_c("udp_delay")), str(target), str(port),
                                      str(delay_us)], stdout=subprocess.PIPE, text=True)
            time.sleep(0.2)
        out = subprocess.run(["taskset", "-c", "1", h2load_binary(workload), "--h3", *WINDOW_BITS,
                              f"-n{downloads}", "-c1", "-m1", f"https://127.0.0.1:{target}{workload.path}"],
                             capture_output=True, text=True, timeout=600).stdout
    finally:
        if relay is not None:
            relay.terminate()
            relay.communicate(timeout=10)
        stop(proc)
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded", out)
    took = re.search(r"finished in ([\d.]+)(m?s)", out)
    if not done or int(done.group(2)) != downloads or not took:
        raise RuntimeError(f"{arm}: h2load did not complete every download:\n{out}")
    seconds = float(took.group(1)) / (1000 if took.group(2) == "ms" else 1)
    return round(downloads * len(workload.body or b"") / seconds / 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arms", nargs="+", required=True)
    parser.add_argument("--delays-us", nargs="+", type=int, default=[0, 2500, 10000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size-mib", type=int, default=16)
    parser.add_argument("--downloads", type=int, default=4)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / f"{date.today()}-h3-paced")
    args = parser.parse_args()
    unknown = [a for a in args.arms if a not in ARMS]
    if unknown:
        parser.error(f"unknown arms: {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)
    name, body = big_file(args.size_mib)
    workload = Workload(f"static-{args.size_mib}m-h3", f"/static/{name}", 200, body,
                        wsgi="apps.hello.app:application", static=name, client="h2load", wire="h3", streams=1)
    rows: dict[int, list[dict[str, float]]] = {d: [] for d in args.delays_us}
    for r in range(args.rounds):
        order = args.arms[r % len(args.arms):] + args.arms[:r % len(args.arms)]
        for delay in args.delays_us:
            rates = {arm: download(arm, workload, delay, args.downloads, args.out) for arm in order}
            rows[delay].append(rates)
            print(f"round {r + 1}, {delay} us each way: " + ", ".join(f"{a} {v} MB/s" for a, v in rates.items()),
                  flush=True)
    first = args.arms[0]
    summary = {}
    for delay, rounds in rows.items():
        summary[delay] = {arm: {"mb_per_s_median": statistics.median(r[arm] for r in rounds),
                                f"ratio_to_{first}_median": round(statistics.median(r[arm] / r[first]
                                                                                    for r in rounds), 3),
                                "per_round": [r[arm] for r in rounds]} for arm in args.arms}
    results = {"arms": args.arms, "delays_us": args.delays_us, "size_mib": args.size_mib,
               "downloads": args.downloads, "rounds": args.rounds,
               "baseline_venv": os.environ.get("BATON_BASELINE_VENV", ""), "machine": machine(), "rows": summary}
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = ["# HTTP/3 downloads over a path with a round trip\n",
             f"`python -m bench.h3_paced --arms {' '.join(args.arms)} --delays-us "
             f"{' '.join(map(str, args.delays_us))} --rounds {args.rounds} --size-mib {args.size_mib} "
             f"--downloads {args.downloads}`"
             + (f" (BATON_BASELINE_VENV={results['baseline_venv']})" if results["baseline_venv"] else "") + ".",
             f"One connection, {args.downloads} downloads of a {args.size_mib} MiB file in a row; server on "
             "CPU 0, bench/udp_delay.c and h2load on CPU 1.\n",
             f"| delay each way | arm | MB/s, median of {args.rounds} | ÷ {first}, median of the rounds' ratios "
             "| per round |", "|---|---|---|---|---|"]
    for delay, arms in summary.items():
        for arm, row in arms.items():
            lines.append(f"| {delay / 1000:g} ms | {arm} | {row['mb_per_s_median']:.1f} | "
                         f"{row[f'ratio_to_{first}_median']:.3f} | {', '.join(map(str, row['per_round']))} |")
    (args.out / "summary.md").write_text("\n".join(lines) + "\n")
    print((args.out / "summary.md").read_text())


if __name__ == "__main__":
    main()
