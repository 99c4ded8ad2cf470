"""ASGI over real sockets, in both shapes and on both loops (parametrized,
not copied): the HTTP scope, streaming both ways, disconnects, pathsend,
lifespan, bad apps, and the uvicorn-style behaviours users rely on."""

import hashlib
import json
import os
import signal
import threading
import time

import httpx
import pytest

from tests.conftest import ASGI_SHAPES
from tests.integration.server import (Server, closed_by_peer, crosstalk_probe, read_response, read_until_closed,
                                      reset_close)

APP = "tests.integration.apps.asgi_apps:app"
REQUIRED_KEYS = {"type", "asgi", "http_version", "method", "scheme", "path", "raw_path", "query_string",
                 "root_path", "headers", "client", "server", "state", "extensions"}


def calls(server) -> list[str]:
    try:
        return server.record.read_text().splitlines()
    except FileNotFoundError:
        return []


def wait_for_record(server, line: str, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if line in calls(server):
            return True
        time.sleep(0.02)
    return False


@pytest.fixture(scope="module", params=list(ASGI_SHAPES))
def asgi_shape(request) -> list[str]:
    return ASGI_SHAPES[request.param]


@pytest.fixture(scope="module")
def asgi(tmp_path_factory, asgi_shape):
    record = tmp_path_factory.mktemp("asgi") / "calls.log"
    server = Server(["--port", "0", *asgi_shape, "--root-path", "", "--header-read-timeout", "3", APP],
                    env={"BATON_TEST_RECORD": str(record)}).start()
    server.record = record
    yield server
    server.stop()


@pytest.fixture
def start_asgi(asgi_shape, tmp_path):
    servers = []

    def start(*args, app=APP, env=None):
        record = tmp_path / f"calls-{len(servers)}.log"
        server = Server(["--port", "0", *asgi_shape, *args, app],
                        env={"BATON_TEST_RECORD": str(record), **(env or {})}).start()
        server.record = record
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def get(server, path: str, **kwargs) -> httpx.Response:
    return httpx.get(server.url + path, timeout=10, **kwargs)


def test_the_scope_carries_every_key_the_spec_requires(asgi):
    r = httpx.post(asgi.url + "/echo?x=1&y=%20z", content=b"abc", headers={"X-Two": "a", "x-two": "b"}, timeout=10)
    info = r.json()
    assert REQUIRED_KEYS <= set(info["keys"]), set(info["keys"]) ^ REQUIRED_KEYS
    assert info["type"] == "http" and info["asgi"]["version"] == "3.0" and "spec_version" in info["asgi"]
    assert info["http_version"] == "1.1" and info["method"] == "POST" and info["scheme"] == "http"
    assert info["path"] == "/echo" and info["raw_path"] == "/echo" and info["query_string"] == "x=1&y=%20z"
    assert info["root_path"] == ""
    names = [n for n, _ in info["headers"]]
    assert names == [n.lower() for n in names], "header names are lower-cased"
    assert ["x-two", "a"] in info["headers"] and ["x-two", "b"] in info["headers"], "duplicates kept in order"
    assert info["client"][0] == "127.0.0.1" and isinstance(info["client"][1], int)
    assert info["server"] == ["127.0.0.1", asgi.port]
    assert info["state"] == {"started": "yes"}, "the lifespan state is shallow-copied into the scope"
    assert "http.response.pathsend" in info["extensions"]
    assert info["body_length"] == 3


def test_header_names_are_lowercased_whether_common_or_not(asgi):
    # Common names come from one shared set (per process), others are made
    # per request: the app sees the same either way, in the order sent.
    sent = [("HOST", "t"), ("Content-TYPE", "text/x"), ("Hoss", "not host"), ("X-Forwarded-FOR", "1.2.3.4"),
            ("X-A-Name-Well-Past-Thirty-Two-Bytes-Long", "v"), ("Sec-WebSocket-Keys", "near a common one")]
    r = httpx.post(asgi.url + "/echo", content=b"", headers=sent, timeout=10)
    got = [[n, v] for n, v in r.json()["headers"] if n not in ("accept", "accept-encoding", "connection",
                                                               "user-agent", "content-length")]
    assert got == [[n.lower(), v] for n, v in sent]


def test_the_path_is_percent_decoded_and_raw_path_is_not(asgi):
    s = asgi.connect()
    s.sendall(b"GET /ech%6F/caf%C3%A9?q HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    # /echo/café is not a route: the app answers 404, and the record shows the decoded path.
    assert status == 404
    assert wait_for_record(asgi, "GET /echo/café")


def test_a_request_changing_its_state_copy_does_not_change_the_next_ones(asgi):
    assert get(asgi, "/state-write?value=leak").status_code == 200
    assert get(asgi, "/echo").json()["state"] == {"started": "yes"}


def test_a_large_body_arrives_in_several_more_body_events(asgi):
    body = bytes(range(256)) * 8192  # 2 MiB
    info = httpx.post(asgi.url + "/echo", content=body, timeout=30).json()
    assert info["body_length"] == len(body)
    assert info["body_sha256"] == hashlib.sha256(body).hexdigest()
    assert info["chunks"] > 1, "a 2 MiB body came in one event: nothing streamed"


def test_answers_larger_than_the_output_window_complete_and_the_connection_serves_on(asgi):
    # One send() of 1.5 MB, then three streamed pieces of 1.5 MB each: every
    # one is past the 1 MiB output window, so each send() waits for the loop
    # to drain it, and must be woken when it has.
    s = asgi.connect()
    s.settimeout(10)
    body = bytes(range(256)) * 6000
    s.sendall(b"POST /tagged?tag=t HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    status, _, got, _ = read_response(s)
    assert status == 200 and got == b"t:" + body
    s.sendall(b"GET /stream?count=3&size=1500000 HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, got, _ = read_response(s)
    assert status == 200 and got == b"A" * 1500000 + b"B" * 1500000 + b"C" * 1500000
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, got, _ = read_response(s)
    assert status == 200 and got == b"Hello, World!"


def test_a_body_the_app_does_not_receive_is_dropped_and_the_connection_serves_on(asgi):
    # /hello never calls receive(): the 300 KB body (past the 64 KiB read
    # before the app runs, within the 1 MiB window) is read and dropped after
    # the answer, and the next request on the connection is served.
    s = asgi.connect()
    s.settimeout(10)
    body = b"x" * 300_000
    s.sendall(b"POST /hello HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body) + body
              + b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    for _ in range(2):
        status, headers, got, _ = read_response(s)
        assert status == 200 and got == b"Hello, World!" and "connection" not in headers


def test_a_chunked_body_is_decoded_for_the_app(asgi):
    def pieces():
        for i in range(20):
            yield bytes([65 + i]) * 1000
    info = httpx.post(asgi.url + "/echo", content=pieces(), timeout=30).json()
    expected = b"".join(bytes([65 + i]) * 1000 for i in range(20))
    assert info["body_sha256"] == hashlib.sha256(expected).hexdigest()


def test_a_streamed_response_reaches_the_client_piece_by_piece(asgi):
    s = asgi.connect()
    s.sendall(b"GET /stream?count=3&size=4&delay=0.4 HTTP/1.1\r\nHost: t\r\n\r\n")
    s.settimeout(5)
    first = b""
    t0 = time.monotonic()
    while b"AAAA" not in first:
        first += s.recv(65536)
    assert time.monotonic() - t0 < 1.0, "the first piece waited for the end of the response"
    rest = b""
    while not rest.endswith(b"0\r\n\r\n"):
        rest += s.recv(65536)
    assert b"BBBB" in rest and b"CCCC" in rest


def test_a_chunked_response_ends_with_exactly_one_terminating_chunk(asgi):
    s = asgi.connect()
    s.sendall(b"GET /stream?count=2&size=3 HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert headers["transfer-encoding"] == "chunked" and body == b"AAABBB"
    # The next response follows at once: no stray terminator between them.
    status, _, body, _ = read_response(s)
    assert status == 200 and body == b"Hello, World!"


def test_head_has_no_body(asgi):
    s = asgi.connect()
    s.sendall(b"HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s, head_only=True)
    assert status == 200 and headers["content-length"] == "13"
    status, _, body, _ = read_response(s)
    assert body == b"Hello, World!", "the HEAD answer carried a body"


def test_100_continue_is_answered_only_when_the_app_receives(asgi):
    s = asgi.connect()
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
    s.settimeout(5)
    assert s.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
    s.sendall(b"xyz")
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["body_length"] == 3
    s2 = asgi.connect()
    s2.sendall(b"POST /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
    status, _, body, raw = read_response(s2)
    assert status == 200 and b"100 Continue" not in raw


def test_pathsend_sends_the_file(asgi):
    r = get(asgi, "/pathsend")
    assert r.status_code == 200 and int(r.headers["content-length"]) == len(r.content) == 512 * 1024
    assert r.content == bytes(range(256)) * 2048


def test_trailers_follow_the_last_chunk_and_the_connection_is_kept(asgi):
    s = asgi.connect()
    s.sendall(b"GET /trailers HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    received = read_until_closed(s)
    head, _, rest = received.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    body, _, second = rest.partition(b"HTTP/1.1 ")
    # Both trailer messages (more_trailers), in order, after the last chunk.
    assert body == b"4\r\none \r\n4\r\ntwo \r\n0\r\nx-checksum: c1\r\nX-Status: 0\r\n\r\n", body
    assert second.startswith(b"200 OK") and second.endswith(b"Hello, World!")
    assert "http.response.trailers" in get(asgi, "/echo").json()["extensions"]


def dechunk(raw: bytes) -> tuple[bytes, bytes]:
    """A chunked body's bytes and its trailer section, checking the framing."""
    body = bytearray()
    while True:
        size_line, _, raw = raw.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return bytes(body), raw
        assert raw[size:size + 2] == b"\r\n", "a chunk not followed by CRLF"
        body += raw[:size]
        raw = raw[size + 2:]


@pytest.mark.parametrize("path", ["/trailers-empty", "/trailers-pathsend"])
def test_trailers_after_an_empty_body_or_a_file_are_sent_in_chunked_framing(asgi, path):
    s = asgi.connect()
    s.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" % path.encode())
    head, _, rest = read_until_closed(s).partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower() and b"content-length" not in head.lower(), head
    body, trailers = dechunk(rest)
    assert body == (b"" if path == "/trailers-empty" else bytes(range(256)) * 2048)
    assert trailers == b"x-after: %s\r\n\r\n" % path.encode(), trailers


def test_trailers_are_dropped_from_a_body_framed_by_content_length(asgi):
    s = asgi.connect()
    s.sendall(b"GET /trailers?length=1 HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert status == 200 and headers["content-length"] == "8" and body == b"one two "
    status, _, body, _ = read_response(s)  # nothing stray between the two answers
    assert status == 200 and body == b"Hello, World!"
    assert wait_for_record(asgi, "/trailers sent length=True"), calls(asgi)


def test_an_app_that_returns_without_its_promised_trailers_leaves_the_response_cut(asgi):
    s = asgi.connect()
    s.sendall(b"GET /trailers-missing HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    received = read_until_closed(s)
    assert b"no trailers follow" in received and not received.endswith(b"0\r\n\r\n"), received
    assert b"Hello, World!" not in received, "the connection was reused after the cut response"
    assert get(asgi, "/hello").status_code == 200


def test_a_server_sent_events_loop_ends_when_the_client_goes_away(asgi):
    s = asgi.connect()
    s.sendall(b"GET /sse?tag=sse1 HTTP/1.1\r\nHost: t\r\n\r\n")
    s.settimeout(5)
    assert b"data: tick" in s.recv(65536)
    s.close()
    assert wait_for_record(asgi, "sse1 ended"), calls(asgi)


def test_a_waiting_receive_gets_http_disconnect_when_the_client_aborts(asgi):
    s = asgi.connect()
    s.sendall(b"POST /wait-disconnect?tag=w1 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi")
    time.sleep(0.2)
    reset_close(s)
    assert wait_for_record(asgi, "w1 got http.disconnect"), calls(asgi)


def test_send_after_a_disconnect_raises_an_oserror(asgi):
    s = asgi.connect()
    s.sendall(b"GET /send-after-disconnect?tag=sad1 HTTP/1.1\r\nHost: t\r\n\r\n")
    s.settimeout(5)
    assert b"first" in s.recv(65536)
    reset_close(s)
    deadline = time.monotonic() + 5
    outcome: list[str] = []
    while not outcome and time.monotonic() < deadline:
        outcome = [line for line in calls(asgi) if line.startswith("sad1 send after the disconnect ")]
        time.sleep(0.02)
    assert outcome == ["sad1 send after the disconnect raised ClientDisconnected OSError=True"], outcome


def test_a_send_waiting_for_the_window_raises_an_oserror_when_the_client_resets(asgi):
    s = asgi.connect()
    # 30 MB, more than the socket buffers on both sides take: with the client
    # reading nothing, a send() is waiting for the window when it resets.
    s.sendall(b"GET /stream?count=20&size=1500000&tag=big1 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.3)
    reset_close(s)
    assert wait_for_record(asgi, "big1 stream send raised ClientDisconnected OSError=True"), calls(asgi)
    assert asgi.proc.poll() is None, "the server died"
    assert get(asgi, "/hello").status_code == 200


@pytest.mark.parametrize("path", ["/raise-before-start"])
def test_an_app_that_raises_before_starting_gets_a_500_and_a_closed_connection(asgi, path):
    mark = asgi.log_mark()
    s = asgi.connect()
    s.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
    status, headers, _, _ = read_response(s)
    assert status == 500
    assert headers.get("connection") == "close"
    assert closed_by_peer(s), "the connection stayed open after the 500"
    assert asgi.wait_for_log("Traceback (most recent call last)", since=mark)
    assert f"(GET {path} from 127.0.0.1:" in asgi.log_since(mark)
    assert get(asgi, "/hello").status_code == 200


def test_an_app_that_raises_after_starting_closes_the_connection_without_a_second_status(asgi):
    s = asgi.connect()
    s.sendall(b"GET /raise-after-start HTTP/1.1\r\nHost: t\r\n\r\n")
    received = read_until_closed(s)
    assert received.startswith(b"HTTP/1.1 200 OK") and received.count(b"HTTP/1.1") == 1
    assert b"partial" in received and not received.endswith(b"0\r\n\r\n"), "the cut response looked complete"
    assert get(asgi, "/hello").status_code == 200


@pytest.mark.parametrize("path,error", [("/start-twice", "RuntimeError"), ("/body-after-end", "RuntimeError"),
                                        ("/bad-header", "ValueError"), ("/bad-header-value", "ValueError"),
                                        ("/trailers-undeclared", "RuntimeError"), ("/trailers-early", "RuntimeError"),
                                        ("/trailers-forbidden", "ValueError")])
def test_a_protocol_error_is_raised_to_the_app_and_the_connection_closed(asgi, path, error):
    s = asgi.connect()
    s.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
    received = read_until_closed(s)
    assert b"owned" not in received
    assert received.count(b"Hello, World!") == 0, "the connection was reused after the error"
    assert wait_for_record(asgi, f"{path} raised {error}"), calls(asgi)
    assert get(asgi, "/hello").status_code == 200


def test_answers_never_cross_between_requests_while_clients_vanish(asgi):
    wrong, answered = crosstalk_probe(asgi.connect, clients=6, rounds=40, sizes=[0, 10, 3000, 70000, 300000])
    assert not wrong, wrong
    assert answered > 6 * 40 // 2


def test_requests_that_arrive_together_start_in_turns_of_at_most_32(start_asgi):
    # Every request's scope, task and coroutine live until its task runs:
    # hundreds started at once push Python's youngest generation past its
    # threshold again and again (collections, and survivors moved to the
    # older generations). The app holds the event loop while 200 requests
    # arrive, so that the pass after it finds them all.
    server = start_asgi()
    clients = [server.connect(timeout=10) for _ in range(200)]
    for c in clients:  # every connection accepted and idle before the hold
        c.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    assert all(read_response(c)[0] == 200 for c in clients)
    hog = server.connect(timeout=10)
    hog.sendall(b"GET /hog?ms=300 HTTP/1.1\r\nHost: t\r\n\r\n")
    assert wait_for_record(server, "GET /hog")
    for c in clients:
        c.sendall(b"GET /turn HTTP/1.1\r\nHost: t\r\n\r\n")
    largest = 0
    for c in clients:
        status, _, body, _ = read_response(c)
        assert status == 200
        largest = max(largest, int(body))
        c.close()
    assert read_response(hog)[:3:2] == (200, b"hogged")
    assert 1 < largest <= 32, largest


def test_a_request_object_reused_while_its_notice_is_queued_keeps_the_server_answering(start_asgi, asgi_shape):
    # The first request's object ends with its client's reset still queued
    # as news; the second request takes that object while the notice is
    # queued, and its body arrives before the drain that started it takes
    # the news. Linking the object twice made the news list a cycle: the
    # asyncio thread spun in the drain and the server answered no one.
    # Pump only: the interleaving needs the loop on its own thread.
    if "inverted" in asgi_shape:
        pytest.skip("one thread: the loop cannot run while the drain is busy")
    server = start_asgi(app="tests.integration.apps.asgi_apps:request_object_reuse")
    first = server.connect()
    first.sendall(b"GET /hold HTTP/1.1\r\nHost: t\r\n\r\n")
    assert wait_for_record(server, "holding")
    reset_close(first)  # its notice is queued while the app still holds
    body = b"x" * 200000
    second = server.connect(timeout=5)
    second.sendall(b"POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:1000])
    assert wait_for_record(server, "starting the next request")
    second.sendall(body[1000:])  # arrives while the drain is starting it
    status, _, answer, _ = read_response(second)
    assert (status, answer) == (200, b"got 200000")
    second.close()
    assert get(server, "/hello").status_code == 200


def test_lifespan_shutdown_runs_and_a_stop_exits_zero(start_asgi):
    server = start_asgi()
    assert wait_for_record(server, "lifespan startup")
    assert get(server, "/hello").status_code == 200
    server.signal(signal.SIGTERM)
    assert server.wait(10) == 0
    assert "lifespan shutdown" in calls(server)


def test_a_failed_startup_exits_non_zero_with_the_apps_message(start_asgi, asgi_shape):
    proc = Server(["--port", "0", *asgi_shape, "tests.integration.apps.asgi_apps:failing_startup"])
    with pytest.raises(RuntimeError) as failure:
        proc.start(timeout=10)
    assert "the database is not there" in str(failure.value)
    assert proc.proc.returncode not in (0, None)


def test_an_app_without_lifespan_support_is_served_anyway(start_asgi):
    server = start_asgi(app="tests.integration.apps.asgi_apps:no_lifespan")
    assert get(server, "/").text == "served without lifespan"


def test_a_request_runs_in_a_task_of_its_own_name(asgi):
    assert get(asgi, "/task").text == "Task baton.request"


def test_a_task_factory_the_app_installs_makes_the_request_tasks(start_asgi):
    server = start_asgi(app="tests.integration.apps.asgi_apps:task_factory")
    assert get(server, "/task").text.startswith("FactoryTask ")


def test_tasks_cancelled_before_their_first_step_give_back_their_place_in_the_turn(start_asgi):
    # A turn starts requests only while fewer than 32 tasks wait for their
    # first step. Tasks cancelled before it end without one: if they kept
    # their places, 32 of them would stop the server from starting any
    # request again.
    server = start_asgi(app="tests.integration.apps.asgi_apps:cancel_early")
    assert get(server, "/arm?n=40").text == "armed"
    for _ in range(40):
        assert get(server, "/hello").status_code == 500
    assert get(server, "/hello").status_code == 200


def test_an_app_that_returns_an_awaitable_rather_than_a_coroutine_is_served(start_asgi):
    # Not an async def, so auto would take it for WSGI: the interface is named.
    server = start_asgi("--interface", "asgi", app="tests.integration.apps.asgi_apps:awaitable_app")
    assert get(server, "/").text == "awaited"
    mark = server.log_mark()
    assert get(server, "/not-awaitable").status_code == 500
    assert server.wait_for_log("int, which cannot be awaited", since=mark)
    assert "(GET /not-awaitable from 127.0.0.1:" in server.log_since(mark)
    assert get(server, "/").text == "awaited"


def test_a_request_task_shows_the_apps_frames_to_debuggers(asgi):
    info = get(asgi, "/stack").json()
    assert info["frames"][-1] == "app", info  # Task.get_stack() reaches the app's own coroutine
    assert "coro=<app() running at" in info["repr"], info["repr"]


def test_a_cancelled_request_task_answers_500_and_the_server_goes_on(asgi):
    mark = asgi.log_mark()
    assert get(asgi, "/cancelled").status_code == 500
    assert asgi.wait_for_log("without completing its response", since=mark)
    assert get(asgi, "/hello").status_code == 200


def test_a_request_whose_task_is_dropped_unfinished_gets_500_when_it_is_collected(asgi):
    mark = asgi.log_mark()
    s = asgi.connect()
    s.sendall(b"GET /orphan HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.2)
    assert get(asgi, "/collect").text == "collected"
    status, _, _, _ = read_response(s)
    assert status == 500
    assert asgi.wait_for_log("GeneratorExit", since=mark)
    assert "(GET /orphan from 127.0.0.1:" in asgi.log_since(mark)


def test_lifespan_off_never_calls_the_app_with_a_lifespan_scope(start_asgi):
    server = start_asgi("--lifespan", "off")
    assert get(server, "/echo").json()["state"] == {}
    assert "lifespan startup" not in calls(server)


def test_sigterm_answers_a_request_in_flight_at_once_and_runs_lifespan_shutdown(start_asgi):
    server = start_asgi("--graceful-timeout", "5")
    result = {}

    def slow():
        t0 = time.monotonic()
        r = httpx.get(server.url + "/slow?ms=1500", timeout=10)
        result.update(status=r.status_code, body=r.content, elapsed=time.monotonic() - t0)

    t = threading.Thread(target=slow)
    t.start()
    time.sleep(0.3)
    server.signal(signal.SIGTERM)
    t.join(10)
    assert result["status"] == 200 and result["body"] == b"slow done"
    assert result["elapsed"] < 2.5, "the drain froze until its budget"
    assert server.wait(10) == 0
    assert "lifespan shutdown" in calls(server)


def test_a_second_sigint_stops_at_once(start_asgi):
    server = start_asgi("--graceful-timeout", "30")
    s = server.connect()
    s.sendall(b"GET /slow?ms=60000 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.3)
    server.signal(signal.SIGINT)
    time.sleep(0.2)
    t0 = time.monotonic()
    server.signal(signal.SIGINT)
    server.wait(10)
    assert time.monotonic() - t0 < 1.5


# --asgi-mode auto (the default): the pump where each process has two CPUs of
# its own, inverted where its two threads would share one. Real processes with
# a real affinity; the shape is what each one says it serves with.
@pytest.mark.parametrize("cpus, workers, shape", [
    ({0}, 0, "inverted"),
    ({0, 1}, 0, "pump"),
    ({0, 1}, 2, "inverted"),
], ids=["one-cpu", "two-cpus", "two-cpus-two-workers"])
def test_asgi_mode_auto_runs_the_pump_only_with_two_cpus_per_process(cpus, workers, shape):
    if not cpus <= os.sched_getaffinity(0):
        pytest.skip(f"needs CPUs {sorted(cpus)}")
    args = ["--port", "0", "--log-level", "info", *(["--workers", str(workers)] if workers else []), APP]
    server = Server(args, cpus=cpus).start()
    try:
        line = f"ASGI, {shape} on"
        deadline = time.monotonic() + 10
        while server.log.count(line) < max(1, workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.log.count(line) == max(1, workers), server.log  # each worker, once
        assert httpx.get(server.url + "/hello", timeout=10).status_code == 200
        other = "pump" if shape == "inverted" else "inverted"
        assert f"ASGI, {other} on" not in server.log
    finally:
        server.stop()


# A benchmark switch chooses only what an option left to auto: the command
# line's --asgi-mode wins over BATON_X_INVERTED, and a switch's former name
# is named in a warning and otherwise ignored.
@pytest.mark.parametrize("mode, env, shape", [
    ("auto", {"BATON_X_INVERTED": "1"}, "inverted"),
    ("pump", {"BATON_X_INVERTED": "1"}, "pump"),
    ("pump", {"BATON_INVERTED": "1"}, "pump"),
], ids=["switch-with-auto", "explicit-pump-wins", "former-name-ignored"])
def test_the_inverted_switch_never_overrides_an_explicit_asgi_mode(mode, env, shape):
    server = Server(["--port", "0", "--log-level", "info", "--asgi-mode", mode, APP], env=env,
                    cpus={0, 1} if {0, 1} <= os.sched_getaffinity(0) else None).start()
    try:
        assert httpx.get(server.url + "/hello", timeout=10).status_code == 200
        assert f"ASGI, {shape} on" in server.log, server.log
        if "BATON_INVERTED" in env:
            assert "ignored: BATON_INVERTED (now BATON_X_INVERTED)" in server.log
    finally:
        server.stop()
