"""A fleet as operators run one: hosts of `baton -w 2` behind Debian's
HAProxy, which checks each host's health path, and a real Prometheus
scraping every host's metrics; load comes from a client machine of its own.
Each machine is a network namespace (tests/fleet/netns.py).

Used by tests/fleet/ and by the fleet benchmark in bench/. What each knob
of the HAProxy file is for is said in deploy/haproxy.cfg, the recipe this
harness proves (it writes the same file with the test's addresses).
"""

from __future__ import annotations

import json
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from tests.fleet.netns import Network, Node
from tests.integration.server import ROOT, Server

RECIPE = ROOT / "deploy" / "haproxy.cfg"
RULES = ROOT / "deploy" / "prometheus-rules.yml"
APP = "tests.fleet.app:app"
HTTP_PORT, METRICS_PORT, FRONT_PORT, PROMETHEUS_PORT = 8000, 9100, 8080, 9090


class Host:
    """One machine of the fleet: its baton, restartable, with its code's version in a file."""

    def __init__(self, node: Node, name: str, workdir: Path, baton_args: tuple[str, ...]):
        self.node = node
        self.name = name
        self.version_file = workdir / f"{name}.version"
        self.version_file.write_text("v1\n")
        self.baton_args = baton_args
        self.server: Server | None = None
        self.logs: list[str] = []  # the output of every baton this host ran, in order

    def args(self) -> list[str]:
        a = self.node.address
        return ["-w", "2", "--bind", f"{a}:{HTTP_PORT}", "--metrics-bind", f"{a}:{METRICS_PORT}",
                "--health-path", "/healthz", *self.baton_args, APP]

    def start(self) -> None:
        self.server = Server(self.args(), netns=self.node.namespace,
                             env={"FLEET_HOST": self.name, "FLEET_VERSION_FILE": str(self.version_file)})
        self.server.start(timeout=30)

    def deploy(self, version: str) -> None:
        """New code, and a reload (HUP) that starts new workers on it, then drains the old."""
        self.version_file.write_text(version + "\n")
        mark = self.server.log_mark()
        self.server.signal(signal.SIGHUP)
        if not self.server.wait_for_log("reload: new workers serving", timeout=30, since=mark):
            raise AssertionError(f"{self.name}: the reload did not finish:\n{self.server.log_since(mark)}")

    def stop(self) -> None:
        """TERM, as a deploy or a shutdown sends it: the drain, then exit."""
        if self.server is not None:
            self.server.stop()
            self.logs.append(self.server.log)
            self.server = None

    def kill(self) -> None:
        """The host dies: every process of its baton at once, no drain."""
        import os
        os.killpg(self.server.proc.pid, signal.SIGKILL)
        self.server.proc.wait(10)
        self.stop()

    @property
    def log(self) -> str:
        return "".join(self.logs) + (self.server.log if self.server else "")


class GranianHost(Host):
    """A host running Granian (the benchmark's peer) in place of baton: two workers, its own
    reload (SIGHUP respawns the workers on new code), the app's own health path."""

    granian = ROOT / "bench" / ".venv-peers" / "bin" / "granian"

    def start(self) -> None:
        a = self.node.address
        env = {"FLEET_HOST": self.name, "FLEET_VERSION_FILE": str(self.version_file)}
        self.server = Server(["--interface", "wsgi", "--workers", "2", "--host", a, "--port", str(HTTP_PORT),
                              "--workers-kill-timeout", "5", APP], netns=self.node.namespace, env=env,
                             python=str(self.granian), program=())
        self.server.start(timeout=30, ready=lambda: self.node.run(
            "curl", "-s", "-o", "/dev/null", "-m", "1", f"http://{a}:{HTTP_PORT}/healthz").returncode == 0)

    def deploy(self, version: str) -> None:
        self.version_file.write_text(version + "\n")
        mark = self.server.log_mark()
        self.server.signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        # Granian respawns its workers one at a time: done when both old ones stopped.
        while self.server.log_since(mark).count("Stopped old worker") < 2:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: Granian did not reload:\n{self.server.log}")
            time.sleep(0.05)


