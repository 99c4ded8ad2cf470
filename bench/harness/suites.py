"""Named suites: which arms, workloads and connection counts, and for how long."""

from bench.harness.runner import Settings

WSGI_CORE_ARMS = ["baton-inline", "baton-native", "uwsgi-http", "gunicorn-sync", "floor-c"]


def suite(name: str) -> Settings:
    if name == "default":
        return Settings("default", WSGI_CORE_ARMS, ["hello"], [16, 64], rounds=3, duration=10, warmup=2)
    if name == "quick":
        return Settings("quick", ["baton-inline", "baton-native", "floor-c"], ["hello"], [16], rounds=2,
                        duration=3, warmup=1)
    if name == "dry":
        # For the harness's own test: two tiny arms, a fraction of a second each.
        return Settings("dry", ["baton-native", "floor-c"], ["hello"], [4], rounds=1, duration=1, warmup=1)
    raise SystemExit(f"unknown suite {name!r}: default, quick, dry")
