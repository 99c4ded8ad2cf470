"""103 Early Hints (RFC 8297) on real sockets, in both ASGI shapes (the
http.response.early_hint extension) and both WSGI shapes (gunicorn's
environ["wsgi.early_hints"]): each hint goes out at once as an interim
response with its Link fields, ahead of the final one and while the app is
still at work on it; over HTTP/1.1, over HTTP/2 as a HEADERS frame that
leaves the stream open (h2c and TLS); never to an HTTP/1.0 client; a
malformed link is the app's error and the client's 500; a hint after the
head went out is dropped, and one after the ASGI response ended raises.
Clients: curl, raw sockets, the h2 library (tests/integration/h2client.py),
and Debian's Chromium, which fetches what a 103 preloads before the final
response exists and uses it."""

import subprocess
import time

import pytest

from tests.conftest import ASGI_SHAPES, SHAPES, tls_args
from tests.integration.browser import chromium
from tests.integration.h2client import H2Client
from tests.integration.server import Server, read_response, read_until_closed

APPS = "tests.integration.apps.early_hint_apps"
HINT_SHAPES = {
    "asgi-pump": ["--interface", "asgi", *ASGI_SHAPES["pump-asyncio"], f"{APPS}:asgi"],
    "asgi-inverted": ["--interface", "asgi", *ASGI_SHAPES["inverted-uvloop"], f"{APPS}:asgi"],
    "wsgi-inline": ["--interface", "wsgi", *SHAPES["inline"], f"{APPS}:wsgi"],
    "wsgi-pool": ["--interface", "wsgi", *SHAPES["pool-4"], f"{APPS}:wsgi"],
}
LINK = "</style{}.css>; rel=preload; as=style"


def start(shape: str, record, *extra: str) -> Server:
    server = Server(["--port", "0", *extra, *HINT_SHAPES[shape]], env={"BATON_TEST_RECORD": str(record)}).start()
    server.record = record
    server.shape = shape
    return server


@pytest.fixture(scope="module", params=list(HINT_SHAPES))
def hinted(request, tmp_path_factory):
    """A plain (h2c-capable) server of each shape, one per module."""
    server = start(request.param, tmp_path_factory.mktemp("record") / "calls.log")
    yield server
    server.stop()


@pytest.fixture(params=list(HINT_SHAPES))
def hinted_tls(request, tls_certificates, tmp_path):
    server = start(request.param, tmp_path / "calls.log", *tls_args(tls_certificates))
    yield server
    server.stop()


def recorded(server, text: str, timeout: float = 5.0) -> list[str]:
    """The record's lines that hold `text`, waiting for one to appear."""
    deadline = time.monotonic() + timeout
    while True:
        lines = server.record.read_text().splitlines() if server.record.exists() else []
        found = [line for line in lines if text in line]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.02)


def curl(server, path: str, *options: str) -> tuple[list[str], str]:
    """curl -v's response lines ("< ..."), in order, and the body."""
    out = subprocess.run(["curl", "-sv", "-k", *options, f"{server.url}{path}"], capture_output=True, text=True,
                         timeout=20)
    heads = [line[2:].strip() for line in out.stderr.splitlines() if line.startswith("< ")]
    return [line for line in heads if line], out.stdout


def heads_and_links(lines: list[str]) -> list[str]:
    """The status lines and Link fields, Link names in lower case."""
    out = []
    for line in lines:
        if line.startswith("HTTP/"):
            out.append(line)
        elif line.lower().startswith("link:"):
            out.append("link:" + line[5:])
    return out


def raw_exchange(server, request: bytes) -> tuple[float, bytes, float, bytes]:
    """Sends `request` on a new connection; returns when the first head ended and
    the bytes up to it, then when the connection closed and what came after."""
    sock = server.connect()
    try:
        t0 = time.monotonic()
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, data
            data += chunk
        first_at = time.monotonic() - t0
        first, _, rest = data.partition(b"\r\n\r\n")
        rest += read_until_closed(sock)
        return first_at, first + b"\r\n\r\n", time.monotonic() - t0, rest
    finally:
        sock.close()


# --- HTTP/1.1 -------------------------------------------------------------------


