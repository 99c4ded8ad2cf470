"""The access log as JSON (--access-log-format json): one object a line,
each field checked against the request that made it, over HTTP/1.1, h2c and
HTTP/2 over TLS, for WSGI and ASGI, a WebSocket, several workers, bytes no
text could hold, and through --log-config's 'baton.access' logger."""

import datetime
import json
import socket
import subprocess
import sys
import time

import pytest

from tests.conftest import tls_args
from tests.integration.server import Server, read_response

WIRE = {"wsgi": "tests.integration.apps.wire_apps:wsgi", "asgi": "tests.integration.apps.wire_apps:asgi"}
OPS = "tests.integration.apps.ops_apps:app"
WS_ECHO = "tests.integration.apps.ws_apps:echo"
JSON_LOG = ["--access-log", "--access-log-format", "json"]
FIELDS = {"time", "client", "client_port", "method", "path", "query", "protocol", "status", "bytes_in",
          "bytes_out", "duration", "user_agent", "referer", "request_id", "worker", "loop"}


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def json_lines(path) -> list[dict]:
    """Every line of the log, each parsed as it is written (bytes, strict UTF-8)."""
    if not path.exists():
        return []
    return [json.loads(line.decode("utf-8")) for line in path.read_bytes().splitlines()]


def wait_for_entry(path, query: str, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        found = [entry for entry in json_lines(path) if entry["query"] == query]
        if found:
            assert len(found) == 1, found
            return found[0]
        assert time.monotonic() < deadline, f"no line with query {query!r} in {path.read_bytes() if path.exists() else ''!r}"
        time.sleep(0.02)


def curl(url: str, *options: str) -> tuple[int, str]:
    """One request by curl: the local port it used and the HTTP version it spoke."""
    out = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{local_port} %{http_version}", *options, url],
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    port, version = out.stdout.split()
    return int(port), version


def check_entry(entry: dict, *, started, protocol: str, port: int, query: str, body: bytes, pid: int) -> None:
    assert set(entry) == FIELDS, entry
    logged_at = datetime.datetime.fromisoformat(entry["time"])
    assert entry["time"].endswith("+00:00") and len(entry["time"]) == 32, entry["time"]
    assert started <= logged_at <= now(), (started, entry["time"])
    assert entry["client"] == "127.0.0.1" and entry["client_port"] == port
    assert entry["method"] == "POST" and entry["path"] == "/echo" and entry["query"] == query
    assert entry["protocol"] == protocol and entry["status"] == 200
    assert (entry["bytes_in"], entry["bytes_out"]) == (len(body), len(body)), (entry["protocol"], entry["client_port"])
    assert isinstance(entry["duration"], float) and 0 < entry["duration"] < 10
    assert entry["user_agent"] == 'probe "json"/1.0' and entry["referer"] == "http://ref.example/a?b"
    assert entry["request_id"] == "req-" + query
    assert entry["worker"] == pid and entry["loop"] == 0


@pytest.mark.parametrize("interface", ["wsgi", "asgi"])
def test_every_protocol_logs_every_field_of_the_request(tmp_path, tls_certificates, interface):
    log = tmp_path / "access.log"
    body = bytes(range(256)) * 40 + b"tail"
    (tmp_path / "body").write_bytes(body)
    common = ["--data-binary", f"@{tmp_path / 'body'}", "-H", "Content-Type: application/octet-stream",
              "-A", 'probe "json"/1.0', "-e", "http://ref.example/a?b"]
    plain = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), WIRE[interface]])
    secure = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), *tls_args(tls_certificates),
                     WIRE[interface]])
    try:
        plain.start()
        secure.start()
        cases = [
            ("h1", plain, "HTTP/1.1", ["--http1.1"], "http"),
            ("h2c", plain, "HTTP/2", ["--http2-prior-knowledge"], "http"),
            ("h2-tls", secure, "HTTP/2", ["--http2", "--cacert", str(tls_certificates.ca)], "https"),
            ("h1-tls", secure, "HTTP/1.1", ["--http1.1", "--cacert", str(tls_certificates.ca)], "https"),
        ]
        for name, server, protocol, options, scheme in cases:
            query = f"case={name}"
            started = now()
            port, version = curl(f"{scheme}://127.0.0.1:{server.port}/echo?{query}", *common, *options,
                                 "-H", f"X-Request-ID: req-{query}")
            assert version == protocol.removeprefix("HTTP/"), (name, version)
            entry = wait_for_entry(log, query)
            assert entry["protocol"] == protocol, (name, entry)
            check_entry(entry, started=started, protocol=protocol, port=port, query=query,
                        body=body, pid=server.proc.pid)
    finally:
        plain.stop()
        secure.stop()


