"""The TLS 1.2 suites baton offers by default: forward secrecy (ECDHE) with
AEAD ciphers only (AES-GCM, ChaCha20-Poly1305), as Mozilla's "intermediate"
profile has them. A CBC suite (LUCKY13's shape) and RSA key exchange (no
forward secrecy) are refused unless --ssl-ciphers asks for them. The
client is Python's ssl (OpenSSL), held to TLS 1.2 and to one suite.

TLS 1.3's suites go in the server's order, AES-128-GCM first (OpenSSL's
own puts AES-256-GCM-SHA384 first, a dearer handshake), unless the client
puts ChaCha20 first. Python's ssl cannot order TLS 1.3's suites: the client
there is `openssl s_client`."""

import re
import socket
import ssl
import subprocess

import pytest

from tests.conftest import tls_args
from tests.integration.server import Server

WSGI = "tests.integration.apps.wire_apps:wsgi"
CBC = "ECDHE-RSA-AES128-SHA"
RSA_KEY_EXCHANGE = "AES128-GCM-SHA256"


def handshake(server, suite: str, ca) -> str:
    """The suite a TLS 1.2 handshake offering only `suite` settles on; raises
    ssl.SSLError when the server refuses it (its alert)."""
    context = ssl.create_default_context(cafile=str(ca))
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers(suite)
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        with context.wrap_socket(sock, server_hostname="localhost") as tls:
            return tls.cipher()[0]


def refused(server, suite: str, ca) -> bool:
    """True when the server ends the handshake with an alert (no suite in
    common); a timeout or any other failure is not a refusal."""
    try:
        handshake(server, suite, ca)
    except ssl.SSLError as error:
        return "HANDSHAKE_FAILURE" in str(error).upper() or "NO_SHARED_CIPHER" in str(error).upper()
    return False


@pytest.fixture
def start(tls_certificates):
    servers = []

    def serve(*args):
        server = Server(["--port", "0", *tls_args(tls_certificates), *args, WSGI]).start()
        servers.append(server)
        return server

    yield serve
    for server in servers:
        server.stop()


@pytest.mark.parametrize("suite", ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384",
                                   "ECDHE-RSA-CHACHA20-POLY1305"])
def test_the_default_suites_have_forward_secrecy_and_aead(start, tls_certificates, suite):
    assert handshake(start(), suite, tls_certificates.ca) == suite


@pytest.mark.parametrize("suite", [CBC, RSA_KEY_EXCHANGE], ids=["cbc", "rsa-key-exchange"])
def test_cbc_and_rsa_key_exchange_are_refused_by_default(start, tls_certificates, suite):
    assert refused(start(), suite, tls_certificates.ca)


@pytest.mark.parametrize("suite", [CBC, RSA_KEY_EXCHANGE], ids=["cbc", "rsa-key-exchange"])
def test_ssl_ciphers_can_ask_for_them(start, tls_certificates, suite):
    server = start("--ssl-ciphers", f"{CBC}:{RSA_KEY_EXCHANGE}")
    assert handshake(server, suite, tls_certificates.ca) == suite
    # And then only for them: what the list leaves out is refused.
    assert refused(server, "ECDHE-RSA-AES128-GCM-SHA256", tls_certificates.ca)


def test_tls13_suites_are_openssls_whatever_the_tls12_list(start, tls_certificates):
    server = start("--ssl-ciphers", CBC)
    context = ssl.create_default_context(cafile=str(tls_certificates.ca))
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        with context.wrap_socket(sock, server_hostname="localhost") as tls:
            assert tls.version() == "TLSv1.3" and tls.cipher()[0].startswith("TLS_")


def tls13_suite(server, ca, offered: str) -> str:
    """The TLS 1.3 suite a client offering `offered` (in its order) gets."""
    out = subprocess.run(["openssl", "s_client", "-connect", f"{server.host}:{server.port}", "-tls1_3",
                          "-ciphersuites", offered, "-CAfile", str(ca), "-servername", "localhost"],
                         input="", capture_output=True, text=True, timeout=10).stdout
    found = re.search(r"Cipher is (\S+)", out)
    assert found, out
    return found.group(1)


def test_tls13_takes_aes_128_gcm_first_whatever_the_clients_order(start, tls_certificates):
    # A client's default order (OpenSSL's, Python's) puts AES-256 first.
    offered = "TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256"
    assert tls13_suite(start(), tls_certificates.ca, offered) == "TLS_AES_128_GCM_SHA256"


def test_tls13_gives_chacha20_to_a_client_that_puts_it_first(start, tls_certificates):
    offered = "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384"
    assert tls13_suite(start(), tls_certificates.ca, offered) == "TLS_CHACHA20_POLY1305_SHA256"


def test_tls13_serves_a_client_with_aes_256_alone(start, tls_certificates):
    assert tls13_suite(start(), tls_certificates.ca, "TLS_AES_256_GCM_SHA384") == "TLS_AES_256_GCM_SHA384"
