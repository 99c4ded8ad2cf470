"""Browsers find baton's HTTP/3 (docs/http3.md, Alt-Svc): under --http3
every HTTP/1.1 and HTTP/2 response over TCP says `alt-svc: h3=":PORT";
ma=86400`, PORT the listener the connection came in on; --alt-svc turns it
off or replaces it; an app's own Alt-Svc wins; HTTP/3 responses and Unix
sockets carry none. Then Debian's Chromium: told to use QUIC for the
origin, it loads a page over HTTP/3; told nothing, it loads the page over
HTTP/2, reads the Alt-Svc, and loads it again over HTTP/3."""

import re
import subprocess
import sys
import time

import pytest

from tests.conftest import tls_args
from tests.integration.browser import chromium
from tests.integration.h3client import Ask, h3_exchange
from tests.integration.server import ROOT, Server

from baton import _baton

pytestmark = pytest.mark.skipif(not _baton.HAS_QUIC, reason=f"no QUIC in this build: {_baton.QUIC_ABSENT_REASON}")

APP = "tests.integration.apps.discovery_apps:wsgi"


@pytest.fixture
def start(tls_certificates):
    servers = []

    def start_server(*args, tls=True):
        server = Server([*(tls_args(tls_certificates) if tls else []), *args, APP]).start()
        servers.append(server)
        return server

    yield start_server
    for server in servers:
        server.stop()


def alt_svc_fields(url: str, http: str, *curl_args: str) -> list[str]:
    """Every Alt-Svc field of `url`'s response head, as curl got it over
    HTTP/1.1 (http="1.1") or HTTP/2 (http="2")."""
    head = subprocess.run(["curl", "-sk", f"--http{http}", "-D", "-", "-o", "/dev/null", "--max-time", "10",
                           *curl_args, url], check=True, capture_output=True, text=True).stdout
    assert head.startswith(f"HTTP/{http} 200"), head
    return [line.split(":", 1)[1].strip() for line in head.splitlines() if line.lower().startswith("alt-svc:")]


def listening_ports(server) -> list[int]:
    """The TCP ports the server's first log line names, in --bind order."""
    first = server.log.splitlines()[0]
    return [int(port) for port in re.findall(r"https?://127\.0\.0\.1:(\d+)", first)]


@pytest.mark.parametrize("http", ["1.1", "2"])
def test_http3_is_advertised_on_the_connections_own_port(start, http):
    server = start("--bind", "127.0.0.1:0", "--bind", "127.0.0.1:0", "--http3")
    ports = listening_ports(server)
    assert len(ports) == 2 and ports[0] != ports[1], server.log
    for port in ports:
        assert alt_svc_fields(f"https://127.0.0.1:{port}/", http) == [f'h3=":{port}"; ma=86400']


def test_the_advertised_port_serves_http3(start, tls_certificates):
    server = start("--port", "0", "--http3")
    (field,) = alt_svc_fields(f"{server.url}/", "2")
    port = int(re.fullmatch(r'h3=":(\d+)"; ma=86400', field).group(1))
    _, (answer,) = h3_exchange(port, str(tls_certificates.ca), [Ask("GET", "/")], 20)
    assert answer["status"] == 200 and answer["body"] == b"HTTP/3.0\n"
    # HTTP/3 itself says nothing of an alternative: the client is on it.
    assert "alt-svc" not in answer["headers"]


@pytest.mark.parametrize("http", ["1.1", "2"])
def test_alt_svc_off_sends_none(start, http):
    server = start("--port", "0", "--http3", "--alt-svc", "off")
    assert alt_svc_fields(f"{server.url}/", http) == []


@pytest.mark.parametrize("http", ["1.1", "2"])
def test_nothing_is_advertised_without_http3(start, http):
    server = start("--port", "0")
    assert alt_svc_fields(f"{server.url}/", http) == []


@pytest.mark.parametrize("http", ["1.1", "2"])
def test_a_value_of_the_operators_is_sent_as_it_is(start, http):
    value = 'h3="quic.example.com:443"; ma=3600, h3=":8443"'
    server = start("--port", "0", "--http3", "--alt-svc", value)
    assert alt_svc_fields(f"{server.url}/", http) == [value]


def test_a_value_of_the_operators_is_sent_without_http3_too(start):
    # A balancer in front may serve HTTP/3 for this origin.
    server = start("--port", "0", "--alt-svc", 'h3=":443"', tls=False)
    assert alt_svc_fields(f"{server.url}/", "1.1") == ['h3=":443"']


