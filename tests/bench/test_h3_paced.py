"""bench/udp_delay.c and bench/h3_paced.py: the relay holds each datagram
the time it is told, each way, and keeps their order and bytes; a download
through it is timed over HTTP/3 (skipped where the h2load tools/h2load_h3.py
builds is missing: make h2load-h3). No speed is asserted here."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import h2load_h3  # noqa: E402
from bench import h3_paced  # noqa: E402
from bench.harness.apps import Workload  # noqa: E402
from bench.harness.arms import build_c  # noqa: E402
from bench.harness.runner import free_port  # noqa: E402


def test_the_relay_holds_each_datagram_its_delay_each_way_and_keeps_them_in_order():
    delay = 0.02
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as server, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
        server.bind(("127.0.0.1", 0))
        front = free_port()
        relay = subprocess.Popen([str(build_c("udp_delay")), str(front), str(server.getsockname()[1]),
                                  str(int(delay * 1e6))], stdout=subprocess.PIPE, text=True)
        try:
            time.sleep(0.2)
            server.settimeout(5)
            client.settimeout(5)
            sent_at = time.monotonic()
            for n in range(20):
                client.sendto(b"%d" % n + b"x" * 1000, ("127.0.0.1", front))
            arrived = [server.recvfrom(2048) for _ in range(20)]
            there = time.monotonic() - sent_at
            assert [data for data, _ in arrived] == [b"%d" % n + b"x" * 1000 for n in range(20)]
            assert len({address for _, address in arrived}) == 1, "one client, one address at the server"
            server.sendto(b"back", arrived[0][1])
            assert client.recvfrom(2048)[0] == b"back"
            both = time.monotonic() - sent_at
        finally:
            relay.terminate()
            out = relay.communicate(timeout=10)[0]
    assert there >= delay, there
    assert both >= 2 * delay, both
    assert "relayed 21, dropped 0 (queue full) 0 (send) 0 (too large)" in out, out


@pytest.mark.skipif(h2load_h3.ready() is not None, reason=str(h2load_h3.ready()))
def test_a_download_through_the_relay_is_timed_over_http3(tmp_path):
    name, body = h3_paced.big_file(1)
    workload = Workload("static-1m-h3", f"/static/{name}", 200, body, wsgi="apps.hello.app:application",
                        static=name, client="h2load", wire="h3", streams=1)
    rate = h3_paced.download("baton-static", workload, 5000, 2, tmp_path)
    assert rate > 0
    assert (tmp_path / "baton-static.log").exists()
