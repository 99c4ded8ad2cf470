"""WebSockets over HTTP/3 (RFC 9220) on real sockets: the server announces
SETTINGS_ENABLE_CONNECT_PROTOCOL when the app serves WebSockets, an
extended CONNECT with :protocol websocket becomes a WebSocket on its
request stream, the app sees the same `websocket` scope as over HTTP/1.1
and HTTP/2 (http_version "3"), and messages, permessage-deflate, pings, the
close handshake, backpressure through the stream's credit, the drain's
1001, a quiet WebSocket kept open past QUIC's idle timeout and the access
log all work as they do over HTTP/2, in both ASGI shapes, beside ordinary
requests on the same connection. Clients: tests/integration/h3ws.py
(aioquic and websockets' frame codec), and Debian's Chromium with its
WebSockets over HTTP/3 turned on."""

import asyncio
import json
import os
import signal
import time

import psutil
import pytest
from websockets.frames import Opcode

from tests.conftest import ASGI_SHAPES, tls_args
from tests.integration.h3client import Ask
from tests.integration.h3ws import ENABLE_CONNECT_PROTOCOL, H3WebSocket, connection
from tests.integration.server import Server
from tests.integration.test_http2_memory import RssSampler
from tests.integration.test_websocket_h2 import wait_for_text

from baton import _baton

pytestmark = pytest.mark.skipif(not _baton.HAS_QUIC, reason=f"no QUIC in this build: {_baton.QUIC_ABSENT_REASON}")

APP = "tests.integration.apps.ws_apps:app"
SHAPES = {"pump": ASGI_SHAPES["pump-uvloop"], "inverted": ASGI_SHAPES["inverted-uvloop"]}
H3_NO_ERROR = 0x100
H3_MESSAGE_ERROR = 0x10E
WS_WARM_UP = 4_000
WS_MESSAGES = 30_000  # as over HTTP/2
# Measured: 0 to 4 KiB over the messages. A record of 32 bytes kept for
# each message (an acknowledged chunk never let go) grows it by 990 KiB.
WS_GROWTH_BOUND = 512 << 10
SANITIZED = bool(os.environ.get("BATON_TEST_SANITIZER_REPORTS"))


def start_server(tls_certificates, tmp_path, *args, shape="inverted", app=APP):
    log = tmp_path / "access.log"
    record = tmp_path / "calls.log"
    server = Server(["--port", "0", "--http3", *tls_args(tls_certificates), "--interface", "asgi", *SHAPES[shape],
                     "--access-log", "--access-logfile", str(log), *args, app],
                    env={"BATON_TEST_RECORD": str(record)}).start()
    server.access_log = log
    server.record = record
    server.ca = str(tls_certificates.ca)
    return server


@pytest.fixture(params=list(SHAPES))
def h3_ws(request, tls_certificates, tmp_path):
    server = start_server(tls_certificates, tmp_path, shape=request.param)
    yield server
    server.stop()


def converse(server, talk, timeout=30, idle_timeout=10.0):
    """Runs `talk(client)` on one HTTP/3 connection to `server`."""
    async def run():
        async with connection(server.port, server.ca, idle_timeout) as client:
            return await asyncio.wait_for(talk(client), timeout)

    return asyncio.run(run())


async def ask(client, port, method, path):
    future = client.ask(port, Ask(method, path))
    client.transmit()
    return await asyncio.wait_for(future, 10)


def test_the_server_announces_extended_connect_only_when_it_serves_websockets(h3_ws, tls_certificates, tmp_path):
    async def settings(client):
        assert (await ask(client, h3_ws.port, "GET", "/stats"))["status"] == 200
        return client.http.received_settings

    assert converse(h3_ws, settings).get(ENABLE_CONNECT_PROTOCOL) == 1
    wsgi = Server(["--port", "0", "--http3", *tls_args(tls_certificates),
                   "tests.integration.apps.wire_apps:wsgi"]).start()
    wsgi.ca = h3_ws.ca
    try:
        async def refused(client):
            announced = None
            assert (await ask(client, wsgi.port, "GET", "/info"))["status"] == 200
            announced = client.http.received_settings
            # Not announced: a :protocol is malformed (RFC 9220 section 3),
            # its stream reset; the connection serves on.
            ws = await H3WebSocket.open(client, wsgi.port, "/echo")
            after = await ask(client, wsgi.port, "GET", "/info")
            return announced, ws.status, ws.reset, after["status"]

        announced, status, reset, after = converse(wsgi, refused)
        assert ENABLE_CONNECT_PROTOCOL not in announced, announced
        assert status is None and reset == H3_MESSAGE_ERROR, (status, reset)
        assert after == 200
    finally:
        wsgi.stop()


