"""Reading a server's CPU and memory from /proc: per thread, per process tree.

A process-wide CPU figure cannot say which thread is the bound (a saturated
loop beside an idle pool looks like two half-busy threads), so every sample
is kept per thread, keyed by (pid, tid).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

TICKS = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """All descendants of pid (uWSGI and gunicorn fork workers)."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            for tid in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{tid}/children") as f:
                    kids = [int(x) for x in f.read().split()]
                found += kids
                frontier += kids
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def tree(pid: int) -> list[int]:
    return [pid, *children(pid)]


def thread_ticks(pids: list[int]) -> dict[tuple[int, int], tuple[str, int]]:
    """(pid, tid) -> (thread name, utime+stime ticks) for every thread of every pid."""
    out = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    stat = f.read()
            except FileNotFoundError:
                continue
            name = stat[stat.index("(") + 1: stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            out[(pid, int(tid))] = (name, int(fields[11]) + int(fields[12]))
    return out


def rss_kib(pids: list[int]) -> tuple[int, int]:
    """(current RSS, peak RSS) in KiB, summed over pids."""
    now = peak = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        now += int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        peak += int(line.split()[1])
        except FileNotFoundError:
            pass
    return now, peak


@dataclass
class CpuSampler:
    """Samples every thread of a process tree while a load runs."""

    pid: int
    interval: float = 0.5
    samples: list[tuple[float, dict]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self.samples.append((time.monotonic(), thread_ticks(tree(self.pid))))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.samples.append((time.monotonic(), thread_ticks(tree(self.pid))))

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()
        self.samples.append((time.monotonic(), thread_ticks(tree(self.pid))))

    def threads(self) -> list[dict]:
        """Per thread: name, total CPU seconds over the window, median CPU fraction of the intervals."""
        (t0, first), (t1, last) = self.samples[0], self.samples[-1]
        result = []
        for key, (name, ticks) in last.items():
            start = first.get(key, (name, 0))[1]
            fractions = []
            for (ta, a), (tb, b) in zip(self.samples, self.samples[1:]):
                if key in b and tb > ta:
                    fractions.append((b[key][1] - a.get(key, (name, b[key][1]))[1]) / TICKS / (tb - ta))
            fractions.sort()
            median = fractions[len(fractions) // 2] if fractions else 0.0
            result.append({"pid": key[0], "tid": key[1], "name": name,
                           "cpu_seconds": (ticks - start) / TICKS, "cpu_fraction_median": round(median, 4),
                           "cpu_fraction_mean": round((ticks - start) / TICKS / max(t1 - t0, 1e-9), 4)})
        result.sort(key=lambda t: -t["cpu_seconds"])
        return result