def test_curl_sees_each_hint_as_a_103_with_its_link_before_the_200(hinted):
    lines, body = curl(hinted, "/hints?n=2", "--http1.1")
    assert heads_and_links(lines) == [
        "HTTP/1.1 103 Early Hints", f"link: {LINK.format(0)}",
        "HTTP/1.1 103 Early Hints", f"link: {LINK.format(1)}",
        "HTTP/1.1 200 OK",
    ], lines
    assert body == "done"


def test_the_103_goes_out_while_the_app_is_still_working(hinted):
    first_at, first, done_at, rest = raw_exchange(
        hinted, b"GET /hints?n=1&delay=800 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 103 Early Hints\r\n"), first
    assert f"\r\nlink: {LINK.format(0)}\r\n".encode() in first.lower(), first
    assert first_at < 0.6, f"the 103 came after {first_at:.3f}s, with the final response"
    assert rest.startswith(b"HTTP/1.1 200 OK\r\n"), rest
    assert done_at >= 0.75


def test_an_http10_client_gets_no_103(hinted):
    _, first, _, rest = raw_exchange(hinted, b"GET /hints?n=2 HTTP/1.0\r\nHost: t\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 200 OK\r\n"), first
    assert b"103" not in first + rest and b"style0" not in first + rest
    assert rest.endswith(b"done")


def test_a_malformed_link_raises_in_the_app_and_the_client_gets_a_500(hinted):
    mark = hinted.log_mark()
    lines, _ = curl(hinted, "/bad-link", "--http1.1")
    assert heads_and_links(lines) == ["HTTP/1.1 500 Internal Server Error"], lines
    assert not any(line.lower().startswith("x-injected") for line in lines), lines
    assert set(recorded(hinted, "bad-link raised")) == {"bad-link raised ValueError"}
    # The traceback names the request (logged as the 500 goes, not before it).
    assert hinted.wait_for_log("invalid early hint", since=mark), hinted.log_since(mark)
    assert "GET /bad-link" in hinted.log_since(mark)


# --- HTTP/2 ---------------------------------------------------------------------


def test_curl_over_h2c_sees_the_103s_before_the_200(hinted):
    lines, body = curl(hinted, "/hints?n=2", "--http2-prior-knowledge")
    assert heads_and_links(lines) == [
        "HTTP/2 103", f"link: {LINK.format(0)}", "HTTP/2 103", f"link: {LINK.format(1)}", "HTTP/2 200",
    ], lines
    assert body == "done"


def check_h2_hints(server, tls: bool) -> None:
    """Three hints on one stream, each an informational response that came
    while the app still worked, then the final response on the same stream."""
    client = H2Client(server, tls=tls)
    try:
        t0 = time.monotonic()
        sid = client.request("/hints?n=3&delay=800")
        assert client.wait(lambda: len(client.responses[sid].interim) == 3, timeout=5)
        r = client.responses[sid]
        assert r.status is None, "the final response came with the hints"
        assert r.interim_times[-1] - t0 < 0.6
        assert client.wait(lambda: client.finished(sid))
        assert [dict(fields)[":status"] for fields in r.interim] == ["103"] * 3
        assert [[v for n, v in fields if n == "link"] for fields in r.interim] == [[LINK.format(i)] for i in range(3)]
        assert r.status == 200 and bytes(r.data) == b"done"
        assert r.final_time - t0 >= 0.75
        # The connection goes on.
        assert client.get("/hints?n=0").status == 200
    finally:
        client.close()


def test_an_h2c_client_sees_informational_responses_then_the_final_one(hinted):
    check_h2_hints(hinted, tls=False)


def test_over_tls_http2_carries_the_hints_too(hinted_tls):
    check_h2_hints(hinted_tls, tls=True)
    lines, body = curl(hinted_tls, "/hints?n=1", "--http2")
    assert heads_and_links(lines) == ["HTTP/2 103", f"link: {LINK.format(0)}", "HTTP/2 200"], lines
    assert body == "done"


def test_a_malformed_link_over_http2_is_a_500_and_the_connection_goes_on(hinted):
    client = H2Client(hinted)
    try:
        r = client.get("/bad-link")
        assert r.status == 500 and r.interim == []
        assert client.get("/hints?n=1").interim != []
    finally:
        client.close()


# --- where in the response a hint may come -------------------------------------


def interface(server) -> str:
    return server.shape.split("-")[0]


