"""The monitoring files in deploy/ against the real things: the Kubernetes
Deployment's own command line serves (on loopback) the readiness path, the
scrape its annotations name and the series the autoscaler's rule reads;
the names that tie the Deployment, Service, ServiceMonitor, adapter rule and
HPA together agree; and deploy/prometheus-rules.yml, loaded into a real
Prometheus scraping baton with workers, records the four golden signals
from a known load (promtool checks the file first). No cluster runs here:
what Kubernetes itself would do with the files is not tested."""

import concurrent.futures
import subprocess
import time
import urllib.request

import yaml

from tests.integration.server import ROOT, Server
from tests.integration.test_metrics import WSGI, Prometheus, free_port, request, sample, serve, wait_until

KUBERNETES = ROOT / "deploy" / "kubernetes.yaml"
MONITORING = ROOT / "deploy" / "kubernetes-monitoring.yaml"
RULES = ROOT / "deploy" / "prometheus-rules.yml"


def documents(path) -> dict[str, dict]:
    return {d["kind"]: d for d in yaml.safe_load_all(path.read_text())}


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_deployments_command_serves_its_probe_and_its_annotated_scrape():
    deployment = documents(KUBERNETES)["Deployment"]["spec"]["template"]
    container = deployment["spec"]["containers"][0]
    command = container["command"]
    annotations = deployment["metadata"]["annotations"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    # The file's numbers agree with one another.
    assert option(command, "--bind") == f"0.0.0.0:{ports['http']}"
    assert option(command, "--metrics-bind") == f"0.0.0.0:{ports['metrics']}"
    assert annotations["prometheus.io/port"] == str(ports["metrics"])
    probe = container["readinessProbe"]["httpGet"]
    assert probe["path"] == option(command, "--health-path") and probe["port"] == "http"

    # The command itself, on loopback ports, with a test app for mysite.wsgi.
    http_port, metrics_port = free_port(), free_port()
    args = [{f"0.0.0.0:{ports['http']}": f"127.0.0.1:{http_port}",
             f"0.0.0.0:{ports['metrics']}": f"127.0.0.1:{metrics_port}",
             "mysite.wsgi": WSGI}.get(a, a) for a in command[1:]]
    server = Server(args).start()
    try:
        assert request(server, probe["path"])[0] == 200
        assert request(server, "/")[0] == 200
        url = f"http://127.0.0.1:{metrics_port}{annotations['prometheus.io/path']}"
        # The probe's answer counts as a request, as the app's does.
        assert wait_until(lambda: sample(fetch(url), 'baton_requests_total{protocol="http/1.1",class="2xx"}') == 2)
        # Two workers, as the command asks, each with its RSS.
        assert fetch(url).count("baton_worker_rss_bytes{") == int(option(command, "--workers"))
    finally:
        server.stop()


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def test_the_service_monitor_adapter_rule_and_hpa_name_the_same_things():
    service = documents(KUBERNETES)["Service"]
    monitoring = documents(MONITORING)
    monitor = monitoring["ServiceMonitor"]["spec"]
    assert monitor["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert monitor["endpoints"][0]["port"] in {p["name"] for p in service["spec"]["ports"]}
    rule = yaml.safe_load(monitoring["ConfigMap"]["data"]["config.yaml"])["rules"][0]
    assert rule["seriesQuery"].startswith("baton_requests_total{")
    hpa = monitoring["HorizontalPodAutoscaler"]["spec"]
    assert hpa["metrics"][0]["pods"]["metric"]["name"] == rule["name"]["as"]
    assert hpa["scaleTargetRef"]["name"] == documents(KUBERNETES)["Deployment"]["metadata"]["name"]


def test_promtool_accepts_the_rules():
    check = subprocess.run(["promtool", "check", "rules", str(RULES)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_real_prometheus_records_the_golden_signals_from_the_rules(tmp_path):
    server = serve("-w", "2", WSGI)
    prometheus = Prometheus(tmp_path, server.metrics_port, rule_files=(RULES,))
    try:
        # Every series scraped at zero before the load, so each rate over the
        # window covers all of it alike.
        assert wait_until(lambda: prometheus.query('up{job="baton"}') == 1, 30)
        time.sleep(1.5)
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda p: request(server, p)[0],
                                     ["/"] * 40 + ["/missing"] * 12 + ["/fail"] * 7 + ["/slow?s=0.3"]))
        assert sorted(set(statuses)) == [200, 404, 500]
        # Traffic and errors: the ratio of the two rates is the ratio of
        # the counts (7 of 60), whatever the window's extrapolation.
        assert wait_until(lambda: (prometheus.query("baton:requests:rate1m") or 0) > 0, 30)
        assert wait_until(lambda: close(prometheus.query("baton:errors:ratio_rate1m"), 7 / 60), 30), \
            prometheus.query("baton:errors:ratio_rate1m")
        # Latency: one request of sixty took 0.3 s, so the 99th percentile
        # lies in the bucket that holds it (0.25 s to 0.5 s).
        assert wait_until(lambda: 0.25 <= (prometheus.query("baton:request_duration_seconds:p99_1m") or 0) <= 0.5,
                          30), prometheus.query("baton:request_duration_seconds:p99_1m")
        # Saturation: nothing inside the app now, nothing refused.
        assert prometheus.query("baton:requests_in_flight:sum") == 0
        assert prometheus.query("baton:overloaded:rate1m") == 0
    finally:
        prometheus.stop()
        server.stop()


def close(value: float | None, expected: float) -> bool:
    return value is not None and abs(value - expected) < 0.005