def test_absent_fields_are_null_and_a_get_has_no_bytes_in(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), WIRE["wsgi"]]).start()
    try:
        curl(f"http://127.0.0.1:{server.port}/big?n=777", "-A", "")  # -A "": no User-Agent at all
        entry = wait_for_entry(log, "n=777")
    finally:
        server.stop()
    assert entry["method"] == "GET" and entry["path"] == "/big" and entry["status"] == 200
    assert entry["bytes_in"] == 0 and entry["bytes_out"] == 777
    assert entry["user_agent"] is None and entry["referer"] is None and entry["request_id"] is None


def test_the_request_id_comes_from_the_header_the_operator_names(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), "--access-log-request-id-header",
                     "X-Correlation-ID", WIRE["asgi"]]).start()
    try:
        curl(f"http://127.0.0.1:{server.port}/info?rid=1", "-H", "X-Request-ID: not-this",
             "-H", "x-correlation-id: corr-9")
        entry = wait_for_entry(log, "rid=1")
    finally:
        server.stop()
    assert entry["request_id"] == "corr-9"


def test_a_bad_request_id_header_name_is_one_line():
    result = subprocess.run([sys.executable, "-m", "baton", WIRE["wsgi"], "--access-log-request-id-header",
                             "x request id"], capture_output=True, text=True, timeout=20)
    assert result.returncode == 2
    assert "--access-log-request-id-header: not a header name: 'x request id'" in result.stderr


def test_bytes_no_text_could_hold_still_make_valid_json(tmp_path):
    # Field values may carry obs-text (bytes 0x80-0xff) and tabs: what is
    # valid UTF-8 stays as it is, each other byte is its Latin-1 character.
    log = tmp_path / "access.log"
    server = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), WIRE["wsgi"]]).start()
    try:
        with server.connect() as sock:
            sock.sendall(b"GET /info?raw=1 HTTP/1.1\r\nHost: x\r\n"
                         b"User-Agent: a\"b\\c \xe9\xff \xc3\xa9 \xed\xa0\x80\r\n"
                         b"Referer: a\tb\r\n\r\n")
            assert read_response(sock)[0] == 200
        entry = wait_for_entry(log, "raw=1")
    finally:
        server.stop()
    assert entry["user_agent"] == 'a"b\\c \u00e9\u00ff \u00e9 \u00ed\u00a0\u0080'
    assert entry["referer"] == "a\tb"


def test_a_websocket_is_one_line_when_it_closes(tmp_path):
    from websockets.sync.client import connect

    log = tmp_path / "access.log"
    server = Server(["--port", "0", *JSON_LOG, "--access-logfile", str(log), WS_ECHO]).start()
    try:
        started = now()
        with connect(f"ws://127.0.0.1:{server.port}/chat?ws=1", additional_headers={"X-Request-ID": "ws-1"},
                     user_agent_header="ws-probe/1", compression=None) as ws:
            port = ws.socket.getsockname()[1]
            ws.send("x" * 100)
            assert ws.recv() == "x" * 100
        entry = wait_for_entry(log, "ws=1")
    finally:
        server.stop()
    assert started <= datetime.datetime.fromisoformat(entry["time"]) <= now()
    assert entry["method"] == "GET" and entry["path"] == "/chat" and entry["protocol"] == "HTTP/1.1"
    assert entry["status"] == 101 and entry["client_port"] == port
    assert entry["user_agent"] == "ws-probe/1" and entry["request_id"] == "ws-1"
    # Frames each way: the message's 100 bytes and a header, the close frames.
    assert 100 < entry["bytes_in"] < 200 and 100 < entry["bytes_out"] < 200, entry
    assert entry["duration"] > 0


