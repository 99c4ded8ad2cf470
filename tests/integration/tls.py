"""TLS for the tests: certificates made with the openssl command, and a client
connection that behaves like a plain socket.

The client runs Python's ssl over memory BIOs on a plain socket, not as an
ssl.SSLSocket: the raw-socket tests half-close (close_notify, then
shutdown(SHUT_WR)) and go on reading the answers, which an SSLSocket cannot
do (its shutdown() drops the TLS layer).
"""

from __future__ import annotations

import select
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

KEY_PASSWORD = "correct horse"


@dataclass(frozen=True)
class Certificates:
    ca: Path            # the CA that signed the others
    cert: Path          # the server's, for localhost and 127.0.0.1
    key: Path
    combined: Path      # certificate and key in one file
    encrypted_key: Path # the server's key under KEY_PASSWORD
    other_cert: Path    # another server certificate (for the reload test), same CA
    other_key: Path
    client_cert: Path   # a client's, signed by the CA (CN=alice)
    client_key: Path
    stranger_cert: Path # a client's, self-signed (no CA we trust)
    stranger_key: Path


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _signed(directory: Path, name: str, subject: str, extensions: str) -> tuple[Path, Path]:
    (directory / f"{name}.ext").write_text(extensions)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
             "-subj", subject, cwd=directory)
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-days", "2", "-out", f"{name}.pem", "-extfile", f"{name}.ext", cwd=directory)
    return directory / f"{name}.pem", directory / f"{name}.key"


def make_certificates(directory: Path) -> Certificates:
    directory.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
             "-subj", "/CN=baton test CA", cwd=directory)
    server_ext = "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
    cert, key = _signed(directory, "server", "/CN=localhost", server_ext)
    other_cert, other_key = _signed(directory, "other", "/CN=localhost/O=reloaded", server_ext)
    client_cert, client_key = _signed(directory, "client", "/CN=alice/O=baton tests", "extendedKeyUsage=clientAuth\n")
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "stranger.key", "-out", "stranger.pem",
             "-days", "2", "-subj", "/CN=mallory", cwd=directory)
    _openssl("pkey", "-in", "server.key", "-aes256", "-passout", f"pass:{KEY_PASSWORD}", "-out", "encrypted.key",
             cwd=directory)
    combined = directory / "combined.pem"
    combined.write_bytes(cert.read_bytes() + key.read_bytes())
    return Certificates(directory / "ca.pem", cert, key, combined, directory / "encrypted.key", other_cert, other_key,
                        client_cert, client_key, directory / "stranger.pem", directory / "stranger.key")


def client_context(ca: Path | None = None, cert: Path | None = None, key: Path | None = None,
                   alpn: list[str] | None = None) -> ssl.SSLContext:
    """A client's context: verifying against `ca` (no verification without it), with a client certificate."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca) if ca else None)
    if ca is None:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if cert is not None:
        context.load_cert_chain(str(cert), str(key) if key else None)
    if alpn:
        context.set_alpn_protocols(alpn)
    return context


def settled_tls_socket(host: str, port: int, context: ssl.SSLContext | None = None,
                       timeout: float = 10.0) -> ssl.SSLSocket:
    """A connected ssl.SSLSocket, handshake done and, over TLS 1.3, the server's session
    ticket already read, for clients that read and write one SSLSocket from two threads.

    websockets' sync client does: a thread waits in recv() while another sends. Python's
    SSLSocket is not safe for that (CPython issue 76714), and the ticket a TLS 1.3 server
    sends after the handshake is read by the one thread exactly while the other writes the
    opening request: about one opening in a thousand then never leaves the client (its
    socket's bytes_sent stops at the handshake's), and the client waits for a 101 to a
    request it never sent. Reading the ticket here, before there is a second thread,
    closes that window. (TLS 1.2 has no such message: its tickets are in the handshake.)"""
    raw = socket.create_connection((host, port), timeout=timeout)
    tls = (context or client_context()).wrap_socket(raw, server_hostname=host)
    if tls.version() == "TLSv1.3":
        deadline = time.monotonic() + timeout
        tls.setblocking(False)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([tls], [], [], left)[0]:
                raise TimeoutError("no session ticket from the TLS 1.3 server")
            try:
                tls.recv(1)  # processes the ticket; there is no data before the request
            except ssl.SSLWantReadError:
                break
            raise AssertionError("the server sent data before the client's request")
        tls.setblocking(True)
    tls.settimeout(None)
    return tls


class TlsConnection:
    """A TLS client connection with a socket's calls (sendall, recv, shutdown, close, settimeout...)."""

    def __init__(self, sock: socket.socket, context: ssl.SSLContext, server_hostname: str | None = None):
        self.sock = sock
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self.tls = context.wrap_bio(self._incoming, self._outgoing, server_side=False,
                                    server_hostname=server_hostname)
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._flush()
                if not self._pull():
                    raise ConnectionResetError("the server closed the connection during the handshake") from None
        self._flush()

    def _flush(self) -> None:
        data = self._outgoing.read()
        if data:
            self.sock.sendall(data)

    def _pull(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            self._incoming.write_eof()
            return False
        self._incoming.write(data)
        return True

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = self.tls.write(view[:16384])
            view = view[n:]
            self._flush()

    def send(self, data: bytes) -> int:
        self.sendall(data)
        return len(data)

    def recv(self, n: int) -> bytes:
        while True:
            try:
                return self.tls.read(n)
            except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
                return b""
            except ssl.SSLWantReadError:
                self._flush()
                if not self._pull():
                    try:
                        return self.tls.read(n)
                    except (ssl.SSLZeroReturnError, ssl.SSLEOFError, ssl.SSLWantReadError):
                        return b""

    def shutdown(self, how: int) -> None:
        """SHUT_WR: close_notify, then the socket's write side; reading goes on."""
        if how in (socket.SHUT_WR, socket.SHUT_RDWR):
            try:
                self.tls.unwrap()
            except (ssl.SSLWantReadError, ssl.SSLError):
                pass
            self._flush()
        self.sock.shutdown(how)

    def close(self) -> None:
        self.sock.close()

    def version(self) -> str | None:
        return self.tls.version()

    def selected_alpn_protocol(self) -> str | None:
        return self.tls.selected_alpn_protocol()

    def getpeercert(self, binary_form: bool = False):
        return self.tls.getpeercert(binary_form)

    def __getattr__(self, name: str):
        return getattr(self.sock, name)

    def __enter__(self) -> "TlsConnection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
