"""TLS over real sockets: every --ssl-* option (and its BATON_SSL_* form),
mutual TLS accepted and refused, the oldest version and the cipher list,
ALPN, the handshake's timeout and its failures, what the app sees (WSGI's
url_scheme, ASGI's scheme and tls extension), bodies both ways in every
shape, files (the copying path: this kernel has no kTLS), certificates
read again on SIGHUP, and curl and httpx as clients. The HTTP/1.1 corpus
runs over TLS in tests/conformance, and the WebSocket tests over wss in
test_websocket.py."""

import hashlib
import json
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.conftest import ASGI_SHAPES, SHAPES, tls_args
from tests.integration.server import ROOT, Server, read_response
from tests.integration.tls import KEY_PASSWORD, TlsConnection, client_context

WSGI = "tests.integration.apps.wire_apps:wsgi"
ASGI = "tests.integration.apps.wire_apps:asgi"
# IANA numbers of the suites Python's client names.
SUITES = {"TLS_AES_256_GCM_SHA384": 0x1302, "TLS_AES_128_GCM_SHA256": 0x1301,
          "TLS_CHACHA20_POLY1305_SHA256": 0x1303, "ECDHE-RSA-AES128-GCM-SHA256": 0xC02F,
          "ECDHE-RSA-AES256-GCM-SHA384": 0xC030}
SERVED = {**{name: (args, WSGI) for name, args in SHAPES.items()},
          **{name: (args, ASGI) for name, args in ASGI_SHAPES.items()}}


@pytest.fixture
def certs(tls_certificates):
    return tls_certificates


@pytest.fixture
def start(tmp_path):
    servers = []

    def start_server(*args, app=WSGI, env=None, expect_https=True):
        server = Server(["--port", "0", *args, app], env=env).start()
        servers.append(server)
        if expect_https:
            assert server.scheme == "https", server.log
        return server

    yield start_server
    for server in servers:
        server.stop()


def get(server, path, context, **request):
    """One request on a new TLS connection: (status, headers, body, the connection)."""
    sock = socket.create_connection((server.host, server.port), timeout=10)
    conn = TlsConnection(sock, context, server_hostname=request.pop("hostname", "localhost"))
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    status, headers, body, _ = read_response(conn)
    return status, headers, body, conn


def handshake_alert(server, context) -> str | None:
    """The alert the server refused the handshake with, by OpenSSL's name for it (as
    TLSV1_ALERT_UNKNOWN_CA), or None when the request was served. A TLS 1.3 client learns of a
    refused certificate only at its first read, so the request is sent and its answer read.
    Nothing else counts as a refusal (RFC 8446 6.2: a handshake is refused with an alert): a
    server that hangs fails here, and a close with no alert, or an error of the client's own,
    raises or gives a name the caller does not expect."""
    try:
        _, _, _, conn = get(server, "/info", context)
    except ssl.SSLError as e:
        return e.reason
    except TimeoutError:
        raise AssertionError("neither an alert nor an answer in 10 s: the handshake hung") from None
    conn.close()
    return None


def first_certificate_pem(path) -> str:
    text = path.read_text()
    end = "-----END CERTIFICATE-----\n"
    return text[:text.index(end) + len(end)]


def rfc4514_subject(path) -> str:
    """The subject as RFC 4514 writes it (the last RDN first), by the openssl command."""
    out = subprocess.run(["openssl", "x509", "-in", str(path), "-noout", "-subject", "-nameopt", "RFC2253"],
                         capture_output=True, text=True, check=True).stdout
    return out.strip().removeprefix("subject=")


# --- what the app sees -------------------------------------------------------------

@pytest.mark.parametrize("name", list(SERVED))
def test_every_shape_serves_https_with_the_scheme_and_bodies_both_ways(start, certs, name):
    args, app = SERVED[name]
    server = start(*args, *tls_args(certs), "--max-body-size", "0", app=app)
    body = bytes(range(256)) * 12288  # 3 MiB
    with httpx.Client(verify=str(certs.ca), timeout=30) as client:
        info = client.get(f"https://localhost:{server.port}/info").json()
        assert info["scheme"] == "https"
        echoed = client.post(f"https://localhost:{server.port}/echo", content=body)
        assert echoed.status_code == 200
        assert hashlib.sha256(echoed.content).digest() == hashlib.sha256(body).digest()
        # Keep-alive: the same connection serves the next requests.
        for _ in range(20):
            assert client.get(f"https://localhost:{server.port}/info").status_code == 200