def test_each_worker_names_itself(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--workers", "2", *JSON_LOG, "--access-logfile", str(log), OPS]).start()
    try:
        served = {}
        for i in range(12):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                sock.sendall(f"GET /who?i={i} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                status, _, body, _ = read_response(sock)
                assert status == 200
                served[f"i={i}"] = json.loads(body)["pid"]
        logged = {query: wait_for_entry(log, query)["worker"] for query in served}
    finally:
        server.stop()
    assert logged == served and server.proc.pid not in logged.values()


def test_log_config_gives_the_fields_to_python_logging(tmp_path):
    out = tmp_path / "access.txt"
    config = {
        "version": 1,
        "formatters": {"fields": {"format": "%(name)s|%(method)s|%(path)s|%(status)s|%(request_id)s|%(bytes_out)s"},
                       "plain": {"format": "%(message)s"}},
        "handlers": {"file": {"class": "logging.FileHandler", "filename": str(out), "formatter": "fields"},
                     "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain"}},
        "loggers": {"baton": {"handlers": ["console"], "level": "INFO"},
                    "baton.access": {"handlers": ["file"], "level": "INFO", "propagate": False}},
    }
    (tmp_path / "logging.json").write_text(json.dumps(config))
    server = Server(["--port", "0", *JSON_LOG, "--log-config", str(tmp_path / "logging.json"), WIRE["wsgi"]]).start()
    try:
        curl(f"http://127.0.0.1:{server.port}/big?n=5", "-H", "X-Request-ID: py-1")
        deadline = time.monotonic() + 5
        while not (out.exists() and "py-1" in out.read_text()):
            assert time.monotonic() < deadline, out.read_text() if out.exists() else "nothing logged"
            time.sleep(0.02)
    finally:
        server.stop()
    assert out.read_text().splitlines() == ["baton.access|GET|/big|200|py-1|5"]


def test_log_config_takes_the_text_lines_of_every_worker_too(tmp_path):
    out = tmp_path / "access.txt"
    config = {
        "version": 1,
        "formatters": {"plain": {"format": "%(name)s %(message)s"}},
        "handlers": {"file": {"class": "logging.FileHandler", "filename": str(out), "formatter": "plain"},
                     "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain"}},
        "loggers": {"baton": {"handlers": ["console"], "level": "INFO"},
                    "baton.access": {"handlers": ["file"], "level": "INFO", "propagate": False}},
    }
    (tmp_path / "logging.json").write_text(json.dumps(config))
    server = Server(["--port", "0", "--workers", "2", "--access-log", "--access-log-format", "%(p)s %(U)s %(q)s",
                     "--log-config", str(tmp_path / "logging.json"), OPS]).start()
    try:
        pids = {}
        for i in range(12):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                sock.sendall(f"GET /who?i={i} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                status, _, body, _ = read_response(sock)
                assert status == 200
                pids[i] = json.loads(body)["pid"]
        expected = {f"baton.access {pid} /who i={i}" for i, pid in pids.items()}
        deadline = time.monotonic() + 5
        while not (out.exists() and expected <= set(out.read_text().splitlines())):
            assert time.monotonic() < deadline, out.read_text() if out.exists() else "nothing logged"
            time.sleep(0.02)
    finally:
        server.stop()
    assert server.proc.pid not in pids.values()