def test_the_asgi_scope_advertises_the_extension(hinted):
    if interface(hinted) != "asgi":
        pytest.skip("an ASGI scope")
    _, body = curl(hinted, "/extensions")
    assert "'http.response.early_hint'" in body


def test_an_asgi_hint_after_the_response_start_still_precedes_the_head(hinted):
    # The extension's text allows it until the final body: the head goes
    # out with the first body message, so the hint is still in time.
    if interface(hinted) != "asgi":
        pytest.skip("ASGI's http.response.start")
    lines, body = curl(hinted, "/after-start", "--http1.1")
    assert heads_and_links(lines) == [
        "HTTP/1.1 103 Early Hints", "link: </after-start.css>; rel=preload", "HTTP/1.1 200 OK"], lines
    assert body == "done"


def test_a_hint_after_the_head_went_out_is_dropped(hinted):
    path, mark = ("/after-body", "after-body returned") if interface(hinted) == "asgi" else \
        ("/after-write", "after-write returned")
    for options in (["--http1.1"], ["--http2-prior-knowledge"]):
        lines, body = curl(hinted, path, *options)
        assert [line for line in heads_and_links(lines) if not line.startswith("link")] == \
            [line for line in heads_and_links(lines) if " 200" in line], lines
        assert "late.css" not in "".join(lines) and body == "first done"
    assert recorded(hinted, mark)


def test_an_asgi_hint_after_the_final_body_raises(hinted):
    if interface(hinted) != "asgi":
        pytest.skip("ASGI's message order")
    lines, body = curl(hinted, "/after-complete", "--http1.1")
    assert heads_and_links(lines) == ["HTTP/1.1 200 OK"] and body == "done"
    assert recorded(hinted, "after-complete raised") == [
        "after-complete raised RuntimeError: http.response.early_hint sent after the response body was complete"]


def test_wsgi_hints_may_be_given_as_bytes(hinted):
    if interface(hinted) != "wsgi":
        pytest.skip("gunicorn's callable takes str or bytes")
    lines, _ = curl(hinted, "/bytes", "--http1.1")
    assert heads_and_links(lines) == ["HTTP/1.1 103 Early Hints", "link: </bytes.css>; rel=preload",
                                      "HTTP/1.1 200 OK"], lines


def test_a_kept_wsgi_early_hints_raises_after_its_request_and_hints_no_other(hinted):
    # The callable is reused by the next request only when the app let go of
    # it; one the app kept belongs to its request alone, on the same
    # connection and on another.
    if interface(hinted) != "wsgi":
        pytest.skip("gunicorn's callable")
    for client in range(2):
        sock = hinted.connect()
        try:
            for path in ("/keep", "/call-kept", "/call-kept") if client == 0 else ("/call-kept",):
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
                status, _, body, _ = read_response(sock)
                assert (status, body) == (200, b"done"), path
        finally:
            sock.close()
    assert recorded(hinted, "call-kept") == ["call-kept raised RuntimeError"] * 3


# --- Chromium -------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["asgi-pump", "wsgi-pool"])
def test_chromium_fetches_what_the_103_preloads_before_the_page_exists_and_uses_it(shape, tls_certificates,
                                                                                     tmp_path):
    """Chromium honours Early Hints on navigations over HTTP/2: the page's
    final response comes 500 ms after its 103, and the stylesheet and script
    the 103 names are asked for before that response was sent (so from the
    103 alone), and not again once the page uses them."""
    server = start(shape, tmp_path / "calls.log", *tls_args(tls_certificates), "--access-log")
    try:
        with chromium(f"{server.url}/page", tmp_path / "profile", trusted_cert=tls_certificates.cert):
            assert recorded(server, "done ", timeout=60), server.record.read_text()
    finally:
        server.stop()
    times: dict[str, list[float]] = {}
    for line in server.record.read_text().splitlines():
        what, _, at = line.partition(" ")
        times.setdefault(what, []).append(float(at))
    final = times["final"][0]
    assert times["preload.css"][0] < final - 0.2, times
    assert times["preload.js"][0] < final - 0.2, times
    assert len(times["preload.css"]) == 1 and len(times["preload.js"]) == 1, times
    assert '"GET /page HTTP/2.0" 200' in server.log
