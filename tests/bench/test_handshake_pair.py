"""bench/handshake_pair.py: the servers of a round run side by side, each
loaded by its own wrk, and each one's CPU is divided by its own handshakes.
No speed is asserted here."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import handshake_pair  # noqa: E402


def test_a_round_measures_each_server_by_its_own_handshakes_and_stops_them_all(tmp_path):
    arms = ["baton-inline", "baton-pool-4"]
    result = handshake_pair.one_round(arms, duration=1, connections=2, log_dir=tmp_path)
    assert sorted(result) == sorted(arms)
    for name in arms:
        assert result[name]["requests"] > 0, result
        assert result[name]["cpu_us_per_handshake"] > 0, result
    # Each server wrote its log, and each is gone, its whole process group.
    for name in arms:
        assert (tmp_path / f"{name}.log").exists()
        assert not Path(f"/proc/{result[name]['pid']}").exists(), name
