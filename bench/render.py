"""Renders benchmark artifacts into docs/BENCHMARKS.md and PNG plots.

Every number on the page comes from a results.json under bench/results/;
nothing is typed. The newest artifact of each suite is rendered.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KIND_ORDER = {"baton": 0, "peer": 1, "ceiling": 2}
# The distributions of the peers' venv named on the page (the artifact has them all).
PEER_PACKAGES_SHOWN = {"granian", "uvicorn", "uvloop", "httptools", "h11", "gunicorn", "hypercorn", "daphne",
                       "twisted", "socketify", "pyuwsgi", "waitress", "websockets", "wsproto", "django", "flask",
                       "starlette", "fastapi"}


def load_latest(results_dir: Path, include_dry: bool = False) -> list[tuple[Path, dict]]:
    latest: dict[str, tuple[Path, dict]] = {}
    for path in sorted(results_dir.glob("*/results.json")):
        artifact = json.loads(path.read_text())
        # Not a suite's artifact (the fleet's results are a list of its runs).
        if not isinstance(artifact, dict) or "suite" not in artifact:
            continue
        if artifact.get("suite") == "dry" and not include_dry:
            continue
        previous = latest.get(artifact["suite"])
        if previous is None or artifact["started"] >= previous[1]["started"]:
            latest[artifact["suite"]] = (path, artifact)
    return sorted(latest.values(), key=lambda pa: pa[1]["suite"] != "default")


def fmt_rps(v: float) -> str:
    return f"{v / 1000:.1f}k"


def load_rows(artifact: dict) -> list[dict]:
    """The summary rows measured under load (idle-memory rows have no rps)."""
    return [r for r in artifact["summary"] if "rps_median" in r]


def config_of(row: dict) -> tuple[str, int, int]:
    """A table's key: workload, connections and the slow requests kept in flight beside them."""
    return row["workload"], row["connections"], row.get("background") or 0


def config_title(workload: str, connections: int, background: int) -> str:
    extra = f", {background} slow request(s) in flight" if background else ""
    return f"{workload}, {connections} connections{extra}"


def ratios(artifact: dict) -> list[tuple[str, str, str, int, float]]:
    """(baton arm, peer arm, configuration, connections, rps ratio) from one run."""
    kinds = {name: info["kind"] for name, info in artifact["arms"].items()}
    rows = {(config_of(r), r["arm"]): r for r in load_rows(artifact)}
    out = []
    for (config, arm), row in rows.items():
        if kinds.get(arm) != "baton":
            continue
        for (config2, peer), prow in rows.items():
            if config2 == config and kinds.get(peer) == "peer" and prow["rps_median"]:
                workload = config[0] + (f" (+{config[2]} slow)" if config[2] else "")
                out.append((arm, peer, workload, config[1], row["rps_median"] / prow["rps_median"]))
    return sorted(out)


def label(artifact: dict, arm: str) -> str:
    """The arm's name with the version of what it runs (artifacts before labels: the name)."""
    return artifact.get("arms", {}).get(arm, {}).get("label", arm)


def declined(row: dict) -> str:
    """A WebSocket row that offered permessage-deflate: the mark of an arm that
    declined it (it was sent the messages plain and compressed nothing)."""
    return " (declined deflate: plain messages)" if row.get("deflate_agreed") is False else ""


def is_granian(arm: str) -> bool:
    return arm.startswith("granian")


def latency(row: dict, key: str, pipelined: bool) -> str:
    # wrk times only the first request of each pipelined batch: no figure is honest there.
    return "–" if pipelined else f"{row[key]:.0f}"