def test_a_websocket_rides_an_h3_stream_beside_ordinary_requests(h3_ws):
    big = os.urandom(600_000)  # past the stream's 256 KiB credit, which must come back as it is read

    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo?room=1", subprotocols=["chat"])
        assert ws.status == 200, ws.headers
        assert ws.headers.get("sec-websocket-protocol") == "chat"
        assert "sec-websocket-accept" not in ws.headers, "RFC 9220 answers carry no accept value"
        assert not ws.ended
        ws.send("hello over h3")
        assert await ws.recv() == "hello over h3"
        ws.send(big)
        assert await ws.recv() == big
        # An ordinary request on the same connection while the WebSocket is open.
        assert (await ask(client, h3_ws.port, "GET", "/stats"))["status"] == 200
        ws.send("after the other stream")
        assert await ws.recv() == "after the other stream"
        # The close handshake: the server echoes the code, then ends the stream.
        ws.close(1000, "done")
        frame = await ws.recv_frame()
        assert frame.opcode == Opcode.CLOSE and frame.data[:2] == (1000).to_bytes(2, "big")
        assert await ws.wait_ended(), f"the server did not end the stream after the close handshake ({ws.reset})"
        # The client has not ended its side: the server tells it to stop
        # (STOP_SENDING, H3_NO_ERROR), so the stream is done.
        assert await client.until(lambda: ws.stopped is not None), "no STOP_SENDING after the close handshake"
        assert ws.stopped == H3_NO_ERROR
        return ws.sid

    converse(h3_ws, talk)
    log = wait_for_text(h3_ws.access_log, "CONNECT /echo")
    line = next(line for line in log.splitlines() if "CONNECT /echo" in line)
    assert '"CONNECT /echo?room=1 HTTP/3.0" 200 ' in line, line
    # The stream closed, so the app heard the close at once (not when the connection went).
    wait_for_text(h3_ws.record, "disconnect 1000")


def test_the_scope_is_a_websocket_scope_with_http_version_3(h3_ws):
    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/scope?x=1")
        assert ws.status == 200
        assert ws.headers.get("x-accepted") == "yes"
        return json.loads(await ws.recv())

    scope = converse(h3_ws, talk)
    assert scope["type"] == "websocket"
    assert scope["http_version"] == "3"
    assert scope["scheme"] == "wss"
    assert scope["path"] == "/scope" and scope["query_string"] == "x=1"
    names = [name for name, _ in scope["headers"]]
    assert "sec-websocket-version" in names and not any(n.startswith(":") for n in names), names


def test_permessage_deflate_over_h3(h3_ws):
    text = "compressible " * 5000

    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo", deflate=True)
        assert ws.status == 200
        assert ws.headers.get("sec-websocket-extensions", "").startswith("permessage-deflate")
        ws.send(text)
        frame = await ws.recv_frame()
        assert frame.opcode == Opcode.TEXT and frame.data.decode() == text
        return ws.taken

    taken = converse(h3_ws, talk)
    # The server compressed it: far fewer bytes came than the text has.
    assert taken < len(text) // 4, taken


def test_pings_are_answered_on_the_stream_and_the_apps_close_ends_it(h3_ws):
    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo")
        ws.send_frame(Opcode.PING, b"are you there")
        frame = await ws.recv_frame()
        assert frame.opcode == Opcode.PONG and frame.data == b"are you there"
        ws.send("close please")
        frame = await ws.recv_frame()
        assert frame.opcode == Opcode.CLOSE and frame.data[:2] == (4321).to_bytes(2, "big")
        assert frame.data[2:] == b"as asked"
        ws.close(4321)
        assert await ws.wait_ended()

    converse(h3_ws, talk)


