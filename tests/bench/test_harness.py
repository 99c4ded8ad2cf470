"""The benchmark harness does not rot: its dry suite runs two tiny arms for
real (wrk against baton's native hello and the C floor) and the renderer
turns the artifact into a page and plots. No speed is asserted here."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_dry_suite_writes_an_artifact_the_renderer_can_render(tmp_path):
    results = tmp_path / "bench" / "results" / "dry"
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--suite", "dry", "--out", str(results),
                          "--no-render"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "[1/2]" in out.stdout and "left)" in out.stdout  # progress lines
    artifact = json.loads((results / "results.json").read_text())

    assert artifact["schema"] == 1 and artifact["suite"] == "dry"
    assert {"cpu_model", "cores", "kernel", "python", "wrk"} <= set(artifact["machine"])
    assert set(artifact["arms"]) == {"baton-native", "floor-c"}
    assert all(info["version"] for info in artifact["arms"].values())
    assert len(artifact["runs"]) == 2
    for run in artifact["runs"]:
        assert "error" not in run, run
        assert run["requests"] > 0 and run["rps"] > 0
        assert run["command"] and run["non_2xx"] == 0
        assert {"p50", "p90", "p99", "max"} <= set(run["latency_us"])
        assert run["cpu"]["total_us_per_request"] > 0
        assert run["cpu"]["threads"] and run["cpu"]["threads"][0]["cpu_seconds"] > 0
        assert 0 < run["client"]["cpu_fraction"] <= 1.5
        assert run["rss_kib"]["peak"] > 0
    assert {row["arm"] for row in artifact["summary"]} == {"baton-native", "floor-c"}

    sys.path.insert(0, str(ROOT))
    from bench import render

    page = render.render_all(tmp_path / "bench" / "results", tmp_path / "docs", include_dry=True)
    text = page.read_text()
    assert "## Suite `dry`" in text
    assert "| baton-native |" in text and "| floor-c |" in text
    assert "Per-thread CPU" in text
    for image in ("bench/dry-hello-rps.png", "bench/dry-hello-cpu-threads.png"):
        assert (tmp_path / "docs" / image).stat().st_size > 1000
        assert f"]({image})" in text