def table(artifact: dict, config: tuple[str, int, int]) -> list[str]:
    kinds = {name: info["kind"] for name, info in artifact["arms"].items()}
    rows = [r for r in load_rows(artifact) if config_of(r) == config]
    rows.sort(key=lambda r: (KIND_ORDER.get(kinds.get(r["arm"]), 3), -r["rps_median"]))
    peers = [r["rps_median"] for r in rows if kinds.get(r["arm"]) == "peer"]
    fastest_peer = max(peers) if peers else None
    granians = [r["rps_median"] for r in rows if is_granian(r["arm"])]
    fastest_granian = max(granians) if granians else None
    floor = next((r for r in rows if r["arm"] == "floor-c"), None)
    lines = [
        "| arm | rps median (min–max) | vs fastest peer | vs Granian | p50 µs | p90 µs | p99 µs | max µs "
        "| CPU µs/req | vs floor CPU | busiest thread | client CPU | peak RSS MiB | RSS growth KiB | socket errors "
        "| non-2xx |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    pipelined = artifact["settings"].get("pipeline", 0) > 0
    for r in rows:
        vs_peer = f"{r['rps_median'] / fastest_peer:.2f}x" if fastest_peer else "–"
        vs_granian = f"{r['rps_median'] / fastest_granian:.2f}x" if fastest_granian else "–"
        vs_floor = (f"{r['cpu_us_per_request'] / floor['cpu_us_per_request']:.2f}x"
                    if floor and floor["cpu_us_per_request"] else "–")
        bound = r["bound_thread"] or {}
        busiest = f"{bound.get('name', '–')} {bound.get('cpu_fraction', 0):.0%}"
        client = f"{r['client_cpu_fraction']:.0%}" + (" (bound)" if r["client_bound"] else "")
        lines.append(
            f"| {label(artifact, r['arm'])}{declined(r)} | {fmt_rps(r['rps_median'])} ({fmt_rps(r['rps_min'])}–"
            f"{fmt_rps(r['rps_max'])}) | {vs_peer} | {vs_granian} | {latency(r, 'p50_us', pipelined)} "
            f"| {latency(r, 'p90_us', pipelined)} "
            f"| {latency(r, 'p99_us', pipelined)} | {latency(r, 'max_us', pipelined)} "
            f"| {r['cpu_us_per_request']:.2f} | {vs_floor} | {busiest} | {client} | {r['rss_peak_kib'] / 1024:.1f} "
            f"| {r['rss_growth_kib']:.0f} | {r['socket_errors']} | {r['non_2xx']} |")
    return lines


def thread_table(artifact: dict, config: tuple[str, int, int]) -> list[str]:
    lines = ["| arm | thread | CPU (median of samples) | µs CPU per request |", "|---|---|---:|---:|"]
    for r in load_rows(artifact):
        if config_of(r) != config:
            continue
        for t in r["threads"]:
            if t["cpu_seconds"] <= 0:
                continue
            # A run that completed no request has no cost a request.
            cost = "–" if t["us_per_request"] is None else f"{t['us_per_request']:.2f}"
            lines.append(f"| {label(artifact, r['arm'])} | {t['name']} (pid {t['pid']}, tid {t['tid']}) "
                         f"| {t['cpu_fraction_median']:.0%} | {cost} |")
    return lines


def idle_table(artifact: dict) -> list[str]:
    rows = [r for r in artifact["summary"] if "idle_memory" in r]
    if not rows:
        return []
    lines = ["### Idle keep-alive connections: memory per connection", "",
             "| arm | connections | RSS before KiB | RSS after KiB | bytes per connection |", "|---|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: r["idle_memory"]["bytes_per_connection"]):
        m = r["idle_memory"]
        lines.append(f"| {label(artifact, r['arm'])} | {r['connections']} | {m['rss_before_kib']} | {m['rss_after_kib']} "
                     f"| {m['bytes_per_connection']} |")
    return lines + [""]


def instructions_table(artifact: dict) -> list[str]:
    rows = [r for r in artifact["summary"] if "instructions" in r]
    if not rows:
        return []
    depths = sorted({d for r in rows for d in r["instructions"]["per_request"]}, key=int)
    runs = rows[0]["instructions"]["requests"]
    lines = ["### User-space instructions per request (callgrind)", "",
             f"Each arm served {runs[0]} and then {runs[1]} requests under callgrind; the difference of the two "
             f"counts over the difference of the requests leaves start-up and shutdown out. The kernel's share "
             f"(the socket calls) is not counted.", "",
             "| arm | connections | " + " | ".join("one at a time" if d == "1" else f"pipelined {d} deep"
                                                  for d in depths) + " |",
             "|---|---:|" + "---:|" * len(depths)]
    for r in rows:
        counts = r["instructions"]["per_request"]
        lines.append(f"| {label(artifact, r['arm'])} | {r['connections']} | "
                     + " | ".join(f"{counts.get(d, '–')}" for d in depths)
                     + " |")
    # Each baseline arm (baton-baseline-X) against the same shape of this build
    # (baton-X), at the same connections.
    bases = {(r["arm"].replace("baton-baseline-", "baton-", 1), r["connections"]): r
             for r in rows if r["arm"].startswith("baton-baseline")}
    if bases:
        lines += ["", "| arm | connections | change from the baseline build |", "|---|---:|---|"]
        for r in rows:
            base = bases.get((r["arm"], r["connections"]))
            if base is None:
                continue
            changes = []
            for d in depths:
                before, after = base["instructions"]["per_request"].get(d), r["instructions"]["per_request"].get(d)
                if before and after:
                    depth = "one at a time" if d == "1" else f"pipelined {d} deep"
                    changes.append(f"{depth} {100 * (after - before) / before:+.1f} %")
            lines.append(f"| {r['arm']} | {r['connections']} | {', '.join(changes)} |")
    return lines + [""]


def plots(artifact: dict, docs: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    images = []
    suite = artifact["suite"]
    kinds = {name: info["kind"] for name, info in artifact["arms"].items()}
    arm_names = sorted(artifact["arms"], key=lambda a: (KIND_ORDER.get(kinds[a], 3), a))
    colours = {arm: plt.cm.tab20(i % 20) for i, arm in enumerate(arm_names)}
    styles = {"baton": ("-", 2.5, "o"), "peer": ("--", 1.2, "s"), "ceiling": (":", 1.5, "^")}
    # One point per arm and concurrency: rows with slow requests beside them stay in the tables.
    measured = [r for r in load_rows(artifact) if not r.get("background")]
    for workload in sorted({r["workload"] for r in measured}):
        rows = [r for r in measured if r["workload"] == workload]
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for arm in [a for a in arm_names if any(r["arm"] == a for r in rows)]:
            points = sorted((r["connections"], r["rps_median"]) for r in rows if r["arm"] == arm)
            line, width, marker = styles.get(kinds.get(arm), ("-", 1, "o"))
            ax.plot([p[0] for p in points], [p[1] / 1000 for p in points], linestyle=line, linewidth=width,
                    marker=marker, color=colours[arm], label=arm)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("connections")
        ax.set_ylabel("k requests / s (median)")
        ax.set_title(f"{workload}: rps by concurrency ({suite})")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        name = f"bench/{suite}-{workload}-rps.png"
        fig.tight_layout()
        fig.savefig(docs / name, dpi=100)
        plt.close(fig)
        images.append(name)

        top = max(r["connections"] for r in rows)
        at_top = sorted((r for r in rows if r["connections"] == top), key=lambda r: r["arm"])
        fig, ax = plt.subplots(figsize=(7, 4))
        labels = [r["arm"] for r in at_top]
        bottoms = [0.0] * len(at_top)
        depth = max(len(r["threads"]) for r in at_top)
        for level in range(depth):
            values = []
            for r in at_top:
                t = r["threads"][level] if level < len(r["threads"]) else None
                values.append(t["us_per_request"] if t and t["us_per_request"] else 0.0)
            ax.bar(labels, values, bottom=bottoms, label=f"thread #{level + 1} by CPU")
            bottoms = [b + v for b, v in zip(bottoms, values)]
        ax.set_ylabel("µs CPU per request")
        ax.set_title(f"{workload}: CPU per request by thread, c{top} ({suite})")
        ax.tick_params(axis="x", rotation=20, labelsize=8)
        ax.legend(fontsize=8)
        name = f"bench/{suite}-{workload}-cpu-threads.png"
        fig.tight_layout()
        fig.savefig(docs / name, dpi=100)
        plt.close(fig)
        images.append(name)
    return images


# The load generators other than wrk, as the rows that use them name them.
CLIENTS = {
    "bulk": "`bench/bulk.c` (one thread, 256 KiB reads: wrk reads 8 KiB at a time, and on large bodies it, "
            "not the server, was the bound)",
    "wsload": "`bench/wsload.c` (WebSocket connections, one thread)",
    "h2load": "h2load (nghttp2's; for HTTP/3 rows, the one `tools/h2load_h3.py` builds)",
}


def render_artifact(path: Path, artifact: dict, docs: Path, root: Path) -> list[str]:
    from bench.harness.runner import summarize

    artifact["summary"] = summarize(artifact["runs"])  # always from the raw runs
    m = artifact["machine"]
    s = artifact["settings"]
    out = [f"## Suite `{artifact['suite']}` — {artifact['started']}", "",
           f"Artifact: [`{path.relative_to(root)}`](../{path.relative_to(root)}). "
           f"Machine: {m['cpu_model']}, {m['cores']} cores, Linux {m['kernel']}, Python {m['python']}, "
           f"wrk {m['wrk']}" + (f"; packages: {', '.join(f'{k} {v}' for k, v in m['packages'].items())}"
                                 if m.get("packages") else "") + f". Server pinned to CPU {s['server_cpus']}, wrk ({s['threads']} thread) to CPU "
           f"{s['client_cpus']}; keep-alive; {s['rounds']} rounds of {s['duration']} s after {s['warmup']} s "
           f"warm-up, arms alternated (A B … then … B A) within each configuration. Medians, with min–max."
           + (f" wrk sends {s['pipeline']} requests per write (pipelining), so latency is not reported."
              if s.get("pipeline") else "")
           + "".join(f" The `{name}` rows are loaded by {CLIENTS.get(client, f'`{client}`')} instead of wrk."
                     for name, client in artifact.get("clients", {}).items()), ""]
    out += ["Arms:", ""]
    for name, info in artifact["arms"].items():
        out.append(f"- `{name}` ({info['kind']}): {info['describe']} — {info['version']}")
    if artifact.get("peer_packages"):
        shown = ", ".join(f"{k} {v}" for k, v in sorted(artifact["peer_packages"].items())
                          if k in PEER_PACKAGES_SHOWN)
        out.append(f"- the peers' venv ({len(artifact['peer_packages'])} distributions, all in the artifact): {shown}")
    skipped = artifact.get("skipped_arms") or {}
    if isinstance(skipped, list):  # artifacts before the reasons were kept
        skipped = {name: "not installed" for name in skipped}
    for name, why in skipped.items():
        out.append(f"- `{name}` did not run: {why}")
    failures = [r for r in artifact["runs"] if "error" in r]
    for f in failures:
        out.append(f"- **failed run**: {f['arm']} {f['workload']} c{f['connections']}: {f['error']}")
    out += ["", "Socket errors are wrk's count of connections that failed or closed under it; a server that "
            "closes after every response (uWSGI's `--http-socket`) may show them while "
            "every answer it gave was a 200. Non-2xx counts wrong answers.", ""]
    configs = sorted({config_of(r) for r in load_rows(artifact)})
    for config in configs:
        out += [f"### {config_title(*config)}", ""] + table(artifact, config) + [""]
    out += idle_table(artifact)
    out += instructions_table(artifact)
    measured_ratios = ratios(artifact)
    if measured_ratios:
        out += ["### Ratios measured in this run (baton arm ÷ peer, rps medians)", "",
                "| baton arm | peer | workload | connections | ratio |", "|---|---|---|---:|---:|"]
        for arm, peer, workload, connections, ratio in measured_ratios:
            out.append(f"| {arm} | {label(artifact, peer)} | {workload} | {connections} | {ratio:.2f}x |")
        out.append("")
    for config in configs:
        out += [f"### Per-thread CPU: {config_title(*config)}", "",
                "The busiest threads of each arm (from `/proc/PID/task/TID/stat`, sampled every 0.5 s). "
                "A thread near 100 % is the bound; a client near 100 % means wrk, not the server, set the rate.",
                ""] + thread_table(artifact, config) + [""]
    syscall_rows = [r for r in artifact["summary"] if r.get("syscalls_per_request")]
    if syscall_rows:
        out += ["### Syscalls per request (`strace -c -f`, a separate 2 s run per arm; its rate is not reported)",
                "", "| arm | workload | connections | total | top calls |", "|---|---|---:|---:|---|"]
        for r in syscall_rows:
            sc = r["syscalls_per_request"]
            top = ", ".join(f"{name} {n}" for name, n in list(sc["per_request"].items())[:6])
            out.append(f"| {r['arm']} | {r['workload']} | {r['connections']} | {sc['total_per_request']} | {top} |")
        out.append("")
    for image in plots(artifact, docs):
        out += [f"![{image}]({image})", ""]
    return out


# The README's headline rows: (title, suite, workload, connections, slow
# requests in flight, metric). "rps" and "msgs" (WebSocket round trips or
# deliveries a second): higher is better; "p99" and "memory": lower is better.
HEADLINE = [
    ("WSGI hello, 1 core", "pool", "hello", 64, 0, "rps"),
    ("Flask JSON, 1 core", "pool", "flask-json", 64, 0, "rps"),
    ("Django, 1 core", "pool", "django", 64, 0, "rps"),
    ("WSGI hello, 2 cores", "pool-2cores", "hello", 64, 0, "rps"),
    ("Flask JSON, 2 cores", "pool-2cores", "flask-json", 64, 0, "rps"),
    ("Django, 2 cores", "pool-2cores", "django", 64, 0, "rps"),
    ("ASGI hello, 1 core", "asgi", "hello", 64, 0, "rps"),
    ("Starlette JSON, 1 core", "asgi", "starlette-json", 64, 0, "rps"),
    ("FastAPI JSON, 1 core", "asgi", "fastapi-json", 64, 0, "rps"),
    ("ASGI hello, 2 cores", "asgi-2cores", "hello", 64, 0, "rps"),
    ("Starlette JSON, 2 cores", "asgi-2cores", "starlette-json", 64, 0, "rps"),
    ("FastAPI JSON, 2 cores", "asgi-2cores", "fastapi-json", 64, 0, "rps"),
    ("hello, 2 workers on 2 cores", "workers", "hello", 64, 0, "rps"),
    ("Django, 2 workers on 2 cores", "workers", "django", 64, 0, "rps"),
    ("64 KiB static file", "static", "static-64k", 64, 0, "rps"),
    ("1 MiB POST echo (WSGI)", "post-echo", "post-1m", 16, 0, "rps"),
    ("1 MiB POST echo (ASGI)", "asgi-echo", "post-1m", 16, 0, "rps"),
    ("Django fast view, a 200 ms view in flight", "django-mixed", "django-mixed", 16, 1, "rps"),
    ("p99 of a 0.3 ms GIL-bound view, 4 threads", "pool-fairness", "busy", 16, 0, "p99"),
    ("memory per idle keep-alive connection", "idle-memory", "hello", 5000, 0, "memory"),
    ("WebSocket echo 32 B, 64 conns, 1 core", "ws-echo", "ws-echo-32", 64, 0, "msgs"),
    ("WebSocket echo 512 B, 512 conns, 1 core", "ws-echo", "ws-echo-512", 512, 0, "msgs"),
    ("WebSocket echo 16 KiB, 64 conns, 1 core", "ws-echo", "ws-echo-16k", 64, 0, "msgs"),
    ("WebSocket echo 16 KiB deflate, 64 conns, 1 core", "ws-echo", "ws-echo-16k-deflate", 64, 0, "msgs"),
    ("WebSocket echo 512 B, 512 conns, 2 cores", "ws-echo-2cores", "ws-echo-512", 512, 0, "msgs"),
    ("WebSocket broadcast to 1 000 (Starlette)", "ws-broadcast", "ws-broadcast", 1000, 0, "msgs"),
    ("memory per open idle WebSocket", "ws-idle-memory", "ws-echo-32", 2000, 0, "memory"),
    ("HTTPS/1.1 hello, 16 conns, 1 core", "tls-h2", "hello-https", 16, 0, "rps"),
    ("TLS handshakes a second (one request each), 1 core", "tls-h2", "handshake-https", 16, 0, "rps"),
    ("h2 hello, 16 conns x 1 stream, 1 core", "tls-h2", "hello-h2-m1", 16, 0, "rps"),
    ("h2 hello, 4 conns x 10 streams, 1 core", "tls-h2", "hello-h2-m10", 4, 0, "rps"),
    ("h2 hello, 4 conns x 100 streams, 1 core", "tls-h2", "hello-h2-m100", 4, 0, "rps"),
    ("h2c hello, 4 conns x 10 streams, 1 core", "tls-h2", "hello-h2c-m10", 4, 0, "rps"),
    ("64 KiB static file over h2, 1 core", "tls-h2", "static-64k-h2", 4, 0, "rps"),
    ("Flask JSON over h2, 1 core", "tls-h2", "flask-json-h2", 4, 0, "rps"),
    ("Starlette JSON over h2, 1 core", "tls-h2", "starlette-json-h2", 4, 0, "rps"),
    ("HTTPS/1.1 hello, 16 conns, 2 cores", "tls-h2-2cores", "hello-https", 16, 0, "rps"),
    ("TLS handshakes a second, 2 cores", "tls-h2-2cores", "handshake-https", 16, 0, "rps"),
    ("h2 hello, 4 conns x 10 streams, 2 cores", "tls-h2-2cores", "hello-h2-m10", 4, 0, "rps"),
    ("h2 hello, 4 conns x 100 streams, 2 cores", "tls-h2-2cores", "hello-h2-m100", 4, 0, "rps"),
    ("64 KiB static file over h2, 2 cores", "tls-h2-2cores", "static-64k-h2", 4, 0, "rps"),
    ("Flask JSON over h2, 2 cores", "tls-h2-2cores", "flask-json-h2", 4, 0, "rps"),
    ("Starlette JSON over h2, 2 cores", "tls-h2-2cores", "starlette-json-h2", 4, 0, "rps"),
]

# Arms that are A/B switches or before/after builds, not a shape a user picks.
NOT_A_SHAPE = ("noturn", "attached", "fallback", "baseline", "cold", "accesslog")


def headline_rows(results_dir: Path) -> list[str]:
    """The README's compact table: per headline row, baton's best shape, Granian's best, the best other peer,
    and baton's lead over each (higher is better: rps ratios; p99 and memory as the peer's over baton's)."""
    latest = {a["suite"]: (path, a) for path, a in load_latest(results_dir)}
    lines = ["| row | baton (best shape) | Granian | best other peer | vs Granian | vs other |",
             "|---|---|---|---|---:|---:|"]
    for title, suite, workload, connections, background, metric in HEADLINE:
        if suite not in latest:
            continue
        _, artifact = latest[suite]
        from bench.harness.runner import summarize

        kinds = {name: info["kind"] for name, info in artifact["arms"].items()}
        rows = [r for r in summarize(artifact["runs"]) if r["workload"] == workload
                and r["connections"] == connections and (r.get("background") or 0) == background]
        if metric == "memory":
            value = {r["arm"]: r["idle_memory"]["bytes_per_connection"] for r in rows if "idle_memory" in r}
        else:
            key = "rps_median" if metric in ("rps", "msgs") else "p99_us"
            value = {r["arm"]: r[key] for r in rows if key in r}
        higher_better = metric in ("rps", "msgs")
        by_arm = {r["arm"]: r for r in rows}
        pick = max if higher_better else min

        def best(names):
            names = [n for n in names if n in value]
            return pick(names, key=lambda n: value[n]) if names else None

        baton = best(n for n in value if kinds.get(n) == "baton" and not any(x in n for x in NOT_A_SHAPE))
        granian = best(n for n in value if is_granian(n))
        other = best(n for n in value if kinds.get(n) in ("peer", "ceiling") and not is_granian(n)
                     and "cold" not in n and n != "floor-c")
        if baton is None:
            continue

        def show(n):
            if n is None:
                return "–"
            v = value[n]
            figure = (fmt_rps(v) + " rps" if metric == "rps" else fmt_rps(v) + " msg/s" if metric == "msgs"
                      else f"{v / 1000:.1f} ms" if metric == "p99" else f"{v} B")
            return f"{label(artifact, n)}{declined(by_arm[n])}: {figure}"

        def lead(n):
            if n is None or not value[n] or not value[baton]:
                return "–"
            return f"{(value[baton] / value[n]) if higher_better else (value[n] / value[baton]):.2f}x"

        lines.append(f"| {title} | {show(baton)} | {show(granian)} | {show(other)} | {lead(granian)} "
                     f"| {lead(other)} |")
    return lines


README_START, README_END = "<!-- headline table: bench/render.py writes it -->", "<!-- end of headline table -->"


def write_headline(readme: Path, results_dir: Path) -> None:
    """Puts the headline table between the README's markers (nothing is typed by hand)."""
    if not readme.exists():
        return
    text = readme.read_text()
    if README_START not in text or README_END not in text:
        return
    before, rest = text.split(README_START, 1)
    _, after = rest.split(README_END, 1)
    table = "\n".join(headline_rows(results_dir))
    readme.write_text(f"{before}{README_START}\n{table}\n{README_END}{after}")


def render_all(results_dir: Path, docs: Path, include_dry: bool = False) -> Path:
    root = results_dir.parents[1]
    (docs / "bench").mkdir(parents=True, exist_ok=True)
    lines = ["# Benchmarks", "",
             "Generated by `bench/render.py` from the artifacts in `bench/results/`; do not edit by hand. "
             "Run `make bench` (or `make bench SUITE=quick`) to measure again. Absolute figures drift between "
             "runs and machines; the ratios measured within one run are the signal.", ""]
    for path, artifact in load_latest(results_dir, include_dry):
        lines += render_artifact(path, artifact, docs, root)
    page = docs / "BENCHMARKS.md"
    page.write_text("\n".join(lines) + "\n")
    if not include_dry:
        write_headline(results_dir.parents[1] / "README.md", results_dir)
    return page


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[1]
    print(render_all(here / "bench" / "results", here / "docs"))
