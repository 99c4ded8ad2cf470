"""The ASGI send/receive contract, in every ASGI shape: receive and send are
awaitable callables (the ASGI spec), so an error is raised by the await,
never by the call, and what they return is taken wherever a coroutine is:
asyncio.ensure_future, asyncio.gather, asyncio's TaskGroup and anyio's
start_soon, as they take the coroutine every other server's send returns.
The apps (tests/integration/apps/send_contract_apps.py) record each call
and each await in BATON_TEST_RECORD."""

import time

import pytest
from websockets.sync.client import connect

from tests.conftest import ASGI_SHAPES
from tests.integration.server import Server, read_response, reset_close

APPS = "tests.integration.apps.send_contract_apps"
CLIENT_GONE = "ClientDisconnected oserror=True"


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def shape(request):
    return ASGI_SHAPES[request.param]


@pytest.fixture
def serve(shape, tmp_path):
    servers = []

    def start(app=f"{APPS}:app"):
        record = tmp_path / f"calls-{len(servers)}.log"
        server = Server(["--port", "0", *shape, app], env={"BATON_TEST_RECORD": str(record)}).start()
        server.record = record
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def records(server, until: str, timeout: float = 5.0) -> list[str]:
    """The app's record once a line starting with `until` is in it."""
    deadline = time.monotonic() + timeout
    while True:
        lines = server.record.read_text().splitlines() if server.record.exists() else []
        if any(line.startswith(until) for line in lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


def test_a_websocket_send_after_the_apps_own_close_raises_at_the_await(serve):
    server = serve()
    with connect(f"ws://127.0.0.1:{server.port}/after-own-close") as ws:
        ws.recv_messages  # noqa: B018 - the close comes; nothing is read
        lines = records(server, "group anyio")
    assert "ensure_future call returned" in lines, lines
    assert f"ensure_future await raised {CLIENT_GONE}" in lines, lines
    assert f"gather {CLIENT_GONE} {CLIENT_GONE}" in lines, lines
    if any(line.startswith("group asyncio") for line in lines):
        assert f"group asyncio group raised {CLIENT_GONE}" in lines, lines
    assert f"group anyio group raised {CLIENT_GONE}" in lines, lines


def test_a_websocket_message_the_protocol_forbids_raises_at_the_await(serve):
    server = serve()
    with connect(f"ws://127.0.0.1:{server.port}/bad-message") as ws:
        lines = records(server, "bad await")
        ws.close()
    assert lines[:2] == ["bad call returned", "bad await raised ValueError oserror=False"], lines


def test_an_http_send_after_the_client_left_raises_at_the_await(serve):
    server = serve()
    sock = server.connect()
    sock.sendall(b"GET /after-disconnect HTTP/1.1\r\nHost: x\r\n\r\n")
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    reset_close(sock)  # gone at once (a FIN alone is a client done sending, who may still read)
    lines = records(server, "group anyio")
    assert lines[:2] == ["body call returned", f"body await raised {CLIENT_GONE}"], lines
    assert f"group anyio group raised {CLIENT_GONE}" in lines, lines


def test_a_second_receive_while_the_first_waits_raises_at_its_await(serve):
    server = serve()
    sock = server.connect()
    sock.sendall(b"POST /receive-twice HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n")
    lines = records(server, "second await")
    sock.sendall(b"x" * 200000)
    status, _, body, _ = read_response(sock)
    sock.close()
    assert (status, body) == (200, b"done")
    assert lines[:2] == ["second call returned", "second await raised RuntimeError oserror=False"], lines
    assert records(server, "first got")[-1] == "first got http.request"


def test_a_send_of_what_is_not_a_message_raises_at_the_await(serve):
    server = serve()
    sock = server.connect()
    sock.sendall(b"GET /not-a-dict HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _, _, _ = read_response(sock)
    sock.close()
    assert status == 204
    assert records(server, "not-a-dict await")[:2] == ["not-a-dict call returned",
                                                      "not-a-dict await raised TypeError oserror=False"]


def test_starlette_sees_a_send_to_a_closed_websocket_fail_where_it_awaits(serve):
    # Starlette wraps the server's send in coroutines of its own, so this
    # holds whatever the server's send does at its call; it guards the
    # user-visible behaviour, the ensure_future of a late send_text.
    server = serve(f"{APPS}:starlette")
    with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send("hi")
        assert ws.recv(timeout=5) == "hi"
    lines = records(server, "starlette await")
    assert "starlette call returned" in lines, lines
    assert any(line.startswith("starlette await raised") for line in lines), lines