def test_a_client_that_resets_the_stream_disconnects_the_app(h3_ws):
    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo")
        ws.send("one")
        assert await ws.recv() == "one"
        client._quic.reset_stream(ws.sid, 0x10C)  # H3_REQUEST_CANCELLED
        client.transmit()
        await asyncio.to_thread(wait_for_text, h3_ws.record, "disconnect 1006")
        # The server ends its side too, and the connection goes on.
        assert await client.until(lambda: ws.reset is not None or ws.stopped is not None)
        return (await ask(client, h3_ws.port, "GET", "/stats"))["status"]

    assert converse(h3_ws, talk) == 200, "the connection did not go on after the reset"


def test_a_slow_app_holds_back_its_stream_by_its_credit(h3_ws):
    # /slow-reader?3 takes no message for 3 s, then all of them: the
    # client's flood stops at the stream's credit (the app's queue full, the
    # rest held undecoded), which comes back once the app reads; nothing is lost.
    chunk = b"x" * 16384

    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/slow-reader?3")
        stream = ws.quic_stream()
        sent = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.5
        while loop.time() < deadline:
            # aioquic queues what the credit does not let out: keep a little queued.
            if stream.sender.highest_offset + 4 * len(chunk) > stream.max_stream_data_remote:
                await asyncio.sleep(0.05)
                continue
            ws.send(chunk)
            sent += 1
            await asyncio.sleep(0)
        credit = stream.max_stream_data_remote
        assert stream.sender.highest_offset >= credit - 5 * len(chunk), "the client was never held back"
        assert credit < 4 * 1024 * 1024, f"{credit} bytes of credit while the app read nothing"
        # The server still serves the connection's other streams.
        assert (await ask(client, h3_ws.port, "GET", "/stats"))["status"] == 200
        assert await client.until(lambda: stream.max_stream_data_remote > credit + 128 * 1024, 15), \
            "the credit did not come back once the app read"
        await client.until(lambda: stream.sender.buffer_is_empty, 10)
        ws.send("done")
        return sent, await ws.recv(15)

    sent, answer = converse(h3_ws, talk)
    assert answer == f"got {sent + 1}"


def test_a_drain_closes_open_h3_websockets_with_1001_and_goaway(h3_ws):
    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo")
        ws.send("before the drain")
        assert await ws.recv() == "before the drain"
        h3_ws.signal(signal.SIGTERM)
        frame = await ws.recv_frame()
        assert frame.opcode == Opcode.CLOSE and frame.data == (1001).to_bytes(2, "big"), frame
        assert await client.until(lambda: client.goaway), "no GOAWAY on the control stream"
        ws.close(1001)  # the client's answer: the handshake is done, the stream ends, the server exits
        assert await ws.wait_ended()
        assert await client.until(lambda: client.ended, 10), "the connection stayed open after its last stream"

    converse(h3_ws, talk)
    assert h3_ws.proc.wait(15) == 0


def test_a_client_that_closes_its_connection_under_an_open_websocket_disconnects_the_app(h3_ws):
    # The connection goes with the WebSocket's stream still open: the stream
    # lets go of its app (1006) before the QUIC connection is freed (under
    # the sanitizer build, the other order is a use after free).
    async def talk(client):
        ws = await H3WebSocket.open(client, h3_ws.port, "/echo")
        ws.send("one")
        assert await ws.recv() == "one"
        client.close()
        await client.wait_closed()

    converse(h3_ws, talk)
    wait_for_text(h3_ws.record, "disconnect 1006")

    async def again(client):
        return (await ask(client, h3_ws.port, "GET", "/stats"))["status"]

    assert converse(h3_ws, again) == 200


def test_bad_extended_connects_get_a_clear_answer(h3_ws):
    async def talk(client):
        bad_version = await H3WebSocket.open(client, h3_ws.port, "/echo", version="8")
        other = await H3WebSocket.open(client, h3_ws.port, "/echo", protocol="not-a-protocol")
        stats = await ask(client, h3_ws.port, "GET", "/stats")
        return bad_version.status, other.status, stats["status"]

    assert converse(h3_ws, talk) == (426, 501, 200)


