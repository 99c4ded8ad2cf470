"""Where baton listens: -b repeatable in every form, every address a name
resolves to, inherited sockets (fd://N, --fd, systemd's LISTEN_FDS), and
SIGHUP reloading a process that serves alone on the same sockets."""

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.integration.server import ROOT, Server, burst, read_response

OPS = "tests.integration.apps.ops_apps:app"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def ask(url: str) -> dict:
    return httpx.get(url, timeout=10).json()


def test_bind_repeatable_tcp_v6_and_unix(tmp_path):
    port = free_port()
    path = tmp_path / "b.sock"
    args = ["-b", f"127.0.0.1:{port}", "--bind", f"unix:{path}"]
    if has_ipv6_loopback():
        args += ["-b", "[::1]:0"]
    server = Server([*args, OPS]).start()
    try:
        assert ask(f"http://127.0.0.1:{port}/")["SERVER_PORT"] == str(port)
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(path))) as client:
            assert client.get("http://x/").json()["SERVER_NAME"] == "localhost"
        first_line = next(line for line in server.log.splitlines() if "baton serving" in line)
        assert f"http://127.0.0.1:{port}" in first_line and f"unix:{path}" in first_line
        if has_ipv6_loopback():
            v6_port = int(re.search(r"http://\[::1\]:(\d+)", first_line).group(1))
            seen = ask(f"http://[::1]:{v6_port}/")
            assert seen["REMOTE_ADDR"] == "::1" and seen["SERVER_NAME"] == "::1"
            assert seen["SERVER_PORT"] == str(v6_port)
    finally:
        server.stop()
    assert not path.exists()


@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_every_address_of_a_name():
    # A name that resolves to both families here: localhost when the hosts
    # file says so, else the empty host (both wildcards; only loopback is
    # ever spoken to).
    families = {info[0] for info in socket.getaddrinfo("localhost", 80, type=socket.SOCK_STREAM)}
    host = "localhost" if families == {socket.AF_INET, socket.AF_INET6} else ""
    port = free_port()
    server = Server(["--host", host, "--port", str(port), OPS]).start()
    try:
        assert ask(f"http://127.0.0.1:{port}/")["REMOTE_ADDR"] == "127.0.0.1"
        assert ask(f"http://[::1]:{port}/")["REMOTE_ADDR"] == "::1"
        line = next(line for line in server.log.splitlines() if "baton serving" in line)
        assert line.count("http://") == 2, line
    finally:
        server.stop()


def listening_socket() -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    return listener


