"""Debian's nginx in front of `baton --workers 2 --uds`, as the README's
deployment section configures it: nginx's workers (running as nobody) reach
the socket, the proxy headers reach the app, baton serves the static files,
and the health path turns 503 during a drain while the request in flight
finishes."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.integration.server import ROOT, Server

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture(autouse=True, scope="module")
def nginx_is_installed():
    # make deps installs it: a machine without it is a broken set-up, not a reason to skip.
    assert os.path.exists(NGINX), f"nginx is not installed at {NGINX} (make deps installs the nginx package)"

CONFIG = """
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{site}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def deployment():
    # A directory nginx's workers (nobody) can traverse: pytest's own is 0700.
    directory = Path(tempfile.mkdtemp(prefix="baton-nginx-", dir="/tmp"))
    directory.chmod(0o755)
    static = directory / "static"
    static.mkdir()
    (static / "app.css").write_text("h1 { color: blue }\n")
    sock = directory / "baton.sock"
    baton = Server(["--workers", "2", "--uds", str(sock), "--static-path-route", "/static", "--static-path-mount",
                    str(static), "--health-path", "/healthz", "--graceful-timeout", "10", "--blocking-threads", "2",
                    "tests.integration.apps.ops_apps:app"]).start()
    port = free_port()
    site = (ROOT / "deploy" / "nginx-site.conf").read_text()
    site = site.replace("unix:/run/baton/baton.sock", f"unix:{sock}").replace("listen 80;", f"listen 127.0.0.1:{port};")
    site = site.replace("server_name example.com;", "server_name localhost;")
    # As if nginx terminated TLS: the scheme it forwards is https.
    site = site.replace("X-Forwarded-Proto $scheme", "X-Forwarded-Proto https")
    (directory / "nginx.conf").write_text(CONFIG.format(dir=directory, site=site))
    nginx = subprocess.Popen([NGINX, "-c", str(directory / "nginx.conf"), "-p", str(directory)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            httpx.get(url + "/healthz", timeout=2)
            break
        except httpx.TransportError:
            assert nginx.poll() is None, nginx.stdout.read()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
    yield baton, url, directory
    nginx.terminate()
    try:
        nginx.wait(10)
    except subprocess.TimeoutExpired:
        nginx.kill()
    baton.stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_proxy_headers_reach_the_app(deployment):
    baton, url, directory = deployment
    seen = httpx.get(url + "/whoami").json()
    # Over the Unix socket baton sees no address at all: 127.0.0.1 is the
    # client nginx saw and named; the scheme and the port are nginx's too.
    assert seen["REMOTE_ADDR"] == "127.0.0.1"
    assert seen["HTTP_X_FORWARDED_FOR"] == "127.0.0.1"
    assert seen["wsgi.url_scheme"] == "https"
    assert seen["SERVER_PORT"] == url.rsplit(":", 1)[1]
    assert "connect() to unix" not in (directory / "error.log").read_text()


def test_static_files_come_from_baton(deployment):
    baton, url, _ = deployment
    r = httpx.get(url + "/static/app.css")
    assert r.status_code == 200 and r.text == "h1 { color: blue }\n"
    assert r.headers["etag"].startswith('"') and r.headers["cache-control"].startswith("public, max-age=")
    assert httpx.get(url + "/static/app.css", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    assert httpx.get(url + "/static/%2e%2e/nginx.conf").status_code == 404


def test_health_turns_503_during_a_drain_while_in_flight_finishes(deployment):
    baton, url, _ = deployment
    assert httpx.get(url + "/healthz").status_code == 200
    result = {}

    def slow():
        result["response"] = httpx.get(url + "/slow?2", timeout=15)

    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(0.5)
    baton.signal(signal.SIGTERM)
    time.sleep(0.5)
    during = httpx.get(url + "/healthz", timeout=5)
    assert during.status_code == 503
    thread.join()
    assert result["response"].status_code == 200
    assert baton.wait(15) == 0
