"""The PROXY protocol (--proxy-protocol): v1 and v2 headers from a trusted
balancer name the client to the app (WSGI REMOTE_ADDR and SERVER_NAME, the
ASGI scope's client and server) and the access log, over HTTP/1.1, h2c and
TLS; everything else closes the connection with a log line naming the peer
while the server keeps serving; and Debian's HAProxy in front, with
send-proxy and send-proxy-v2, passes the client's own address and port."""

import json
import shutil
import socket
import struct
import subprocess
import time

import h2.config
import h2.connection
import h2.events
import pytest

from tests.conftest import tls_args
from tests.integration.server import Server, read_response
from tests.integration.tls import TlsConnection, client_context

WSGI = "tests.integration.apps.ops_apps:app"
ASGI = "tests.integration.apps.ops_apps:asgi_app"

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
REQUEST = b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"


def v1(source="203.0.113.7", destination="198.51.100.1", source_port=4711, destination_port=8443, family="TCP4"):
    return f"PROXY {family} {source} {destination} {source_port} {destination_port}\r\n".encode()


def v2(source="203.0.113.7", destination="198.51.100.1", source_port=4711, destination_port=8443,
       command=0x21, tlvs=b""):
    if ":" in source:
        block = socket.inet_pton(socket.AF_INET6, source) + socket.inet_pton(socket.AF_INET6, destination)
        family = 0x21
    else:
        block = socket.inet_aton(source) + socket.inet_aton(destination)
        family = 0x11
    body = block + struct.pack("!HH", source_port, destination_port) + tlvs
    return V2_SIGNATURE + bytes([command, family]) + struct.pack("!H", len(body)) + body


def v2_local():
    return V2_SIGNATURE + bytes([0x20, 0x00, 0x00, 0x00])


def start(*args, app=WSGI):
    return Server(["--port", "0", "--proxy-protocol", *args, app]).start()


@pytest.fixture
def servers():
    started = []

    def make(*args, app=WSGI):
        server = start(*args, app=app)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def ask(server, header: bytes, request: bytes = REQUEST, sock=None):
    """Sends the header and a request on a new connection; the JSON the app answered."""
    with sock or socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(header + request)
        status, _, body, _ = read_response(s)
        assert status == 200, body
        return json.loads(body)


def refused(server, data: bytes, timeout: float = 10.0) -> bool:
    """True when the server closes a connection that sent `data` without answering it."""
    with socket.create_connection((server.host, server.port), timeout=timeout) as s:
        try:
            s.sendall(data)
            return s.recv(65536) == b""
        except ConnectionResetError:
            return True


def test_v1_header_names_the_client_and_the_server_to_a_wsgi_app(servers):
    server = servers("--access-log")
    mark = server.log_mark()
    seen = ask(server, v1())
    assert seen["REMOTE_ADDR"] == "203.0.113.7" and seen["REMOTE_PORT"] == "4711"
    assert seen["SERVER_NAME"] == "198.51.100.1" and seen["SERVER_PORT"] == "8443"
    # The access log's %(h)s is the client the header named, not the balancer.
    assert server.wait_for_log('203.0.113.7 - - [', since=mark), server.log_since(mark)


def test_v2_header_names_an_ipv6_client_and_tlvs_are_skipped(servers):
    server = servers()
    tlvs = b"\x01\x00\x08http/1.1" + b"\x05\x00\x04abcd"
    seen = ask(server, v2("2001:db8::7", "2001:db8::1", 50000, 443, tlvs=tlvs))
    assert seen["REMOTE_ADDR"] == "2001:db8::7" and seen["REMOTE_PORT"] == "50000"
    assert seen["SERVER_NAME"] == "2001:db8::1" and seen["SERVER_PORT"] == "443"


@pytest.mark.parametrize("header", [b"PROXY UNKNOWN\r\n", b"PROXY UNKNOWN ::1 ::2 1 2\r\n", v2_local()],
                         ids=["v1-unknown", "v1-unknown-with-addresses", "v2-local"])
def test_unknown_and_local_keep_the_socket_addresses(servers, header):
    server = servers()
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        own_port = s.getsockname()[1]
        seen = ask(server, header, sock=s)
    assert seen["REMOTE_ADDR"] == "127.0.0.1" and seen["REMOTE_PORT"] == str(own_port)
    assert seen["SERVER_PORT"] == str(server.port)


def test_a_unix_socket_peer_is_trusted_to_send_the_header(tmp_path):
    # As for the forwarding headers: a Unix socket's peer is a local proxy,
    # whatever --forwarded-allow-ips names.
    server = Server(["--uds", str(tmp_path / "baton.sock"), "--proxy-protocol", "--forwarded-allow-ips", "10.9.9.9",
                     WSGI]).start()
    try:
        seen = ask(server, v2(), sock=server.connect())
        assert seen["REMOTE_ADDR"] == "203.0.113.7" and seen["SERVER_PORT"] == "8443"
        # LOCAL keeps the socket's own addresses: a Unix socket has none.
        local = ask(server, v2_local(), sock=server.connect())
        assert local["SERVER_NAME"] == "localhost" and local["SERVER_PORT"] == "80"
        assert local["REMOTE_ADDR"] != "203.0.113.7"
    finally:
        server.stop()