def serve_inherited(command: list[str], listener: socket.socket) -> None:
    """Runs `command` with `listener` passed down, checks that the port it was
    bound to is what baton serves and names, then stops it by its pid."""
    port = listener.getsockname()[1]
    proc = subprocess.Popen(command, cwd=ROOT, pass_fds=[listener.fileno()], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    listener.close()
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                assert ask(f"http://127.0.0.1:{port}/")["SERVER_PORT"] == str(port)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stdout.read()
                time.sleep(0.05)
    finally:
        proc.terminate()
        assert proc.wait(10) == 0


@pytest.mark.parametrize("form", ["bind", "fd"])
def test_inherited_descriptor(form):
    listener = listening_socket()
    fd = listener.fileno()
    args = ["-b", f"fd://{fd}"] if form == "bind" else ["--fd", str(fd)]
    serve_inherited([sys.executable, "-m", "baton", *args, OPS], listener)


def test_systemd_socket_activation():
    """LISTEN_FDS/LISTEN_PID as systemd sets them: descriptors from 3, for this pid."""
    listener = listening_socket()
    # A tiny stand-in for systemd: put the socket at fd 3, set the variables
    # for the pid that will exec baton, then exec it. It is served there, not
    # on --port 1, which the activated sockets replace.
    launcher = (
        "import os, sys\n"
        f"os.dup2({listener.fileno()}, 3)\n"
        "os.environ['LISTEN_FDS'] = '1'\n"
        "os.environ['LISTEN_PID'] = str(os.getpid())\n"
        f"os.execv(sys.executable, [sys.executable, '-m', 'baton', '--host', '127.0.0.1', '--port', '1', {OPS!r}])\n")
    serve_inherited([sys.executable, "-c", launcher], listener)


def test_reuse_port_lets_two_processes_share_a_port():
    port = free_port()
    first = Server(["--port", str(port), "--reuse-port", OPS]).start()
    second = Server(["--port", str(port), "--reuse-port", OPS]).start()
    try:
        pids = {ask(f"http://127.0.0.1:{port}/")["pid"] for _ in range(60)}
        assert pids <= {first.proc.pid, second.proc.pid}
        assert len(pids) == 2
    finally:
        first.stop()
        second.stop()


def test_sighup_alone_reloads_in_place_without_refusing_anyone(tmp_path):
    (tmp_path / "reloadable.py").write_text(
        "import os\n"
        "def app(environ, start_response):\n"
        "    body = ('v1 %d' % os.getpid()).encode()\n"
        "    if environ['PATH_INFO'] == '/slow':\n"
        "        import time; time.sleep(1)\n"
        "    start_response('200 OK', [('Content-Length', str(len(body)))])\n"
        "    return [body]\n")
    server = Server(["--port", "0", "--app-dir", str(tmp_path), "reloadable:app"]).start()
    try:
        assert httpx.get(server.url + "/").text == f"v1 {server.proc.pid}"
        slow = server.connect()
        slow.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.2)
        (tmp_path / "reloadable.py").write_text((tmp_path / "reloadable.py").read_text().replace("v1", "v2"))
        errors = []
        answered = []
        stop = threading.Event()

        def hammer():
            while not stop.is_set():
                try:
                    r = httpx.get(server.url + "/", timeout=10, headers={"Connection": "close"})
                except httpx.TransportError as error:
                    errors.append(error)
                    continue
                # A refusal is a 503 as much as a reset is: every answer must be a 200.
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:80]!r}")
                answered.append(r.status_code)

        thread = threading.Thread(target=hammer)
        thread.start()
        server.signal(__import__("signal").SIGHUP)
        # The request in flight is answered by the old code.
        status, _, body, _ = read_response(slow)
        assert status == 200 and body.startswith(b"v1")
        deadline = time.monotonic() + 10
        while not httpx.get(server.url + "/", timeout=10).text.startswith("v2"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        stop.set()
        thread.join()
        assert not errors, errors[:3]
        # (Requests that arrive during the drain wait for the new server: the
        # hammer gets few answers across the reload, but gets them.)
        assert answered, "the hammer got no answer across the reload"
        # Same process (a supervisor's pid file stays true), new code.
        assert httpx.get(server.url + "/").text == f"v2 {server.proc.pid}"
        assert server.proc.poll() is None
    finally:
        server.stop()


def test_a_burst_of_connections_is_spread_over_the_workers():
    # One socket that both workers wait on gives a burst to whichever the
    # kernel wakes first (64 of 64, three bursts in three); each worker's
    # own socket in one SO_REUSEPORT group gets a share by the kernel's hash
    # of the client's port: 32 on average, below 12 about once in 10^7.
    server = Server(["--workers", "2", "--port", "0", OPS]).start()
    try:
        assert server.wait_for_log("started worker", timeout=10)
        for _ in range(3):
            pids = [json.loads(body)["pid"] for body in burst(server.host, server.port, 64)]
            shares = sorted(pids.count(pid) for pid in set(pids))
            assert len(shares) == 2 and shares[0] >= 12, shares
    finally:
        server.stop()


def test_a_port_in_use_by_another_server_of_workers_is_refused():
    # Each worker's socket has SO_REUSEPORT, which would let a second
    # server with the same option join the port and take half its
    # connections: the address is tried without it first.
    first = Server(["--workers", "2", "--port", "0", OPS]).start()
    try:
        result = subprocess.run([sys.executable, "-m", "baton", "--workers", "2", "--port", str(first.port), OPS],
                                cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip().splitlines()[-1] == (
            f"baton: error: cannot listen on http://127.0.0.1:{first.port}: Address already in use")
    finally:
        first.stop()


# The seam between baton/serve.py and the core: a key neither the core's
# option table nor the bridge reads is refused at start, naming it, and the
# listening socket handed over is closed (the core owns it from the call).
@pytest.mark.parametrize("entry", ["serve", "AsgiServer"])
def test_the_core_refuses_an_option_it_does_not_know(entry):
    from baton import _baton

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    fd = sock.detach()
    with pytest.raises(TypeError, match="unknown server option 'keep_alive_timout'"):
        if entry == "serve":
            _baton.serve(lambda environ, start_response: [], [fd], keep_alive_timout=5.0)
        else:
            _baton.AsgiServer(lambda scope, receive, send: None, [fd], None, print, None, keep_alive_timout=5.0)
    with pytest.raises(OSError):
        os.fstat(fd)