@pytest.mark.parametrize("http", ["1.1", "2"])
def test_an_apps_own_alt_svc_wins_and_is_not_doubled(start, http):
    server = start("--port", "0", "--http3")
    assert alt_svc_fields(f"{server.url}/own", http) == ["clear"]
    # The next response on the listener has the listener's again.
    assert alt_svc_fields(f"{server.url}/", http) == [f'h3=":{server.port}"; ma=86400']


def test_a_unix_socket_advertises_nothing(start, tmp_path):
    path = tmp_path / "baton.sock"
    server = start("--bind", "127.0.0.1:0", "--bind", f"unix:{path}", "--http3")
    assert alt_svc_fields("https://localhost/", "2", "--unix-socket", str(path)) == []
    assert alt_svc_fields(f"{server.url}/", "2") == [f'h3=":{server.port}"; ma=86400']


@pytest.mark.parametrize("value", ["bad\x01value", "two\r\nlines", " "])
def test_a_bad_value_is_refused_at_start_in_one_line(value):
    done = subprocess.run([sys.executable, "-m", "baton", "--alt-svc", value, APP], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--alt-svc" in done.stderr and "not auto, off or a header value" in done.stderr


# --- Chromium -----------------------------------------------------------------------


def protocols_of(server, path: str) -> list[str]:
    """The protocol of each access log line for `path` (the query dropped), in order."""
    return re.findall(r'"GET ' + re.escape(path) + r'(?:\?\S*)? (HTTP/[\d.]+)"', server.log)


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_chromium_told_to_use_quic_loads_a_page_over_http3(start, tls_certificates, tmp_path):
    server = start("--port", "0", "--http3", "--access-log")
    with chromium(f"{server.url}/page?n=20", tmp_path / "profile", trusted_cert=tls_certificates.cert,
                  extra_args=[f"--origin-to-force-quic-on=127.0.0.1:{server.port}"]):
        assert wait_for(lambda: protocols_of(server, "/page"), 60), server.log
    assert protocols_of(server, "/page") == ["HTTP/3.0"], server.log


# Chromium takes a QUIC connection found through Alt-Svc only when its
# certificate chains to a root Chromium ships, or its host is one it was told
# to use QUIC for (ProofVerifierChromium's hostnames_to_allow_unknown_roots,
# filled from --origin-to-force-quic-on): a test CA, even trusted by its SPKI
# hash, fails the QUIC handshake with CERTIFICATE_VERIFY_FAILED and the
# alternative is marked broken. So the host is named through an origin on
# another port, which nothing serves and the page never visits: the page's
# own origin is not forced, and Chromium moves to HTTP/3 only because the
# Alt-Svc told it to.
UNKNOWN_ROOT_ALLOWED = "--origin-to-force-quic-on=127.0.0.1:9"


def test_chromium_finds_http3_through_alt_svc_and_moves_to_it(start, tls_certificates, tmp_path):
    server = start("--port", "0", "--http3", "--access-log")
    # The page loads itself again every 300 ms (?n=1, 2, ... up to 20).
    with chromium(f"{server.url}/page?n=0", tmp_path / "profile", trusted_cert=tls_certificates.cert,
                  extra_args=[UNKNOWN_ROOT_ALLOWED]):
        assert wait_for(lambda: "HTTP/3.0" in protocols_of(server, "/page"), 60), server.log
    seen = protocols_of(server, "/page")
    assert seen[0] == "HTTP/2.0", seen
    # Once moved it stays: every load after the first over HTTP/3 is too.
    moved = seen.index("HTTP/3.0")
    assert set(seen[moved:]) == {"HTTP/3.0"}, seen


def test_chromium_stays_on_http2_when_nothing_is_advertised(start, tls_certificates, tmp_path):
    """The control: the same browser, with --alt-svc off, never tries HTTP/3."""
    server = start("--port", "0", "--http3", "--alt-svc", "off", "--access-log")
    with chromium(f"{server.url}/page?n=12", tmp_path / "profile", trusted_cert=tls_certificates.cert,
                  extra_args=[UNKNOWN_ROOT_ALLOWED]):
        assert wait_for(lambda: len(protocols_of(server, "/page")) >= 9, 60), server.log
    assert set(protocols_of(server, "/page")) == {"HTTP/2.0"}, server.log
