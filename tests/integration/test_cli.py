"""The command line: clear one-line errors, options from flags and environment, UDS."""

import os
import socket
import subprocess
import sys

import httpx

from tests.integration.server import ROOT, Server, read_response


def run_baton(*args, env=None, timeout=20):
    return subprocess.run([sys.executable, "-m", "baton", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, **(env or {})))


def test_help_documents_every_option():
    # The list comes from the option table itself, so an option added there
    # and missing from --help fails here.
    from baton.config import OPTIONS

    result = run_baton("--help")
    assert result.returncode == 0
    assert len(OPTIONS) >= 10
    for option in OPTIONS:
        assert option.cli in result.stdout, option.cli
    assert "BATON_" in result.stdout


def test_threads_above_one_on_a_gil_build_is_refused_with_one_line():
    # This suite's interpreter has a GIL: --threads needs a free-threaded one
    # (tests/freethreaded runs the shape on CPython 3.13t).
    assert getattr(sys, "_is_gil_enabled", lambda: True)()
    result = run_baton("tests.integration.apps.wsgi_apps:app", "--threads", "2")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "baton: error: --threads 2 needs a free-threaded CPython (3.13t or later) running without the GIL; this "
        "one has a GIL (use --workers to serve from more cores)"]
    assert run_baton("tests.integration.apps.wsgi_apps:app", "--threads", "2", "--help").returncode == 0


def test_missing_module_is_one_line_and_exit_1():
    result = run_baton("no_such_module_xyz:app")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "baton: error: could not import module 'no_such_module_xyz': No module named 'no_such_module_xyz'"]


def test_missing_attribute_is_one_line_and_exit_1():
    result = run_baton("tests.integration.apps.wsgi_apps:nope")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "baton: error: module 'tests.integration.apps.wsgi_apps' has no attribute 'nope'"]


def test_malformed_app_spec_is_one_line_and_exit_1():
    result = run_baton("tests.integration.apps.wsgi_apps:")
    assert result.returncode == 1
    assert "APP must be module:attribute or a module" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_port_in_use_is_one_line_and_exit_1():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        result = run_baton("tests.integration.apps.wsgi_apps:app", "--port", str(port))
    finally:
        holder.close()
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == f"baton: error: cannot listen on http://127.0.0.1:{port}: Address already in use"
    assert "Traceback" not in result.stderr


def test_an_asgi_app_is_detected_and_served(start_server):
    server = start_server("tests.integration.apps.asgi_app:app")
    assert "ASGI" in server.log
    assert httpx.get(server.url + "/", timeout=10).content == b"asgi"


def test_interface_wsgi_refuses_nothing_but_serves_the_app_as_wsgi(start_server):
    # --interface forces the interface: an ASGI app forced to WSGI fails each request with a 500.
    server = start_server("--interface", "wsgi", "tests.integration.apps.asgi_app:app")
    assert httpx.get(server.url + "/", timeout=10).status_code == 500


def test_options_come_from_the_environment():
    server = Server(["tests.integration.apps.wsgi_apps:app"], env={"BATON_PORT": "0", "BATON_ROOT_PATH": "/mount"})
    server.start()
    try:
        s = server.connect()
        s.sendall(b"GET /mount/echo HTTP/1.1\r\nHost: t\r\n\r\n")
        status, _, body, _ = read_response(s)
        assert status == 200
        assert b'"script_name": "/mount"' in body and b'"path": "/echo"' in body
    finally:
        server.stop()


def test_bad_environment_value_is_reported():
    result = run_baton("tests.integration.apps.wsgi_apps:app", env={"BATON_PORT": "eighty"})
    assert result.returncode == 2
    assert "BATON_PORT" in result.stderr


def test_factory_calls_the_attribute(start_server):
    server = start_server("--factory", "tests.integration.apps.factory_app:create")
    assert httpx.get(server.url + "/", timeout=5).text == "made by a factory"


def test_unix_socket_serves(tmp_path):
    path = tmp_path / "baton.sock"
    server = Server(["--uds", str(path), "tests.integration.apps.wsgi_apps:app"]).start()
    try:
        s = server.connect()
        s.sendall(b"GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
        status, _, body, _ = read_response(s)
        assert status == 200 and b'"remote_addr": ""' in body
    finally:
        server.stop()
    assert not path.exists()


def test_native_hello_needs_no_app(start_server):
    server = start_server("--native-hello")
    r = httpx.get(server.url + "/anything", timeout=5)
    assert r.status_code == 200 and r.text == "Hello, World!"


def test_python_dash_m_and_console_script_are_the_same_program():
    script = ROOT / ".venv" / "bin" / "baton"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0 and result.stdout == run_baton("--help").stdout
