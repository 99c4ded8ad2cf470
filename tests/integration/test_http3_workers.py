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
import socket
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


def serving(s: Server, workers: int, timeout: float = 15) -> bool:
    """Whether `workers` workers in all have said they serve (Server.start returns once the first has)."""
    deadline = time.monotonic() + timeout
    while s.log.count("baton serving") < workers:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def worker_pids(master: int) -> list[int]:
    with open(f"/proc/{master}/task/{master}/children") as f:
        return [int(p) for p in f.read().split()]


def test_a_worker_replaced_under_open_connections_loses_no_request(server, tls_certificates):
    # ASGI: a worker's slow requests wait side by side.
    s = server("--workers", "2", "--graceful-timeout", "10", app=OPS_ASGI)
    ca = str(tls_certificates.ca)
    assert serving(s, 2)

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
    assert serving(s, 2)
    if signo == signal.SIGTTOU:
        s.signal(signal.SIGTTIN)
        assert serving(s, 3)
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


def test_a_connection_whose_worker_died_is_told_so_by_a_stateless_reset_from_its_successor(server, tls_certificates):
    # The reset's token comes from a secret every worker shares: the
    # successor, which never saw the connection, derives the one the dead
    # worker gave the client for that connection ID (RFC 9000 section 10.3).
    from aioquic.asyncio import connect
    from aioquic.h3.connection import H3_ALPN
    from aioquic.quic.configuration import QuicConfiguration

    from tests.integration.h3client import Ask, _setup

    s = server("--workers", "2")

    async def one_request():
        configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
        configuration.load_verify_locations(str(tls_certificates.ca))
        async with connect("127.0.0.1", s.port, configuration=configuration, create_protocol=_setup()) as client:
            future = client.ask(s.port, Ask("GET", "/x"))
            client.transmit()
            answer = await asyncio.wait_for(future, 10)
            peer = client._quic._peer_cid
            return pid_of(answer), peer.cid, peer.stateless_reset_token

    assert serving(s, 2)
    pid, cid, token = asyncio.run(one_request())
    assert len(cid) == 18 and len(token) == 16
    os.kill(pid, signal.SIGKILL)
    assert serving(s, 3), s.log
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.settimeout(5)
        packet = bytes([0x40 | (os.urandom(1)[0] & 0x3f)]) + cid + os.urandom(40)
        udp.sendto(packet, ("127.0.0.1", s.port))
        reset, _ = udp.recvfrom(2048)
        assert len(reset) < len(packet), "a reset is shorter than what caused it"
        assert reset[-16:] == token, "not the reset token the connection was given"
        # A short packet (which might itself be a reset) gets none.
        udp.settimeout(0.5)
        udp.sendto(packet[:41], ("127.0.0.1", s.port))
        with pytest.raises(TimeoutError):
            udp.recvfrom(2048)


def test_workers_added_past_the_start_count_each_read_a_socket_of_their_own_and_take_new_connections(
        server, tls_certificates):
    # One loop number at start, so two sides: the third worker needs a third
    # socket, bound at the end of the group. Sharing one would let a worker
    # read the other's packets (and, not knowing them, reset them).
    s = server("--workers", "1", app=OPS_ASGI)
    ca = str(tls_certificates.ca)
    for workers in (2, 3):
        s.signal(signal.SIGTTIN)
        assert serving(s, workers)
    time.sleep(0.5)

    async def run():
        return await asyncio.gather(*(converse(s.port, ca, [[("GET", "/x")], [("GET", "/y")]], timeout=15)
                                      for _ in range(60)), return_exceptions=True)

    results = asyncio.run(run())
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, f"{len(failures)} of 60 connections failed, the first: {failures[0]!r}"
    assert all(pid_of(before[0]) == pid_of(after[0]) for before, after in results)
    assert len({pid_of(before[0]) for before, _ in results}) == 3, "new connections did not reach all three workers"


def test_a_udp_port_another_server_holds_is_refused_at_start_in_one_line(tls_certificates):
    # Joining another server's SO_REUSEPORT group would renumber the
    # steered sockets and replace the steering program.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", 0))
        port = other.getsockname()[1]
        s = Server(["--bind", f"127.0.0.1:{port}", "--http3", "--workers", "2", *tls_args(tls_certificates), OPS])
        with pytest.raises(RuntimeError):
            s.start(timeout=10)
        assert s.wait(10) != 0
        lines = [line for line in s.log.splitlines() if "cannot serve HTTP/3 on UDP" in line]
        assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0], s.log