class HAProxy:
    """Debian's HAProxy on the balancer machine, from deploy/haproxy.cfg with the fleet's addresses."""

    def __init__(self, node: Node, hosts: list[Host], workdir: Path, server_options: str = ""):
        self.node = node
        self.stats = workdir / "haproxy.sock"
        lines = []
        for line in RECIPE.read_text().split("\n"):
            if line.strip().startswith("server "):
                continue  # the recipe's example servers: the fleet's own follow
            lines.append(line)
        text = "\n".join(lines).replace("/run/haproxy/admin.sock", str(self.stats))
        text = text.replace("bind :80", f"bind {node.address}:{FRONT_PORT}")
        text = re.sub(r"^(\s*default-server .*)$", lambda m: m.group(1) + " " + server_options, text,
                      count=1, flags=re.M) if server_options else text
        servers = "".join(f"    server {h.name} {h.node.address}:{HTTP_PORT}\n" for h in hosts)
        text = text.rstrip("\n") + "\n" + servers
        self.config = workdir / "haproxy.cfg"
        self.config.write_text(text)
        check = subprocess.run(["haproxy", "-c", "-f", str(self.config)], capture_output=True, text=True)
        if check.returncode != 0:
            raise AssertionError(f"haproxy -c: {check.stdout}{check.stderr}")
        self._log: list[str] = []
        self.proc = subprocess.Popen(node.command("haproxy", "-db", "-f", str(self.config)),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in iter(self.proc.stdout.readline, ""):
            self._log.append(line)

    @property
    def log(self) -> list[str]:
        return list(self._log)

    def command(self, text: str) -> str:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.stats))
            s.sendall(text.encode() + b"\n")
            out = b""
            while chunk := s.recv(65536):
                out += chunk
        return out.decode()

    def states(self) -> dict[str, str]:
        """Each server's state as the health checks see it: UP, DOWN, MAINT, ..."""
        try:
            rows = self.command("show stat").split("\n")
        except OSError:  # not listening yet
            return {}
        header = rows[0].lstrip("# ").split(",")
        status, name, proxy = header.index("status"), header.index("svname"), header.index("pxname")
        return {r.split(",")[name]: r.split(",")[status].split(" ")[0] for r in rows[1:]
                if r and r.split(",")[proxy] == "fleet" and r.split(",")[name] not in ("BACKEND", "FRONTEND")}

    def wait_state(self, host: str, state: str, timeout: float = 20) -> float:
        """Seconds until `host` is in `state`."""
        start = time.monotonic()
        while self.states().get(host) != state:
            if time.monotonic() - start > timeout:
                raise AssertionError(f"{host} not {state} after {timeout} s: {self.states()}")
            time.sleep(0.02)
        return time.monotonic() - start

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Prometheus:
    """Debian's prometheus on the balancer machine, scraping each host as a job of its own
    (the recording rules in deploy/prometheus-rules.yml sum by job: one ratio a host)."""

    def __init__(self, node: Node, hosts: list[Host], workdir: Path):
        self.node = node
        jobs = "".join(f"  - job_name: {h.name}\n    static_configs:\n"
                       f"      - targets: ['{h.node.address}:{METRICS_PORT}']\n" for h in hosts)
        config = workdir / "prometheus.yml"
        config.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                          f"rule_files:\n  - {RULES}\nscrape_configs:\n{jobs}")
        self.proc = subprocess.Popen(
            node.command("prometheus", f"--config.file={config}", f"--storage.tsdb.path={workdir / 'tsdb'}",
                         f"--web.listen-address={node.address}:{PROMETHEUS_PORT}", "--log.level=warn"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def query(self, expression: str) -> dict[str, float]:
        """{job: value} of an instant query (asked from inside its machine)."""
        from urllib.parse import urlencode
        url = f"http://{self.node.address}:{PROMETHEUS_PORT}/api/v1/query?" + urlencode({"query": expression})
        out = self.node.run("curl", "-s", "-m", "5", url).stdout
        try:
            result = json.loads(out)["data"]["result"]
        except (ValueError, KeyError):
            return {}
        return {r["metric"].get("job", ""): float(r["value"][1]) for r in result}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@dataclass
class LoadResult:
    requests: int
    non_2xx: int
    socket_errors: dict[str, int]
    seconds: float
    latency: dict[str, float]  # p50, p99 in ms (wrk's, closed loop)
    text: str

    @property
    def errors(self) -> int:
        return self.non_2xx + sum(self.socket_errors.values())


class Load:
    """wrk from the client machine, keep-alive connections to the balancer, in the background."""

    def __init__(self, node: Node, url: str, seconds: float, connections: int = 16, path: str = "/"):
        self.proc = subprocess.Popen(
            node.command("wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s",
                         url + path),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def result(self, timeout: float = 120) -> LoadResult:
        text, _ = self.proc.communicate(timeout=timeout)
        return parse_wrk(text)


def parse_wrk(text: str) -> LoadResult:
    m = re.search(r"(\d+) requests in ([\d.]+)(m?s)", text)
    if not m:
        raise AssertionError(f"wrk printed no total:\n{text}")
    seconds = float(m.group(2)) * (60 if m.group(3) == "m" else 1)
    errors = {}
    e = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if e:
        errors = dict(zip(("connect", "read", "write", "timeout"), map(int, e.groups())))
    non = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    latency = {}
    for q in ("50", "99"):
        lm = re.search(rf"^\s+{q}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        if lm:
            latency["p" + q] = float(lm.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[lm.group(2)]
    return LoadResult(int(m.group(1)), int(non.group(1)) if non else 0, errors, seconds, latency, text)


class Fleet:
    """Three hosts, a balancer with HAProxy and Prometheus, a client: each its own machine."""

    def __init__(self, workdir: Path, hosts: int = 3, baton_args: tuple[str, ...] = (),
                 server_options: str = "", per_host_args: dict[str, tuple[str, ...]] | None = None,
                 host_class: type[Host] = Host):
        self.network = Network()
        try:
            self.balancer = self.network.add("lb", 2)
            self.client = self.network.add("cl", 3)
            self.hosts = [host_class(self.network.add(f"h{i + 1}", 11 + i), f"h{i + 1}", workdir,
                               baton_args + (per_host_args or {}).get(f"h{i + 1}", ()))
                          for i in range(hosts)]
            for host in self.hosts:
                host.start()
            self.haproxy = HAProxy(self.balancer, self.hosts, workdir, server_options)
            self.prometheus = Prometheus(self.balancer, self.hosts, workdir)
            for host in self.hosts:
                self.haproxy.wait_state(host.name, "UP")
        except BaseException:
            self.close()
            raise

    @property
    def url(self) -> str:
        return f"http://{self.balancer.address}:{FRONT_PORT}"

    def get(self, path: str = "/") -> tuple[int, str]:
        r = self.client.run("curl", "-s", "-m", "10", "-w", "\n%{http_code}", self.url + path)
        body, _, code = r.stdout.rpartition("\n")
        return int(code or 0), body

    def roll(self, version: str) -> dict[str, float]:
        """The rolling deploy, each host in turn: new code by its server's reload,
        then a full restart (TERM, out of HAProxy's rotation, started again, back in).
        Returns the seconds each host took."""
        took = {}
        for host in self.hosts:
            started = time.monotonic()
            host.deploy(version)
            host.stop()
            self.haproxy.wait_state(host.name, "DOWN")
            host.start()
            self.haproxy.wait_state(host.name, "UP")
            took[host.name] = round(time.monotonic() - started, 1)
        return took

    def load(self, seconds: float, connections: int = 16, path: str = "/") -> Load:
        return Load(self.client, self.url, seconds, connections, path)

    def close(self) -> None:
        for part in ("prometheus", "haproxy"):
            if hasattr(self, part):
                getattr(self, part).stop()
        for host in getattr(self, "hosts", []):
            host.stop()
        self.network.close()


def describe(result: LoadResult) -> str:
    return (f"{result.requests} requests in {result.seconds:.1f} s, {result.non_2xx} non-2xx, "
            f"socket errors {result.socket_errors or 'none'}, p50 {result.latency.get('p50')} ms, "
            f"p99 {result.latency.get('p99')} ms")


def main() -> None:  # pragma: no cover - a by-hand look: python -m tests.fleet.fleet
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        fleet = Fleet(Path(d))
        try:
            print(fleet.get("/"), shlex.join(fleet.hosts[0].args()), file=sys.stderr)
        finally:
            fleet.close()


if __name__ == "__main__":  # pragma: no cover
    main()