def test_a_quiet_websocket_outlives_quics_idle_timeout(tls_certificates, tmp_path):
    # The client asks for a 2 s idle timeout and sends nothing for 5 s; the
    # server's own pings are off. QUIC's PINGs (sent while a WebSocket rides
    # the connection) keep it open, as a TCP connection would stay.
    server = start_server(tls_certificates, tmp_path, "--ws-ping-interval", "0")
    try:
        async def talk(client):
            ws = await H3WebSocket.open(client, server.port, "/echo")
            await asyncio.sleep(5)
            assert not client.ended, "the connection timed out under an open WebSocket"
            ws.send("still here")
            return await ws.recv()

        assert converse(server, talk, idle_timeout=2.0) == "still here"
    finally:
        server.stop()


@pytest.mark.parametrize("shape", list(SHAPES))
def test_an_app_that_never_accepts_gets_its_stream_a_504(tls_certificates, tmp_path, shape):
    server = start_server(tls_certificates, tmp_path, "--ws-handshake-timeout", "0.5", shape=shape)
    try:
        async def talk(client):
            t0 = time.monotonic()
            ws = await H3WebSocket.open(client, server.port, "/never-accept")
            took = time.monotonic() - t0
            return ws.status, took, (await ask(client, server.port, "GET", "/stats"))["status"]

        status, took, after = converse(server, talk)
        assert status == 504
        assert took < 3
        assert after == 200, "the connection did not go on"
    finally:
        server.stop()


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_websocket_carrying_many_messages_keeps_memory_flat(tls_certificates, tmp_path, shape):
    # One message at a time, each echo a STREAM frame of its own on the one
    # request stream: whatever the server kept per message (a spent output
    # segment, the bytes held until acknowledged) would grow it by the
    # message count.
    server = start_server(tls_certificates, tmp_path, shape=shape)
    try:
        async def talk(client):
            ws = await H3WebSocket.open(client, server.port, "/echo")
            assert ws.status == 200

            async def exchange(count):
                for i in range(count):
                    ws.send_frame(Opcode.BINARY, i.to_bytes(4, "big"))
                    frame = await ws.recv_frame()
                    while frame.opcode == Opcode.PING:  # the server's keep-alive (a slow run passes 20 s)
                        ws.send_frame(Opcode.PONG, frame.data)
                        frame = await ws.recv_frame()
                    assert (frame.opcode, frame.data) == (Opcode.BINARY, i.to_bytes(4, "big")), frame

            await exchange(WS_WARM_UP)
            before = psutil.Process(server.proc.pid).memory_info().rss
            with RssSampler(server.proc.pid) as rss:
                await exchange(WS_MESSAGES)
            ws.close(1000)
            return before, rss.samples

        before, samples = converse(server, talk, timeout=300)
        growth = max(samples, default=before) - before
        print(f"websocket over HTTP/3, {shape}: {growth / 1024:.0f} KiB over {WS_MESSAGES} messages")
        # (Under AddressSanitizer freed memory waits in its quarantine.)
        assert SANITIZED or growth < WS_GROWTH_BOUND, (
            f"{shape}: RSS grew by {growth / 1024:.0f} KiB over {WS_MESSAGES} messages on one stream "
            f"(samples in MiB: {[s >> 20 for s in samples[::20]]})")
    finally:
        server.stop()


def test_chromium_loads_a_page_over_http3_and_opens_its_websocket_on_it(tls_certificates, tmp_path):
    # Debian's Chromium, told to use QUIC for the origin and to open
    # WebSockets over HTTP/3 (RFC 9220; a feature it ships turned off),
    # loads the page over HTTP/3; the page's WebSocket rides the same QUIC
    # connection as an extended CONNECT, exchanges compressed messages and
    # closes with the close handshake.
    from tests.integration.test_websocket_h2 import browser_report

    server = start_server(tls_certificates, tmp_path)
    browser_report(server, f"{server.url}/browser", tmp_path / "profile", trusted_cert=tls_certificates.cert,
                   extra_args=[f"--origin-to-force-quic-on=127.0.0.1:{server.port}",
                               "--enable-features=EnableWebsocketsOverHttp3"])
    assert "disconnect 1000 'browser done'" in server.record.read_text()
    access = server.access_log.read_text()
    assert '"GET /browser HTTP/3.0" 200 ' in access, access
    # Over TCP it would be "GET /echo HTTP/1.1" 101 (Chromium's default).
    assert '"CONNECT /echo HTTP/3.0" 200 ' in access, access
