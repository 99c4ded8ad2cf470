"""The access log: off by default, gunicorn's atoms, written by the core to
stdout or a file, reopened on SIGUSR1, for app, static and health answers,
WSGI and ASGI."""

import base64
import os
import re
import signal
import time

import httpx
import pytest

from tests.integration.server import Server

OPS = "tests.integration.apps.ops_apps:app"
OPS_ASGI = "tests.integration.apps.ops_apps:asgi_app"
COMBINED = re.compile(r'^127\.0\.0\.1 - - \[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] '
                      r'"GET /q\?a=1 HTTP/1\.1" 200 \d+ "http://ref/" "probe/1\.0"$')


def wait_for_line(read, pattern: str, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in read().splitlines():
            if pattern in line:
                return line
        time.sleep(0.02)
    raise AssertionError(f"no access log line with {pattern!r} in:\n{read()}")


def test_off_by_default():
    server = Server(["--port", "0", OPS]).start()
    try:
        mark = server.log_mark()
        assert httpx.get(server.url + "/nolog-probe", headers={"User-Agent": "probe/1.0"}).status_code == 200
        server.stop()
        assert "nolog-probe" not in server.log_since(mark)
    finally:
        server.stop()


@pytest.mark.parametrize("app", [OPS, OPS_ASGI], ids=["wsgi", "asgi"])
def test_combined_format_to_stdout(app):
    server = Server(["--port", "0", "--access-log", app]).start()
    try:
        mark = server.log_mark()
        httpx.get(server.url + "/q?a=1", headers={"User-Agent": "probe/1.0", "Referer": "http://ref/"})
        line = wait_for_line(lambda: server.log_since(mark), "/q?a=1")
        assert COMBINED.match(line), line
    finally:
        server.stop()


def test_every_atom(tmp_path):
    fmt = ("h=%(h)s|l=%(l)s|u=%(u)s|r=%(r)s|m=%(m)s|U=%(U)s|q=%(q)s|H=%(H)s|s=%(s)s|B=%(B)s|b=%(b)s|f=%(f)s|"
           "a=%(a)s|T=%(T)s|D=%(D)s|M=%(M)s|L=%(L)s|p=%(p)s|i=%({X-Test}i)s|o=%({Content-Type}o)s|"
           "e=%({HOME}e)s|zz=%(zz)s|pct=%%")
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--access-log", "--access-log-format", fmt, "--access-logfile", str(log),
                     OPS]).start()
    try:
        auth = base64.b64encode(b"alice:secret").decode()
        httpx.get(server.url + "/slow?0.2", headers={"X-Test": "v1", "Authorization": f"Basic {auth}",
                                                     "User-Agent": 'agent "quoted"'})
        line = wait_for_line(log.read_text, "U=/slow")
    finally:
        server.stop()
    fields = dict(part.split("=", 1) for part in line.split("|"))
    assert fields["h"] == "127.0.0.1" and fields["l"] == "-" and fields["u"] == "alice"
    assert fields["r"] == "GET /slow?0.2 HTTP/1.1" and fields["m"] == "GET" and fields["U"] == "/slow"
    assert fields["q"] == "0.2" and fields["H"] == "HTTP/1.1" and fields["s"] == "200"
    assert int(fields["B"]) > 0 and fields["b"] == fields["B"] and fields["f"] == "-"
    assert fields["a"] == 'agent \\"quoted\\"'  # escaped: no request can forge a log line
    assert fields["T"] == "0" and 200_000 <= int(fields["D"]) < 5_000_000
    assert 200 <= int(fields["M"]) < 5000 and fields["L"].startswith("0.")
    assert fields["p"] == str(server.proc.pid)
    assert fields["i"] == "v1" and fields["o"] == "application/json"
    assert fields["e"] == "-" and fields["zz"] == "-" and fields["pct"] == "%"


def test_static_health_and_not_modified_are_logged(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--access-log", "--access-logfile", str(log), "--static-path-route", "/s",
                     "--static-path-mount", str(tmp_path), "--health-path", "/up", OPS]).start()
    try:
        etag = httpx.get(server.url + "/s/a.txt").headers["etag"]
        httpx.get(server.url + "/s/a.txt", headers={"If-None-Match": etag})
        httpx.get(server.url + "/up")
        httpx.get(server.url + "/s/missing")
        wait_for_line(log.read_text, "/s/missing")
    finally:
        server.stop()
    lines = log.read_text().splitlines()
    assert any('"GET /s/a.txt HTTP/1.1" 200 5 ' in line for line in lines)
    assert any('"GET /s/a.txt HTTP/1.1" 304 - ' in line for line in lines)
    assert any('"GET /up HTTP/1.1" 200 3 ' in line for line in lines)
    assert any('"GET /s/missing HTTP/1.1" 404 ' in line for line in lines)


def test_sigusr1_reopens_the_file(tmp_path):
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--access-log", "--access-logfile", str(log), OPS]).start()
    try:
        httpx.get(server.url + "/before")
        wait_for_line(log.read_text, "/before")
        rotated = tmp_path / "access.log.1"
        os.rename(log, rotated)
        server.signal(signal.SIGUSR1)
        deadline = time.monotonic() + 5
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        httpx.get(server.url + "/after")
        wait_for_line(log.read_text, "/after")
        assert "/after" not in rotated.read_text()
        assert "/before" in rotated.read_text()
    finally:
        server.stop()


def test_an_unwritable_log_file_is_one_line(tmp_path):
    server = Server(["--port", "0", "--access-log", "--access-logfile", str(tmp_path / "no" / "dir.log"), OPS])
    try:
        server.start()
    except RuntimeError as error:
        assert "cannot open the access log" in str(error)
    else:
        raise AssertionError("baton started with an access log it cannot write")
    finally:
        server.stop()


def test_each_worker_logs_its_own_pid(tmp_path):
    # %(p)s is read once per log; the log is made in each worker after the
    # fork, so the lines carry the workers' pids, never the master's.
    log = tmp_path / "access.log"
    server = Server(["--port", "0", "--workers", "2", "--access-log", "--access-logfile", str(log),
                     "--access-log-format", "%(p)s %(U)s", OPS]).start()
    try:
        served = set()
        deadline = time.monotonic() + 15
        while len(served) < 2 and time.monotonic() < deadline:
            served.add(httpx.get(server.url + "/slow?0.02", timeout=10).json()["pid"])
        assert len(served) == 2, "both workers should have answered"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            logged = {int(line.split()[0]) for line in log.read_text().splitlines() if line.endswith("/slow")}
            if logged >= served:
                break
            time.sleep(0.05)
        assert logged == served and server.proc.pid not in logged
    finally:
        server.stop()
