"""RSS of one baton build's WSGI hello (a pool of 4) before and after a load
of N requests over 16 kept-alive connections: wrk (HTTP/1.1) or h2load (h2c,
10 streams a connection). A fresh server for each load. The server on CPU 0,
the client on CPU 1. Prints one JSON line per run.

python rss.py VENV_BIN LABEL [--requests N] [--client wrk|h2load] [--repeat K]

--repeat K: the same load K times on the one server, RSS read after each.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))
from bench.harness import procs  # noqa: E402


def rss_kib(pid):
    return procs.rss_kib(procs.tree(pid))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, proc, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server not ready")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("venv_bin")
    ap.add_argument("label")
    ap.add_argument("--requests", type=int, default=600_000)
    ap.add_argument("--client", choices=["wrk", "h2load"], required=True)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    port = free_port()
    command = ["taskset", "-c", "0", str(Path(a.venv_bin) / "baton"), "apps.hello.app:application", "--port",
               str(port), "--log-level", "warning", "--backlog", "4096", "--blocking-threads", "4"]
    log = open(HERE / f"rss-{a.label}-{a.client}.log", "wb")
    proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_ready(port, proc)
        time.sleep(1)
        start, _ = rss_kib(proc.pid)
        if a.client == "wrk":
            load = ["taskset", "-c", "1", "wrk", "-t1", "-c16", "-d900s", "-s", str(HERE / "count.lua"),
                    f"http://127.0.0.1:{port}/"]
            env = dict(os.environ, BATON_REQUESTS=str(a.requests))
        else:
            load = ["taskset", "-c", "1", "h2load", "-n", str(a.requests), "-c", "16", "-m", "10",
                    f"http://127.0.0.1:{port}/"]
            env = dict(os.environ)
        after = []
        for _ in range(a.repeat):
            t0 = time.monotonic()
            out = subprocess.run(load, capture_output=True, text=True, env=env, timeout=1000)
            seconds = time.monotonic() - t0
            end, peak = rss_kib(proc.pid)
            after.append(end)
            if out.returncode != 0:
                sys.stderr.write(out.stdout + out.stderr)
        time.sleep(5)
        later, _ = rss_kib(proc.pid)
        if a.client == "wrk":
            summary = [l for l in out.stdout.splitlines() if l.startswith("BATON-COUNT")]
        else:
            summary = [l.strip() for l in out.stdout.splitlines() if l.startswith(("requests:", "status codes:"))]
        row = {"label": a.label, "client": a.client, "command": command[3:], "load": load[3:],
               "client_rc": out.returncode, "client_summary": summary, "seconds": round(seconds, 1),
               "processes": len(tree(proc.pid)), "rss_start_kib": start, "rss_end_kib": end,
               "rss_5s_kib": later, "peak_kib": peak, "growth_kib": later - start}
        if a.repeat > 1:
            row["rss_after_each_kib"] = after
        print(json.dumps(row), flush=True)
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


if __name__ == "__main__":
    main()
