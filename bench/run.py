"""make bench [SUITE=name]: run a suite, write its artifact, render the page.

Usage: python bench/run.py --suite default [--out DIR] [--no-render]
"""

from __future__ import annotations

import argparse
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
    args = parser.parse_args(argv)
    settings = suites.suite(args.suite)
    if args.rounds:
        settings.rounds = args.rounds
    if args.duration:
        settings.duration = args.duration
    out = args.out or runner.ROOT / "bench" / "results" / f"{time.strftime('%Y-%m-%d')}-{settings.suite}"
    artifact = runner.run(settings, out, progress=lambda line: print(line, flush=True))
    print(f"artifact: {out / 'results.json'} ({artifact['elapsed_seconds']} s)")
    if not args.no_render:
        page = render.render_all(runner.ROOT / "bench" / "results", runner.ROOT / "docs")
        print(f"rendered: {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