def test_a_trusted_balancer_s_client_is_checked_for_x_forwarded_for(servers):
    # The balancer (the socket's peer) is trusted for the PROXY header; the
    # forwarding headers are then believed only when the client it names is
    # trusted too: a client behind a TCP balancer cannot forge its address.
    server = servers()
    forged = REQUEST.replace(b"\r\n\r\n", b"\r\nX-Forwarded-For: 10.1.1.1\r\n\r\n")
    assert ask(server, v1(), forged)["REMOTE_ADDR"] == "203.0.113.7"
    # A proxy at a trusted address behind the balancer is believed.
    assert ask(server, v1(source="127.0.0.1"), forged)["REMOTE_ADDR"] == "10.1.1.1"


def h2_get(sock, path="/"):
    """One GET over HTTP/2 with prior knowledge on `sock`; the JSON body."""
    config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
    conn = h2.connection.H2Connection(config=config)
    conn.initiate_connection()
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "localhost")],
                      end_stream=True)
    sock.sendall(conn.data_to_send())
    body = b""
    while True:
        data = sock.recv(65536)
        assert data, "the server closed the HTTP/2 connection"
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.DataReceived):
                body += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                return json.loads(body)
        sock.sendall(conn.data_to_send())


@pytest.mark.parametrize("header", [v1(), v2()], ids=["v1", "v2"])
def test_h2c_prior_knowledge_after_the_header(servers, header):
    server = servers()
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(header)
        seen = h2_get(s)
    assert seen["REMOTE_ADDR"] == "203.0.113.7" and seen["SERVER_PORT"] == "8443"


@pytest.mark.parametrize("header", [v1(), v2()], ids=["v1", "v2"])
def test_tls_after_the_header(servers, tls_certificates, header):
    server = servers(*tls_args(tls_certificates))
    raw = socket.create_connection((server.host, server.port), timeout=10)
    raw.sendall(header)  # before the ClientHello, as a balancer sends it
    with TlsConnection(raw, client_context()) as tls:
        tls.sendall(REQUEST)
        status, _, body, _ = read_response(tls)
    seen = json.loads(body)
    assert status == 200 and seen["REMOTE_ADDR"] == "203.0.113.7" and seen["wsgi.url_scheme"] == "https"


@pytest.mark.parametrize("header", [v1(), v2()], ids=["v1", "v2"])
def test_asgi_scope_client_and_server_come_from_the_header(servers, header):
    server = servers(app=ASGI)
    seen = ask(server, header)
    assert seen["client"] == ["203.0.113.7", 4711]
    assert seen["server"] == ["198.51.100.1", 8443]


def test_asgi_over_h2c_after_a_v2_header(servers):
    server = servers(app=ASGI)
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(v2("2001:db8::7", "2001:db8::1", 50000, 443))
        seen = h2_get(s)
    assert seen["client"] == ["2001:db8::7", 50000] and seen["server"] == ["2001:db8::1", 443]


def test_an_untrusted_peer_is_closed_with_a_log_line(servers):
    server = servers("--forwarded-allow-ips", "10.9.9.9")
    mark = server.log_mark()
    assert refused(server, v1() + REQUEST)
    assert server.wait_for_log("closing a connection from 127.0.0.1: the peer is not trusted to send a PROXY header",
                               since=mark), server.log_since(mark)