def test_a_slow_reader_of_a_large_body_gets_all_of_it(start, certs):
    """The body window fills while the app reads slowly, reading pauses and resumes many times, and the
    body arrives whole. (Input left inside the TLS layer with the socket silent is proven in
    tests/unit/net/tls_test.cc, where it can be made to happen every time.)"""
    server = start("--blocking-threads", "1", *tls_args(certs), "--max-body-size", "0")
    for size in (300_000, 1_000_003, 2_500_000):
        body = bytes((i * 7) % 251 for i in range(size))
        sock = socket.create_connection((server.host, server.port), timeout=20)
        conn = TlsConnection(sock, client_context())
        conn.sendall(f"POST /echo?slow=1 HTTP/1.1\r\nHost: t\r\nContent-Length: {size}\r\n\r\n".encode() + body)
        status, _, echoed, _ = read_response(conn)
        conn.close()
        assert status == 200 and len(echoed) == size and echoed == body


@pytest.mark.parametrize("count", [150, 301, 457, 3000])
def test_pipelined_requests_past_a_read_buffer_are_all_answered(start, certs, count):
    """More pipelined requests than one read takes, answered one at a time: every one, in order."""
    server = start("--blocking-threads", "0", *tls_args(certs))
    padding = "x" * 300
    requests = b"".join(f"GET /info?{i} HTTP/1.1\r\nHost: t\r\nX-Pad: {padding}\r\n\r\n".encode()
                        for i in range(count))
    sock = socket.create_connection((server.host, server.port), timeout=10)
    conn = TlsConnection(sock, client_context())
    conn.sendall(requests)
    for _ in range(count):
        status, _, body, _ = read_response(conn)
        assert status == 200 and b"https" in body
    conn.close()


