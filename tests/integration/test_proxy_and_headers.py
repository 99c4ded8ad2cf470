"""Behind a proxy, and the fields baton adds: X-Forwarded-* and Forwarded from
trusted peers only (WSGI environ and ASGI scope), one Date (the app's wins),
the Server header, SERVER_SOFTWARE, 413 for a chunked body over the limit,
failing requests named in the log, the Unix socket's mode."""

import json
import os
import socket
import stat

import httpx
import pytest

from tests.integration.server import Server, read_response

OPS = "tests.integration.apps.ops_apps:app"
OPS_ASGI = "tests.integration.apps.ops_apps:asgi_app"

FORWARDED = {"X-Forwarded-For": "203.0.113.7, 10.0.0.1", "X-Forwarded-Proto": "https", "X-Forwarded-Port": "8443"}


def get_json(server, path="/", headers=None):
    response = httpx.get(server.url + path, headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()


def raw_request(server, data: bytes):
    with server.connect() as sock:
        sock.sendall(data)
        return read_response(sock)


def test_trusted_proxy_sets_client_scheme_and_port(start_server):
    server = start_server(OPS)  # 127.0.0.1 is trusted by default
    seen = get_json(server, headers=FORWARDED)
    # The proxy appended itself last; the client is the nearest untrusted hop.
    assert seen["REMOTE_ADDR"] == "10.0.0.1"
    assert seen["wsgi.url_scheme"] == "https"
    assert seen["SERVER_PORT"] == "8443"
    assert seen["SERVER_SOFTWARE"].startswith("baton/")
    plain = get_json(server)
    assert plain["REMOTE_ADDR"] == "127.0.0.1" and plain["wsgi.url_scheme"] == "http"
    assert plain["SERVER_PORT"] == str(server.port)


def test_trusted_chain_walks_back_to_the_first_untrusted(start_server):
    server = start_server("--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8", OPS)
    seen = get_json(server, headers=FORWARDED)
    assert seen["REMOTE_ADDR"] == "203.0.113.7"


def test_rfc7239_forwarded(start_server):
    server = start_server(OPS)
    seen = get_json(server, headers={"Forwarded": 'for="[2001:db8::1]:4711";proto=https;host=example.com'})
    assert seen["REMOTE_ADDR"] == "2001:db8::1"
    assert seen["wsgi.url_scheme"] == "https"


def test_untrusted_peer_is_not_believed(start_server):
    server = start_server("--forwarded-allow-ips", "10.9.9.9", OPS)
    seen = get_json(server, headers=FORWARDED)
    assert seen["REMOTE_ADDR"] == "127.0.0.1"
    assert seen["wsgi.url_scheme"] == "http"
    assert seen["SERVER_PORT"] == str(server.port)
    # The header itself still reaches the app, as any header does.
    assert seen["HTTP_X_FORWARDED_FOR"] == "203.0.113.7, 10.0.0.1"


def test_no_proxy_headers_switch(start_server):
    server = start_server("--no-proxy-headers", OPS)
    assert get_json(server, headers=FORWARDED)["REMOTE_ADDR"] == "127.0.0.1"


def test_every_peer_trusted_with_star(start_server):
    server = start_server("--forwarded-allow-ips", "*", OPS)
    assert get_json(server, headers=FORWARDED)["REMOTE_ADDR"] == "203.0.113.7"


@pytest.mark.parametrize("headers", [
    {"X-Forwarded-For": "unknown"},
    {"X-Forwarded-For": "<script>, 10.0.0.1"},
    {"X-Forwarded-For": "203.0.113.7 junk"},
    {"Forwarded": "for=_hidden;proto=https"},
    {"Forwarded": 'for="[not:an:ip::x]"'},
], ids=["unknown", "markup", "junk-after", "obfuscated", "bad-v6"])
def test_only_an_ip_address_becomes_the_client(start_server, headers):
    # Every peer trusted, so each element is walked to the leftmost: what is
    # not an IP address there leaves REMOTE_ADDR the peer's.
    server = start_server("--forwarded-allow-ips", "*", OPS)
    assert get_json(server, headers=headers)["REMOTE_ADDR"] == "127.0.0.1"


def test_unix_socket_peers_are_trusted(start_server, tmp_path):
    path = str(tmp_path / "baton.sock")
    server = start_server("--uds", path, OPS)
    transport = httpx.HTTPTransport(uds=path)
    with httpx.Client(transport=transport) as client:
        seen = client.get("http://proxy/", headers=FORWARDED).json()
    assert seen["REMOTE_ADDR"] == "10.0.0.1" and seen["wsgi.url_scheme"] == "https"
    with httpx.Client(transport=httpx.HTTPTransport(uds=path)) as client:
        plain = client.get("http://proxy/").json()
    # No address of its own: SERVER_NAME/PORT are never empty (PEP 3333).
    assert plain["SERVER_NAME"] == "localhost" and plain["SERVER_PORT"] == "80"


@pytest.mark.parametrize("asgi_shape", ["pump", "inverted"])
def test_asgi_scope_from_a_trusted_proxy(asgi_shape):
    server = Server(["--port", "0", "--asgi-mode", asgi_shape, OPS_ASGI]).start()
    try:
        seen = get_json(server, headers=FORWARDED)
        assert seen["client"] == ["10.0.0.1", 0]
        assert seen["scheme"] == "https"
        assert seen["server"] == ["127.0.0.1", 8443]
        plain = get_json(server)
        assert plain["client"][0] == "127.0.0.1" and plain["scheme"] == "http"
        assert plain["server"] == ["127.0.0.1", server.port]
    finally:
        server.stop()


def test_asgi_untrusted_proxy(tmp_path):
    server = Server(["--port", "0", "--forwarded-allow-ips", "10.1.1.1", OPS_ASGI]).start()
    try:
        seen = get_json(server, headers=FORWARDED)
        assert seen["client"][0] == "127.0.0.1" and seen["scheme"] == "http"
    finally:
        server.stop()


def test_exactly_one_date_and_the_apps_wins(start_server):
    server = start_server(OPS)
    status, headers, _, head = raw_request(server, b"GET /date HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200
    assert head.lower().count(b"\r\ndate:") == 1
    assert headers["date"] == "Tue, 01 Jan 2030 00:00:00 GMT"
    _, headers, _, head = raw_request(server, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert head.lower().count(b"\r\ndate:") == 1 and headers["date"].endswith(" GMT")


def test_server_header_default_app_override_and_off(start_server):
    server = start_server(OPS)
    _, headers, _, head = raw_request(server, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert headers["server"] == "baton"
    _, headers, _, head = raw_request(server, b"GET /server HTTP/1.1\r\nHost: x\r\n\r\n")
    assert headers["server"] == "app-server/1.0" and head.lower().count(b"\r\nserver:") == 1
    quiet = start_server("--no-server-header", OPS)
    _, headers, _, _ = raw_request(quiet, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert "server" not in headers


def test_chunked_body_over_the_limit_is_413_not_500(start_server):
    server = start_server("--max-body-size", "1000", OPS)
    chunk = b"x" * 600
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(200)) + b"0\r\n\r\n"
    status, headers, _, _ = raw_request(
        server, b"POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
    assert status == 413
    assert headers.get("connection") == "close"
    # Under the limit, the same route works.
    small = b"%x\r\n%s\r\n0\r\n\r\n" % (100, b"y" * 100)
    status, _, data, _ = raw_request(server, b"POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                     + small)
    assert status == 200 and json.loads(data) == {"length": 100}


def test_a_failing_request_is_named_in_the_log(start_server):
    server = start_server(OPS)
    mark = server.log_mark()
    assert httpx.get(server.url + "/fail?x=1").status_code == 500
    assert server.wait_for_log("the view failed on purpose", since=mark)
    text = server.log_since(mark)
    line = next(line for line in text.splitlines() if "GET /fail?x=1" in line)
    assert "127.0.0.1" in line, text


def test_uds_mode_defaults_to_0666_and_can_be_set(tmp_path):
    path = tmp_path / "a.sock"
    server = Server(["--uds", str(path), "tests.integration.apps.ops_apps:app"]).start()
    try:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o666
    finally:
        server.stop()
    other = tmp_path / "b.sock"
    server = Server(["--uds", str(other), "--uds-mode", "0660", "tests.integration.apps.ops_apps:app"]).start()
    try:
        assert stat.S_IMODE(os.stat(other).st_mode) == 0o660
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(other))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_response(sock)[0] == 200
    finally:
        server.stop()
    assert not other.exists()
