"""make bench [SUITE=name]: run a suite, write its artifact, render the page.

Usage: python bench/run.py --suite default [--out DIR] [--no-render]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import runner, suites  # noqa: E402
from bench import render  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suite", default="default")
    parser.add_argument("--out", type=Path, help="artifact directory (default: bench/results/<date>-<suite>)")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--duration", type=float)
    parser.add_argument("--connections", help="comma-separated connection counts, in place of the suite's")
    parser.add_argument("--cores", type=int, choices=(1, 2),
                        help="1: server on CPU 0, wrk on CPU 1 (most suites' default); 2: the server may use both "
                             "cores (for multi-thread shapes), and wrk shares them")
    parser.add_argument("--syscalls", action="store_true", help="also count syscalls per request (strace -c)")
    parser.add_argument("--arms", help="comma-separated arms, in place of the suite's")
    parser.add_argument("--background", help="comma-separated counts of slow requests kept in flight, in place of "
                                             "the suite's")
    args = parser.parse_args(argv)
    # Thousands of connections (the idle-memory suite) need descriptors; the
    # servers started from here inherit the limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    settings = suites.suite(args.suite)
    if args.cores == 2 and (settings.server_cpus, settings.client_cpus) != ("0,1", "0,1"):
        settings.server_cpus = settings.client_cpus = "0,1"
        settings.suite += "-2cores"
    if args.cores == 1 and (settings.server_cpus, settings.client_cpus) != ("0", "1"):
        settings.server_cpus, settings.client_cpus = "0", "1"
        settings.suite += "-1core"
    if args.syscalls:
        settings.syscalls = True
    if args.rounds:
        settings.rounds = args.rounds
    if args.duration:
        settings.duration = args.duration
    if args.connections:
        settings.connections = [int(n) for n in args.connections.split(",")]
    if args.arms:
        settings.arms = args.arms.split(",")
    if args.background:
        settings.background = [int(n) for n in args.background.split(",")]
    out = args.out or runner.ROOT / "bench" / "results" / f"{time.strftime('%Y-%m-%d')}-{settings.suite}"
    artifact = runner.run(settings, out, progress=lambda line: print(line, flush=True))
    print(f"artifact: {out / 'results.json'} ({artifact['elapsed_seconds']} s)")
    if not args.no_render:
        page = render.render_all(runner.ROOT / "bench" / "results", runner.ROOT / "docs")
        print(f"rendered: {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
