"""HTTP/1.1 behaviour over real sockets: keep-alive, pipelining, HTTP/1.0,
100-continue, bodies, and every malformed shape getting its status."""

import json
import socket
import time

import pytest

from tests.integration.server import closed_by_peer, read_response


def calls(server) -> list[str]:
    try:
        return server.record.read_text().splitlines()
    except FileNotFoundError:
        return []


def test_keep_alive_reuses_one_connection(server):
    s = server.connect()
    local_port = str(s.getsockname()[1])
    for _ in range(5):
        s.sendall(b"GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, body, _ = read_response(s)
        assert status == 200 and "connection" not in headers
        # The server saw every request on this very connection.
        assert json.loads(body)["remote_port"] == local_port
    assert not closed_by_peer(s, timeout=0.3), "the server closed a keep-alive connection"


def test_ten_pipelined_requests_are_answered_in_order(server):
    s = server.connect()
    s.sendall(b"".join(b"GET /echo?n=%d HTTP/1.1\r\nHost: t\r\n\r\n" % i for i in range(10)))
    for i in range(10):
        status, _, body, _ = read_response(s)
        assert status == 200
        assert json.loads(body)["query"] == f"n={i}"


def test_pipelined_posts_keep_their_own_bodies(server):
    s = server.connect()
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"
              b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n0\r\n\r\n"
              b"GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
    bodies = [json.loads(read_response(s)[2])["body_length"] for _ in range(3)]
    assert bodies == [3, 2, 0]


def test_unread_body_is_skipped_before_the_next_request(server):
    s = server.connect()
    s.sendall(b"POST /no-read HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello"
              b"GET /echo?after HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(s)[0] == 200
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["query"] == "after"


def test_an_unread_body_within_the_window_is_dropped_and_the_connection_kept(server):
    # 300 KB: past what is read before the app runs (64 KiB), within the
    # body window (1 MiB). The app answers without reading; the server reads
    # the rest, drops it, and serves the next request on the same connection.
    s = server.connect()
    local_port = str(s.getsockname()[1])
    body = b"x" * 300_000
    s.sendall(b"POST /no-read HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body) + body
              + b"GET /echo?after HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, _, _ = read_response(s)
    assert status == 200 and "connection" not in headers
    status, _, echoed, _ = read_response(s)
    data = json.loads(echoed)
    assert status == 200 and data["query"] == "after" and data["remote_port"] == local_port


def test_an_unread_body_past_the_window_closes_the_connection_after_the_answer(server):
    s = server.connect()
    s.sendall(b"POST /no-read HTTP/1.1\r\nHost: t\r\nContent-Length: 3000000\r\n\r\n" + b"x" * 100_000)
    status, headers, _, _ = read_response(s)
    assert status == 200 and headers.get("connection") == "close"


def test_http10_closes_by_default(server):
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.0\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert status == 200 and body == b"Hello, World!"
    assert headers.get("connection") == "close"
    assert closed_by_peer(s)


def test_http10_keep_alive_is_honoured(server):
    s = server.connect()
    for _ in range(2):
        s.sendall(b"GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        status, headers, body, _ = read_response(s)
        assert status == 200 and headers["connection"] == "keep-alive"


def test_http10_streamed_body_is_close_delimited(server):
    s = server.connect()
    s.sendall(b"GET /stream?count=3&size=2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert "transfer-encoding" not in headers and headers["connection"] == "close"
    assert body == b"AABBCC"


def test_connection_close_request_gets_close(server):
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    status, headers, _, _ = read_response(s)
    assert headers["connection"] == "close"
    assert closed_by_peer(s)


def test_date_header_is_present_and_valid(server):
    s = server.connect()
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    _, headers, _, _ = read_response(s)
    time.strptime(headers["date"], "%a, %d %b %Y %H:%M:%S GMT")


def test_absolute_form_target_routes_by_its_path(server):
    s = server.connect()
    s.sendall(b"GET http://example.com/echo?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
    status, _, body, _ = read_response(s)
    data = json.loads(body)
    assert status == 200 and data["path"] == "/echo" and data["query"] == "q=1"


def test_100_continue_is_sent_only_when_the_app_reads(server):
    s = server.connect()
    s.settimeout(5)
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
    interim = s.recv(100)
    assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
    s.sendall(b"hello")
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["body_length"] == 5


def test_100_continue_is_not_sent_when_the_app_does_not_read(server):
    s = server.connect()
    s.sendall(b"POST /no-read HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
    status, headers, body, raw = read_response(s)
    assert status == 200 and not raw.startswith(b"HTTP/1.1 100")
    # The body never came, so the connection cannot be reused.
    assert headers["connection"] == "close"


def test_ten_megabyte_upload(server):
    s = server.connect(timeout=30)
    payload = b"x" * (10 * 1024 * 1024)
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["body_length"] == len(payload)


def test_chunked_upload_in_many_pieces(server):
    s = server.connect(timeout=30)
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
    total = 0
    for i in range(200):
        piece = bytes([97 + i % 26]) * (1000 + i)
        s.sendall(b"%x\r\n" % len(piece) + piece + b"\r\n")
        total += len(piece)
    s.sendall(b"0\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["body_length"] == total


# --- bad input: the right status, Connection: close, and the app never sees it ---

BAD_REQUESTS = [
    ("content-length with transfer-encoding", b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("differing duplicate content-length", b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
     b"Content-Length: 4\r\n\r\nabcd", 400),
    ("transfer-encoding not ending in chunked", b"POST /echo HTTP/1.1\r\nHost: t\r\n"
     b"Transfer-Encoding: chunked, identity\r\n\r\n", 400),
    ("unknown transfer coding", b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
    ("obs-fold", b"GET /echo HTTP/1.1\r\nHost: t\r\nX-A: one\r\n two\r\n\r\n", 400),
    ("bare CR in a header", b"GET /echo HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n", 400),
    ("bare LF line end", b"GET /echo HTTP/1.1\nHost: t\n\n", 400),
    ("NUL in a header value", b"GET /echo HTTP/1.1\r\nHost: t\r\nX-A: a\x00b\r\n\r\n", 400),
    ("whitespace before colon", b"GET /echo HTTP/1.1\r\nHost: t\r\nX-A : b\r\n\r\n", 400),
    ("bad chunk size", b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n",
     400),
    ("missing Host in HTTP/1.1", b"GET /echo HTTP/1.1\r\n\r\n", 400),
    ("unsupported version", b"GET /echo HTTP/2.0\r\nHost: t\r\n\r\n", 505),
    ("malformed version", b"GET /echo HTTP/1.10\r\nHost: t\r\n\r\n", 400),
    ("invalid method", b"G(ET /echo HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("request-target too long", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    ("header section too large", b"GET /echo HTTP/1.1\r\nHost: t\r\nX-Big: " + b"b" * 40000 + b"\r\n\r\n", 431),
    ("too many header fields", b"GET /echo HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(101))
     + b"\r\n", 431),
    ("body over --max-body-size", b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 30000000\r\n\r\n", 413),
    ("unsupported expectation", b"POST /echo HTTP/1.1\r\nHost: t\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx", 417),
]


@pytest.mark.parametrize("raw,status", [(r, s) for _, r, s in BAD_REQUESTS], ids=[n for n, _, _ in BAD_REQUESTS])
def test_malformed_request_gets_its_status_and_close_and_never_reaches_the_app(server, raw, status):
    before = calls(server)
    s = server.connect()
    s.sendall(raw)
    got, headers, _, _ = read_response(s)
    assert got == status
    assert headers["connection"] == "close"
    assert closed_by_peer(s)
    # The app saw nothing: the bad request (and its body) never became a call.
    s2 = server.connect()
    s2.sendall(b"GET /echo?still-serving HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(s2)[0] == 200
    assert calls(server)[len(before):] == ["GET /echo?still-serving"]


def test_chunked_body_over_the_limit_gets_413(start_server):
    server = start_server("--max-body-size", "1000", "tests.integration.apps.wsgi_apps:app")
    s = server.connect()
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
              + b"".join(b"100\r\n" + b"z" * 256 + b"\r\n" for _ in range(5)) + b"0\r\n\r\n")
    status, headers, _, _ = read_response(s)
    assert status == 413 and headers["connection"] == "close"


def test_malformed_chunk_discovered_while_the_app_reads_gets_400(server):
    s = server.connect()
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX")
    status, headers, _, _ = read_response(s)
    assert status == 400 and headers["connection"] == "close"


# More good chunks than the 64 KiB read before the app runs: the app is
# reading the body when what follows them arrives.
GOOD_CHUNKS = b"".join(b"1000\r\n" + b"g" * 4096 + b"\r\n" for _ in range(32))
CHUNKED_POST = b"POST /read-outcome HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"


@pytest.mark.parametrize("tail", [b"ZZ\r\n", None], ids=["malformed chunk", "end of input"])
def test_a_body_error_after_the_app_started_fails_its_read_and_answers_400(start_server, tmp_path, tail):
    record = tmp_path / "calls.log"
    server = start_server("tests.integration.apps.wsgi_apps:app", env={"BATON_TEST_RECORD": str(record)})
    s = server.connect()
    s.sendall(CHUNKED_POST + GOOD_CHUNKS)
    deadline = time.monotonic() + 5
    while "POST /read-outcome" not in (record.read_text() if record.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.01)
    if tail is None:
        s.shutdown(socket.SHUT_WR)
    else:
        s.sendall(tail)
    status, headers, _, _ = read_response(s)
    assert status == 400 and headers["connection"] == "close"
    lines = record.read_text().splitlines()
    assert "POST /read-outcome" in lines, "the app never ran: the error was found before it"
    assert "read error: request body incomplete or malformed" in lines, lines


def test_a_chunked_body_over_the_limit_after_the_app_started_fails_its_read_and_answers_413(start_server, tmp_path):
    record = tmp_path / "calls.log"
    server = start_server("--max-body-size", "200000", "tests.integration.apps.wsgi_apps:app",
                          env={"BATON_TEST_RECORD": str(record)})
    s = server.connect()
    s.sendall(CHUNKED_POST + GOOD_CHUNKS)
    deadline = time.monotonic() + 5
    while "POST /read-outcome" not in (record.read_text() if record.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.01)
    # The app is reading: these take the body past the limit.
    s.sendall(GOOD_CHUNKS + b"0\r\n\r\n")
    status, headers, _, _ = read_response(s)
    assert status == 413 and headers["connection"] == "close"
    lines = record.read_text().splitlines()
    assert "POST /read-outcome" in lines, "the app never ran: the limit was hit before it"
    assert "read error: request body too large" in lines, lines


def test_eof_inside_a_request_head_gets_400(server):
    s = server.connect()
    s.sendall(b"GET /echo HTTP/1.1\r\nHost: t\r\nX-Partial: ")
    s.shutdown(socket.SHUT_WR)
    status, headers, _, _ = read_response(s)
    assert status == 400
