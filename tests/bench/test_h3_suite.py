"""The h3 suite: declared with rows and arms that resolve, and its load
generator (the h2load tools/h2load_h3.py builds) carrying every request
over HTTP/3 to baton started as the suite starts it (h2load's own count of
2xx answers). The load tests skip where that h2load is not built (make
h2load-h3). No speed is asserted here."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import h2load_h3  # noqa: E402
from bench.harness import runner, suites  # noqa: E402
from bench.harness.apps import WORKLOADS  # noqa: E402
from bench.harness.arms import ARMS, unavailable  # noqa: E402

needs_h2load_h3 = pytest.mark.skipif(h2load_h3.ready() is not None, reason=str(h2load_h3.ready()))


def test_the_h3_suite_is_declared_with_rows_every_arm_of_which_serves():
    settings = suites.suite("h3")
    assert settings.suite == "h3" and settings.server_cpus == "0"
    wires = {WORKLOADS[name].wire for name in settings.workloads}
    assert wires == {"h3", "h2"}
    for streams in (1, 10, 100):
        assert f"hello-h3-m{streams}" in settings.workloads and f"hello-h2-m{streams}" in settings.workloads
    assert {"starlette-json-h3", "static-64k-h3"} <= set(settings.workloads)
    assert {"baton-inline", "baton-asgi-inverted-uvloop", "hypercorn-h3"} <= set(settings.arms)
    for name in settings.workloads:
        arms = settings.per_workload_arms[name]
        assert arms, name
        for arm in arms:
            assert arm in settings.arms and ARMS[arm].serves(WORKLOADS[name]), (name, arm)


def test_an_h3_row_starts_baton_and_hypercorn_with_quic_on_the_tcp_port():
    w = WORKLOADS["hello-h3-m10"]
    baton = [*ARMS["baton-inline"].command(4433, w), *ARMS["baton-inline"].wire_flags(w)]
    assert "--http3" in baton and "--ssl-certfile" in baton
    hypercorn = [*ARMS["hypercorn-h3"].command(4433, w), *ARMS["hypercorn-h3"].wire_flags(w)]
    assert hypercorn[hypercorn.index("--quic-bind") + 1] == "127.0.0.1:4433" and "--certfile" in hypercorn
    h2 = WORKLOADS["hello-h2-m10"]
    assert "--http3" not in ARMS["baton-inline"].wire_flags(h2)


@needs_h2load_h3
@pytest.mark.parametrize("arm, workload", [("baton-inline", "hello-h3-m10"),
                                           ("baton-asgi-inverted-uvloop", "hello-h3-m100"),
                                           ("hypercorn-h3", "hello-h3-m10")])
def test_h2load_h3_carries_every_request_over_http3(tmp_path, arm, workload):
    if unavailable(ARMS[arm]) is not None:
        pytest.skip(f"{arm}: {unavailable(ARMS[arm])}")
    w = WORKLOADS[workload]
    settings = runner.Settings("test", [arm], [workload], [2], server_cpus="0-1", client_cpus="0-1")
    server, port, _ = runner.start(ARMS[arm], w, settings, tmp_path / "server.log")
    try:
        out = subprocess.run([runner.h2load_binary(w), "--h3", "-n", "1000", "-c", "2", "-m", str(w.streams),
                              f"https://127.0.0.1:{port}{w.path}"], capture_output=True, text=True, timeout=60)
    finally:
        runner.stop(server)
    assert "1000 succeeded, 0 failed, 0 errored" in out.stdout, out.stdout + out.stderr
    assert "status codes: 1000 2xx" in out.stdout, out.stdout
    assert "Application protocol: h3" in out.stdout, out.stdout


@needs_h2load_h3
@pytest.mark.parametrize("workload", ["hello-h3-m10", "post-1m-h3"])
def test_an_h3_row_is_measured_through_the_harness(tmp_path, workload):
    # The upload row posts its body (h2load -d) on every request.
    settings = runner.Settings("test", ["baton-inline"], [workload], [2], duration=1, warmup=0,
                               server_cpus="0-1", client_cpus="0-1")
    result = runner.measure(ARMS["baton-inline"], WORKLOADS[workload], 2, settings, tmp_path / "server.log")
    assert result["requests"] > 0 and result["non_2xx"] == 0
    assert sum(result["errors"].values()) == 0, result["errors"]
    assert result["cpu"]["total_us_per_request"] > 0


def test_the_h3_upload_suite_posts_a_megabyte_over_http3_and_http2():
    settings = suites.suite("h3-upload")
    assert set(settings.workloads) == {"post-1m-h3", "post-1m-h2"}
    for name in settings.workloads:
        w = WORKLOADS[name]
        assert w.method == "POST" and w.request_body_size == 1024 * 1024 and w.client == "h2load"
        assert all(ARMS[arm].serves(w) for arm in settings.per_workload_arms[name])