MALFORMED = {
    "no-header": (REQUEST, "no PROXY header"),
    "tls-without-header": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "no PROXY header"),
    "v1-port-past-65535": (v1(source_port=65536) + REQUEST, "a port is not a number from 0 to 65535"),
    "v1-bad-address": (v1(source="203.0.113.700") + REQUEST, "an address is not of the protocol's family"),
    "v1-no-crlf": (b"PROXY UNKNOWN " + b"x" * 120, "no CRLF within 107 bytes"),
    "v2-bad-version": (V2_SIGNATURE + b"\x11\x11\x00\x0c" + bytes(12), "version is not 2"),
    "v2-bad-family": (V2_SIGNATURE + b"\x21\x51\x00\x0c" + bytes(12), "unknown address family"),
    "v2-too-short": (V2_SIGNATURE + b"\x21\x21\x00\x0c" + bytes(12), "length too short for its addresses"),
    "v2-too-long": (V2_SIGNATURE + b"\x21\x11\xff\xff" + bytes(64), "header longer than this server takes"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_header_is_closed_and_the_server_keeps_serving(servers, case):
    server = servers()
    data, reason = MALFORMED[case]
    mark = server.log_mark()
    assert refused(server, data)
    assert server.wait_for_log(f"closing a connection from 127.0.0.1: ", since=mark)
    assert reason in server.log_since(mark), server.log_since(mark)
    assert ask(server, v1())["REMOTE_ADDR"] == "203.0.113.7"


def test_a_connection_closed_within_the_header_is_logged(servers):
    server = servers()
    mark = server.log_mark()
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(v1()[:12])
        s.shutdown(socket.SHUT_WR)
        assert s.recv(100) == b""
    assert server.wait_for_log("127.0.0.1: the connection ended within its PROXY header", since=mark)


@pytest.mark.parametrize("header", [v1(), v2(tlvs=b"\x05\x00\x04abcd")], ids=["v1", "v2"])
def test_a_header_that_trickles_in_within_the_timeout_is_taken(servers, header):
    server = servers("--header-read-timeout", "5")
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(len(header)):
            s.sendall(header[i:i + 1])
            time.sleep(0.01)
        seen = ask(server, b"", sock=s)
    assert seen["REMOTE_ADDR"] == "203.0.113.7"


@pytest.mark.parametrize("sent", [b"", v1()[:20], v2()[:20]], ids=["nothing", "half-v1", "half-v2"])
def test_a_stalled_header_is_closed_after_the_header_read_timeout(servers, sent):
    server = servers("--header-read-timeout", "1")
    mark = server.log_mark()
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(sent)
        started = time.monotonic()
        assert s.recv(100) == b""
        waited = time.monotonic() - started
    assert 0.8 < waited < 5, waited
    assert server.wait_for_log("closing a connection from 127.0.0.1: ", since=mark)
    assert "within the header-read timeout" in server.log_since(mark)


def test_refusals_are_counted_and_the_metrics_listener_needs_no_header(servers):
    import http.client
    metrics_port = free_port()
    server = servers("--metrics-bind", f"127.0.0.1:{metrics_port}")
    assert refused(server, REQUEST)
    assert refused(server, MALFORMED["v2-bad-family"][0])
    assert ask(server, v2())["REMOTE_ADDR"] == "203.0.113.7"

    def scrape():
        c = http.client.HTTPConnection("127.0.0.1", metrics_port, timeout=5)
        try:
            c.request("GET", "/metrics")
            return c.getresponse().read().decode()
        finally:
            c.close()

    series = 'baton_rejections_total{cause="proxy_header"} '
    deadline = time.monotonic() + 10
    while True:
        lines = [line for line in scrape().splitlines() if line.startswith(series)]
        if lines and float(lines[0].split()[-1]) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert lines and float(lines[0].split()[-1]) == 2, lines


def test_without_the_option_a_header_is_an_http_error():
    # Off by default: a connection starts as HTTP, and a PROXY line is a bad request.
    server = Server(["--port", "0", WSGI]).start()
    try:
        with socket.create_connection((server.host, server.port), timeout=10) as s:
            s.sendall(v1() + REQUEST)
            status, _, _, _ = read_response(s)
        assert status == 400
    finally:
        server.stop()


# --- HAProxy in front -------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Haproxy:
    """Debian's HAProxy in TCP mode on loopback, in the foreground (-db), stopped by its PID."""

    def __init__(self, tmp_path, backend_port: int, send_proxy: str):
        self.port = free_port()
        config = tmp_path / "haproxy.cfg"
        config.write_text(
            "global\n    maxconn 64\n"
            "defaults\n    mode tcp\n    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\n"
            f"frontend front\n    bind 127.0.0.1:{self.port}\n    default_backend baton\n"
            f"backend baton\n    server one 127.0.0.1:{backend_port} {send_proxy}\n")
        self.proc = subprocess.Popen(["/usr/sbin/haproxy", "-db", "-f", str(config)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"haproxy did not start: {self.proc.stdout.read().decode()}")
                time.sleep(0.05)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.mark.skipif(shutil.which("haproxy") is None and not __import__("os").path.exists("/usr/sbin/haproxy"),
                    reason="haproxy is not installed (make deps installs it)")
@pytest.mark.parametrize("send_proxy", ["send-proxy", "send-proxy-v2"])
@pytest.mark.parametrize("app", [WSGI, ASGI], ids=["wsgi", "asgi"])
def test_haproxy_in_front_passes_the_client_s_address(servers, tmp_path, send_proxy, app):
    server = servers("--access-log", app=app)
    balancer = Haproxy(tmp_path, server.port, send_proxy)
    try:
        mark = server.log_mark()
        with socket.create_connection(("127.0.0.1", balancer.port), timeout=10) as s:
            client_port = s.getsockname()[1]
            s.sendall(REQUEST)
            status, _, body, _ = read_response(s)
        assert status == 200
        seen = json.loads(body)
        # HAProxy connects from 127.0.0.1 too, but from a port of its own:
        # the client's port proves the header was read.
        if app == WSGI:
            assert seen["REMOTE_ADDR"] == "127.0.0.1" and seen["REMOTE_PORT"] == str(client_port)
            assert seen["SERVER_PORT"] == str(balancer.port)
        else:
            assert seen["client"] == ["127.0.0.1", client_port]
            assert seen["server"] == ["127.0.0.1", balancer.port]
        assert server.wait_for_log('127.0.0.1 - - [', since=mark), server.log_since(mark)
        assert '"GET / HTTP/1.1" 200' in server.log_since(mark)
    finally:
        balancer.stop()
