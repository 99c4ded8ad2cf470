"""HTTP/3 under a master with several workers (docs/http3.md, "Every
datagram to its owner"): the master binds the UDP sockets once and steers
each datagram by its connection ID to the worker that owns the connection
(baton/datagrams.py, core/net/cid_steering.h). Without that, the kernel's
hash of the client's address decides, and a client whose address changes,
or a worker that joins or leaves the port's group, sends a connection's
datagrams to a worker that does not know it: the requests go unanswered."""

import asyncio
import json
import os
import signal
import time

import pytest

from tests.conftest import tls_args
from tests.integration.h3client import converse
from tests.integration.server import Server

from baton import _baton

pytestmark = pytest.mark.skipif(not _baton.HAS_QUIC, reason=f"no QUIC in this build: {_baton.QUIC_ABSENT_REASON}")

OPS = "tests.integration.apps.ops_apps:app"
OPS_ASGI = "tests.integration.apps.ops_apps:asgi_app"


@pytest.fixture
def server(request, tls_certificates):
    started = []

    def start(*args, app=OPS):
        s = Server(["--port", "0", "--http3", *tls_args(tls_certificates), *args, app]).start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def pid_of(answer: dict) -> int:
    assert answer["status"] == 200, answer
    return json.loads(answer["body"])["pid"]


def many(port: int, ca: str, plans: list[tuple[list[list], bool]]) -> list:
    """Every plan (its rounds, whether it rebinds) as its own connection, all at once; each one's
    answers, or the exception it ended with."""
    async def run():
        return await asyncio.gather(*(converse(port, ca, rounds, rebind, timeout=30) for rounds, rebind in plans),
                                    return_exceptions=True)
    return asyncio.run(run())


def test_four_workers_answer_400_connections_at_once_and_a_rebinding_client_stays_with_its_worker(
        server, tls_certificates):
    s = server("--workers", "4")
    # Each connection asks twice, one round before and one after; every
    # fourth moves to a new local port in between.
    plans = [([[("GET", "/a")], [("GET", "/b")]], n % 4 == 0) for n in range(400)]
    results = many(s.port, str(tls_certificates.ca), plans)
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, f"{len(failures)} of 400 connections failed, the first: {failures[0]!r}"
    pids = set()
    for (rounds, rebind), (before, after) in zip(plans, results):
        assert pid_of(before[0]) == pid_of(after[0]), "a connection's answers came from two workers"
        pids.add(pid_of(before[0]))
    # New connections spread over the workers (the steering's live sockets).
    assert len(pids) == 4, f"new connections reached {len(pids)} of 4 workers"


def test_a_client_that_rebinds_stays_with_its_worker_and_its_requests_name_the_new_port(server, tls_certificates):
    s = server("--workers", "4")
    for _ in range(8):
        # Three rounds, a move before each of the later two. A request in the
        # first packet from a new address still names the old one: the
        # connection moves to the new path once that packet is read.
        [answers] = many(s.port, str(tls_certificates.ca), [([[("GET", "/a")], [("GET", "/b")], [("GET", "/c")]],
                                                              True)])
        first, second, third = (json.loads(a[0]["body"]) for a in answers)
        assert first["pid"] == second["pid"] == third["pid"]
        assert first["REMOTE_PORT"] != third["REMOTE_PORT"], "the requests name the client's first port still"


def worker_pids(master: int) -> list[int]:
    with open(f"/proc/{master}/task/{master}/children") as f:
        return [int(p) for p in f.read().split()]


def test_a_worker_replaced_under_open_connections_loses_no_request(server, tls_certificates):
    # ASGI: a worker's slow requests wait side by side.
    s = server("--workers", "2", "--graceful-timeout", "10", app=OPS_ASGI)
    ca = str(tls_certificates.ca)
    assert s.wait_for_log("baton serving", timeout=10)

    async def run():
        # Forty connections, each with a request in flight for a second and a
        # half while one worker is told to retire. It finishes them under its
        # GOAWAY and exits; its successor joins. Then each connection asks
        # again (those of the retired worker on a new connection, as GOAWAY
        # asks), half of them from a new client port, and forty new ones ask.
        joined = asyncio.Event()
        held = [asyncio.ensure_future(converse(s.port, ca, [[("GET", "/slow?1.5")], [("GET", "/after")]],
                                               rebind=n % 2 == 0, timeout=30, between=joined))
                for n in range(40)]
        await asyncio.sleep(0.7)
        pids = worker_pids(s.proc.pid)
        mark = s.log_mark()
        os.kill(pids[0], signal.SIGUSR2)
        deadline = time.monotonic() + 15
        while "baton serving" not in s.log_since(mark) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        joined.set()
        results = await asyncio.gather(*held, return_exceptions=True)
        fresh = await asyncio.gather(*(converse(s.port, ca, [[("GET", "/new")]], timeout=30) for _ in range(40)),
                                     return_exceptions=True)
        return pids[0], results, fresh

    retired, held, fresh = asyncio.run(run())
    failures = [r for r in held + fresh if isinstance(r, BaseException)]
    assert not failures, f"{len(failures)} of 80 connections failed, the first: {failures[0]!r}"
    for before, after in held:
        assert pid_of(before[0]) and pid_of(after[0])
    assert all(pid_of(answer[0][0]) != retired for answer in fresh), "a new connection reached the retired worker"


@pytest.mark.parametrize("signo, after", [(signal.SIGHUP, "reload: new workers serving"),
                                          (signal.SIGTTIN, "baton serving"),
                                          (signal.SIGTTOU, "exited")])
def test_new_connections_are_answered_after_a_reload_or_a_change_in_the_worker_count(
        server, tls_certificates, signo, after):
    # Three workers for SIGTTOU: the third shares the first one's loop (its
    # place), and once it goes the place's new connections must reach the
    # first again, not the socket the third left.
    s = server("--workers", "2", app=OPS_ASGI)
    ca = str(tls_certificates.ca)
    if signo == signal.SIGTTOU:
        mark = s.log_mark()
        s.signal(signal.SIGTTIN)
        assert s.wait_for_log("baton serving", timeout=15, since=mark)
    mark = s.log_mark()
    s.signal(signo)
    assert s.wait_for_log(after, timeout=15, since=mark)
    time.sleep(0.5)  # the master's next look (it looks every quarter second)

    async def run():
        return await asyncio.gather(*(converse(s.port, ca, [[("GET", "/x")]], timeout=15) for _ in range(40)),
                                    return_exceptions=True)

    results = asyncio.run(run())
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, f"{len(failures)} of 40 new connections failed, the first: {failures[0]!r}"
