"""What a client sees in a flood of connections, past what a worker can
hold: baton (under a descriptor limit of 40, `prlimit --nofile`) takes 150
clients at once, each connecting and asking for a view that awaits 0.3 s.
Past its descriptors an accept fails; baton logs it and stops accepting for
100 ms rather than spinning, so the clients past it wait in the kernel's
backlog (16 here, `--backlog`), and those past the backlog have their SYN
dropped and sent again by their own kernel: every one is answered, later,
and none is refused or reset."""

import concurrent.futures
import http.client
import shutil
import sys
import time

import pytest

from tests.integration.server import Server

pytestmark = pytest.mark.skipif(shutil.which("prlimit") is None, reason="no prlimit (util-linux)")


def ask(port: int) -> int | str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/slow?s=0.3", headers={"Connection": "close"})
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError as e:
        return type(e).__name__
    finally:
        connection.close()


def test_a_flood_past_the_descriptors_and_the_backlog_is_answered_late_not_refused(tmp_path):
    wrapper = tmp_path / "python-limited"
    wrapper.write_text(f'#!/bin/sh\nexec prlimit --nofile=40 -- {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    server = Server(["--port", "0", "--backlog", "16", "tests.integration.apps.metrics_apps:asgi"],
                    python=str(wrapper)).start()
    try:
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(150) as pool:
            answers = list(pool.map(lambda _: ask(server.port), range(150)))
        took = time.monotonic() - started
        assert answers == [200] * 150, {a: answers.count(a) for a in set(answers)}
        assert "pausing accepts" in server.log, server.log[-2000:]
        assert took < 25, took
        # Still serving, with its descriptors back.
        assert ask(server.port) == 200
    finally:
        server.stop()