def test_a_request_sent_with_the_clients_last_handshake_record_is_served(start, certs):
    """TLS 1.3: the client's Finished and its first request leave in one segment; the server reads both in
    the handshake's last read and must serve the request without more input arriving."""
    server = start("--blocking-threads", "0", *tls_args(certs))
    for _ in range(20):
        sock = socket.create_connection((server.host, server.port), timeout=5)
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        tls = client_context().wrap_bio(incoming, outgoing)
        while True:
            try:
                tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                sock.sendall(outgoing.read())
                incoming.write(sock.recv(65536))
        tls.write(b"GET /info HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        sock.sendall(outgoing.read())  # Finished and the request together
        received = b""
        sock.settimeout(3)
        while b"https" not in received:
            data = sock.recv(65536)
            assert data, "closed before answering"
            incoming.write(data)
            try:
                received += tls.read(65536)
            except ssl.SSLWantReadError:
                pass
        assert received.startswith(b"HTTP/1.1 200")
        sock.close()


def test_asgi_sees_the_tls_extension(start, certs):
    server = start(*ASGI_SHAPES["inverted-uvloop"], *tls_args(certs), app=ASGI)
    status, _, body, conn = get(server, "/info", client_context(certs.ca))
    info = json.loads(body)
    assert info["scheme"] == "https"
    tls = info["tls"]
    assert tls["tls_version"] == 0x0304
    assert tls["cipher_suite"] == SUITES[conn.tls.cipher()[0]]
    assert tls["server_cert"] == first_certificate_pem(certs.cert)
    assert tls["client_cert_chain"] == [] and tls["client_cert_name"] is None and tls["client_cert_error"] is None


def test_a_plain_http_request_to_the_tls_port_is_closed_and_logged_and_others_are_served(start, certs):
    server = start(*tls_args(certs))
    mark = server.log_mark()
    with socket.create_connection((server.host, server.port), timeout=5) as plain:
        plain.sendall(b"GET /info HTTP/1.1\r\nHost: t\r\n\r\n")
        plain.settimeout(5)
        try:
            answer = plain.recv(65536)
            while plain.recv(65536):
                pass
        except ConnectionResetError:
            answer = b""
        assert not answer.startswith(b"HTTP/")
    assert server.wait_for_log("TLS handshake with 127.0.0.1 failed", since=mark), server.log_since(mark)
    assert get(server, "/info", client_context(certs.ca))[0] == 200


# --- the options -------------------------------------------------------------------

def test_a_file_with_certificate_and_key_serves_alone(start, certs):
    server = start("--ssl-certfile", str(certs.combined))
    assert get(server, "/info", client_context(certs.ca))[0] == 200


def test_an_encrypted_key_loads_with_its_password_from_the_option_or_the_environment(start, certs):
    server = start("--ssl-certfile", str(certs.cert), "--ssl-keyfile", str(certs.encrypted_key),
                   "--ssl-keyfile-password", KEY_PASSWORD)
    assert get(server, "/info", client_context(certs.ca))[0] == 200
    server = start(env={"BATON_SSL_CERTFILE": str(certs.cert), "BATON_SSL_KEYFILE": str(certs.encrypted_key),
                        "BATON_SSL_KEYFILE_PASSWORD": KEY_PASSWORD})
    assert get(server, "/info", client_context(certs.ca))[0] == 200


@pytest.mark.parametrize("args, message", [
    (["--ssl-keyfile-password", "wrong"], "cannot load the private key"),
    (["--ssl-ciphers", "NO-SUCH-CIPHER"], "no cipher of --ssl-ciphers"),
])
def test_a_key_or_cipher_list_that_cannot_be_used_stops_the_start_with_the_reason(certs, args, message):
    key = certs.encrypted_key if "--ssl-keyfile-password" in args else certs.key
    proc = subprocess.run([sys.executable, "-m", "baton", "--port", "0", "--ssl-certfile", str(certs.cert),
                           "--ssl-keyfile", str(key), *args, WSGI],
                          capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert proc.returncode != 0
    assert message in proc.stdout + proc.stderr, proc.stdout + proc.stderr


@pytest.mark.parametrize("args, message", [
    (["--ssl-keyfile", "KEY"], "--ssl-keyfile needs --ssl-certfile"),
    (["--ssl-certfile", "CERT", "--ssl-cert-reqs", "2"], "--ssl-cert-reqs needs --ssl-ca-certs"),
    (["--ssl-certfile", "CERT", "--ssl-version", "TLSv1.1"], "TLSv1.2 or TLSv1.3"),
    (["--ssl-certfile", "CERT", "--ssl-cert-reqs", "maybe"], "choose from 0 (none)"),
    (["--ssl-certfile", "/no/such/file.pem"], "no such file"),
])
def test_option_mistakes_are_usage_errors(certs, args, message):
    args = [str(certs.cert) if a == "CERT" else str(certs.key) if a == "KEY" else a for a in args]
    proc = subprocess.run([sys.executable, "-m", "baton", "--port", "0", *args, WSGI],
                          capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_the_oldest_version_is_tls_1_2_unless_told_1_3(start, certs):
    tls12 = client_context(certs.ca)
    tls12.maximum_version = ssl.TLSVersion.TLSv1_2
    server = start(*ASGI_SHAPES["pump-asyncio"], *tls_args(certs), app=ASGI)
    status, _, body, conn = get(server, "/info", tls12)
    assert status == 200 and conn.version() == "TLSv1.2"
    assert json.loads(body)["tls"]["tls_version"] == 0x0303
    strict = start(*tls_args(certs), "--ssl-version", "TLSv1.3")
    assert handshake_alert(strict, tls12) == "TLSV1_ALERT_PROTOCOL_VERSION"
    assert get(strict, "/info", client_context(certs.ca))[3].version() == "TLSv1.3"


def test_the_cipher_list_decides_tls_1_2s_suite(start, certs):
    server = start(*ASGI_SHAPES["inverted-asyncio"], *tls_args(certs), "--ssl-ciphers",
                   "ECDHE-RSA-AES128-GCM-SHA256", app=ASGI)
    client = client_context(certs.ca)
    client.maximum_version = ssl.TLSVersion.TLSv1_2
    status, _, body, conn = get(server, "/info", client)
    assert conn.tls.cipher()[0] == "ECDHE-RSA-AES128-GCM-SHA256"
    assert json.loads(body)["tls"]["cipher_suite"] == 0xC02F
    only_other = client_context(certs.ca)
    only_other.maximum_version = ssl.TLSVersion.TLSv1_2
    only_other.set_ciphers("ECDHE-RSA-AES256-GCM-SHA384")
    assert handshake_alert(server, only_other) == "SSLV3_ALERT_HANDSHAKE_FAILURE"  # no suite in common


def test_required_client_certificates_admit_the_cas_and_refuse_the_rest(start, certs):
    server = start(*ASGI_SHAPES["inverted-uvloop"], *tls_args(certs), "--ssl-ca-certs", str(certs.ca),
                   "--ssl-cert-reqs", "2", app=ASGI)
    alice = client_context(certs.ca, certs.client_cert, certs.client_key)
    status, _, body, _ = get(server, "/info", alice)
    tls = json.loads(body)["tls"]
    assert status == 200
    assert tls["client_cert_name"] == rfc4514_subject(certs.client_cert) == "O=baton tests,CN=alice"
    # Leaf first, then what the client sent with it (Python's client adds the CA it trusts).
    assert tls["client_cert_chain"][0] == first_certificate_pem(certs.client_cert)
    assert tls["client_cert_chain"][1:] in ([], [first_certificate_pem(certs.ca)])
    mark = server.log_mark()
    assert handshake_alert(server, client_context(certs.ca)) == "TLSV13_ALERT_CERTIFICATE_REQUIRED"
    stranger = client_context(certs.ca, certs.stranger_cert, certs.stranger_key)
    assert handshake_alert(server, stranger) == "TLSV1_ALERT_UNKNOWN_CA"
    assert server.wait_for_log("TLS handshake with 127.0.0.1 failed", since=mark)
    assert get(server, "/info", alice)[0] == 200  # and the server goes on


def test_optional_client_certificates_admit_none_and_verify_what_is_sent(start, certs):
    server = start(*ASGI_SHAPES["pump-uvloop"], *tls_args(certs), env={
        "BATON_SSL_CA_CERTS": str(certs.ca), "BATON_SSL_CERT_REQS": "optional"}, app=ASGI)
    status, _, body, _ = get(server, "/info", client_context(certs.ca))
    assert status == 200 and json.loads(body)["tls"]["client_cert_name"] is None
    status, _, body, _ = get(server, "/info", client_context(certs.ca, certs.client_cert, certs.client_key))
    assert json.loads(body)["tls"]["client_cert_name"] == rfc4514_subject(certs.client_cert)
    stranger = client_context(certs.ca, certs.stranger_cert, certs.stranger_key)
    assert handshake_alert(server, stranger) == "TLSV1_ALERT_UNKNOWN_CA"


def test_alpn_prefers_h2_takes_http_1_1_and_serves_a_client_offering_none_of_ours_http_1_1(start, certs):
    server = start(*tls_args(certs))
    conn = TlsConnection(socket.create_connection((server.host, server.port), timeout=5),
                         client_context(certs.ca, alpn=["h2", "http/1.1"]), server_hostname="localhost")
    assert conn.selected_alpn_protocol() == "h2"
    conn.close()
    status, _, _, conn = get(server, "/info", client_context(certs.ca, alpn=["http/1.1"]))
    assert status == 200 and conn.selected_alpn_protocol() == "http/1.1"
    status, _, _, conn = get(server, "/info", client_context(certs.ca, alpn=["spdy/3"]))
    assert status == 200 and conn.selected_alpn_protocol() is None
    only_1 = start(*tls_args(certs), "--http", "1")
    status, _, _, conn = get(only_1, "/info", client_context(certs.ca, alpn=["h2", "http/1.1"]))
    assert status == 200 and conn.selected_alpn_protocol() == "http/1.1"


# --- the handshake's bounds --------------------------------------------------------------

@pytest.mark.parametrize("sent", [b"", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"],
                         ids=["nothing", "half-a-client-hello"])
def test_a_stalled_handshake_is_cut_at_the_header_timeout_while_others_are_served(start, certs, sent):
    server = start(*tls_args(certs), "--header-read-timeout", "1")
    mark = server.log_mark()
    stalled = socket.create_connection((server.host, server.port), timeout=5)
    stalled.sendall(sent)
    began = time.monotonic()
    assert get(server, "/info", client_context(certs.ca))[0] == 200
    stalled.settimeout(5)
    try:
        assert stalled.recv(100) == b""
    except ConnectionResetError:
        pass
    assert 0.8 < time.monotonic() - began < 3.5
    assert server.wait_for_log("TLS handshake did not finish in time", since=mark)


def test_many_clients_at_once_each_get_their_own_answers(start, certs):
    server = start("--blocking-threads", "4", *tls_args(certs))
    errors = []

    def client(n):
        try:
            with httpx.Client(verify=str(certs.ca), timeout=20) as c:
                for i in range(20):
                    payload = f"{n}-{i}".encode() * 500
                    r = c.post(f"https://localhost:{server.port}/echo", content=payload)
                    if r.content != payload:
                        errors.append((n, i))
        except Exception as error:  # noqa: BLE001 - the test reports it
            errors.append(repr(error))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []


# --- files -------------------------------------------------------------------------

def test_static_files_and_the_file_wrapper_go_out_whole_over_tls(start, certs, tmp_path):
    (tmp_path / "static").mkdir()
    data = bytes(range(256)) * 4096 + b"tail"
    (tmp_path / "static" / "big.bin").write_bytes(data)
    server = start("--blocking-threads", "2", *tls_args(certs), "--static-path-route", "/static",
                   "--static-path-mount", str(tmp_path / "static"))
    with httpx.Client(verify=str(certs.ca), timeout=30) as client:
        static = client.get(f"https://localhost:{server.port}/static/big.bin")
        assert static.status_code == 200 and static.content == data
        ranged = client.get(f"https://localhost:{server.port}/static/big.bin", headers={"Range": "bytes=1000-"})
        assert ranged.status_code == 206 and ranged.content == data[1000:]
        wrapped = client.get(f"https://localhost:{server.port}/file")
        assert wrapped.status_code == 200 and wrapped.content.endswith(b"the end")
        assert len(wrapped.content) == (1 << 20) + 7


# --- reload ------------------------------------------------------------------------

def subject_served(server) -> str:
    sock = socket.create_connection((server.host, server.port), timeout=5)
    conn = TlsConnection(sock, client_context())
    der = conn.getpeercert(binary_form=True)
    conn.close()
    return subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-subject"], input=der,
                          capture_output=True, check=True).stdout.decode()


@pytest.mark.parametrize("workers", [0, 2])
def test_sighup_reads_the_certificate_files_again(start, certs, tmp_path, workers):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    shutil.copy(certs.cert, cert)
    shutil.copy(certs.key, key)
    server = start("--workers", str(workers), "--ssl-certfile", str(cert), "--ssl-keyfile", str(key))
    assert "reloaded" not in subject_served(server)
    shutil.copy(certs.other_cert, cert)
    shutil.copy(certs.other_key, key)
    mark = server.log_mark()
    server.signal(signal.SIGHUP)
    deadline = time.monotonic() + 20
    while "reloaded" not in subject_served(server):
        assert time.monotonic() < deadline, server.log_since(mark)
        time.sleep(0.2)


# --- real clients --------------------------------------------------------------------

@pytest.mark.parametrize("flag, version", [("--http1.1", "1.1"), ("--http2", "2")])
def test_curl_talks_https_to_it(start, certs, flag, version):
    server = start(*ASGI_SHAPES["inverted-uvloop"], *tls_args(certs), app=ASGI)
    out = subprocess.run(["curl", "-sS", flag, "--cacert", str(certs.ca), "-w",
                          "\n%{http_version} %{ssl_verify_result}", f"https://localhost:{server.port}/info"],
                         capture_output=True, text=True, timeout=20)
    body, _, tail = out.stdout.rpartition("\n")
    assert json.loads(body)["scheme"] == "https"
    assert tail == f"{version} 0", out.stderr
