"""baton.run() and baton.serving(): the command called from Python, and a
server on a thread of the test's own process."""

import os
import signal
import socket
import subprocess
import sys
import threading

import httpx
import pytest

import baton
from tests.integration.apps import entry_apps
from tests.integration.server import ROOT, Server

SCRIPT = """\
import sys
sys.path.insert(0, {root!r})
import baton
from tests.integration.apps import entry_apps
baton.run({app}, **{options!r})
print("baton.run returned", flush=True)
"""


def run_in_subprocess(tmp_path, app: str, **options) -> Server:
    """A script that calls baton.run(app, **options), started and its port read from the log."""
    script = tmp_path / "serve.py"
    script.write_text(SCRIPT.format(root=str(ROOT), app=app, options={"port": 0, **options}))
    return Server([], program=(str(script),)).start()


RUN_SHAPES = {
    "wsgi-inline": ("entry_apps.hello", {"blocking_threads": 0}, "wsgi"),
    "wsgi-pool": ("entry_apps.hello", {"blocking_threads": 2}, "wsgi"),
    "asgi-pump": ("entry_apps.hello_asgi", {"asgi_mode": "pump"}, "asgi"),
    "asgi-inverted": ("entry_apps.hello_asgi", {"asgi_mode": "inverted"}, "asgi"),
    "workers-string": ("'tests.integration.apps.entry_apps:hello'", {"workers": 2}, "wsgi"),
    "workers-object": ("entry_apps.hello", {"workers": 2, "bind": "127.0.0.1:0"}, "wsgi"),
}


@pytest.mark.parametrize("shape", list(RUN_SHAPES))
def test_run_serves_until_sigterm_and_then_returns(tmp_path, shape):
    app, options, interface = RUN_SHAPES[shape]
    server = run_in_subprocess(tmp_path, app, **options)
    try:
        answer = httpx.get(server.url + "/", timeout=10)
        assert answer.status_code == 200
        kind, pid = answer.text.split()
        assert kind == interface
        if options.get("workers"):
            assert int(pid) != server.proc.pid  # a worker answered, not the master
        else:
            assert int(pid) == server.proc.pid
        server.signal(signal.SIGTERM)
        assert server.wait(20) == 0, server.log
    finally:
        server.stop()
    # run() came back (in the master, once: the workers never return into the script).
    assert server.log.count("baton.run returned") == 1, server.log


def test_run_serving_alone_reloads_on_sighup_by_starting_the_script_over_on_the_same_socket(tmp_path):
    server = run_in_subprocess(tmp_path, "'tests.integration.apps.entry_apps:hello'")
    try:
        assert httpx.get(server.url, timeout=10).text == f"wsgi {server.proc.pid}"
        mark = server.log_mark()
        server.signal(signal.SIGHUP)
        assert server.wait_for_log("reloading: starting over on the same sockets", since=mark)
        # The script ran again (same pid) and serves on the socket it was handed.
        assert server.wait_for_log(f"on {server.url}", since=mark), server.log
        assert httpx.get(server.url, timeout=10).text == f"wsgi {server.proc.pid}"
        server.signal(signal.SIGTERM)
        assert server.wait(20) == 0, server.log
    finally:
        server.stop()
    assert server.log.count("baton.run returned") == 1, server.log


def test_run_names_an_unknown_option_in_a_type_error():
    with pytest.raises(TypeError, match="'wokers'.*did you mean 'workers'"):
        baton.run(entry_apps.hello, wokers=2)


def cli_error(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "baton", "tests.integration.apps.entry_apps:hello", *args],
                            cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert result.returncode == 2
    return result.stderr.strip()


def test_run_refuses_a_bad_value_with_the_command_line_message():
    with pytest.raises(ValueError) as raised:
        baton.run(entry_apps.hello, keep_alive_timeout=0)
    message = str(raised.value)
    assert message.startswith("keep_alive_timeout=0: ")
    assert cli_error("--keep-alive-timeout", "0").endswith(message.split(": ", 1)[1])
    with pytest.raises(ValueError) as raised:
        baton.run(entry_apps.hello, max_requests_jitter=5)
    assert cli_error("--max-requests-jitter", "5") == f"baton: error: {raised.value}"
    with pytest.raises(ValueError, match="choose from auto, pump, inverted"):
        baton.run(entry_apps.hello, asgi_mode="sideways")


def test_run_refuses_reload_with_an_app_object():
    with pytest.raises(ValueError, match="reload=True needs the app as an import string"):
        baton.run(entry_apps.hello, reload=True)


def test_run_must_be_called_on_the_main_thread():
    errors = []

    def call():
        try:
            baton.run(entry_apps.hello)
        except RuntimeError as error:
            errors.append(str(error))

    thread = threading.Thread(target=call)
    thread.start()
    thread.join(10)
    assert errors and "main thread" in errors[0]


SERVING_SHAPES = {
    "wsgi-inline": (entry_apps.hello, entry_apps.slow, {"blocking_threads": 0}),
    "wsgi-pool": (entry_apps.hello, entry_apps.slow, {"blocking_threads": 2}),
    "asgi-pump": (entry_apps.hello_asgi, entry_apps.slow_asgi, {"asgi_mode": "pump"}),
    "asgi-inverted": (entry_apps.hello_asgi, entry_apps.slow_asgi, {"asgi_mode": "inverted"}),
}


def refused(url: str) -> bool:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


@pytest.mark.parametrize("shape", list(SERVING_SHAPES))
def test_serving_answers_from_this_process_and_stops_when_the_block_ends(shape):
    app, _, options = SERVING_SHAPES[shape]
    with baton.serving(app, **options) as url:
        assert url.startswith("http://127.0.0.1:")
        with httpx.Client(base_url=url, timeout=10) as client:
            for _ in range(3):
                answer = client.get("/")
                assert answer.status_code == 200
                assert answer.text.split()[1] == str(os.getpid())
    assert refused(url)


@pytest.mark.parametrize("shape", list(SERVING_SHAPES))
def test_serving_drains_a_request_in_flight_before_it_returns(shape):
    _, slow, options = SERVING_SHAPES[shape]
    entry_apps.inside.clear()
    answers = []
    with baton.serving(slow, **options) as url:
        client = threading.Thread(target=lambda: answers.append(httpx.get(url + "/?0.5", timeout=10)))
        client.start()
        assert entry_apps.inside.wait(10)
    # The block ended while the request was inside the app: it was answered whole before serving() returned.
    client.join(10)
    assert [(a.status_code, a.text) for a in answers] == [(200, "slow done")]
    assert refused(url)


OVERRUN = """\
import sys, threading, time
sys.path.insert(0, {root!r})
import baton, httpx
from tests.integration.apps import entry_apps
started = time.monotonic()
with baton.serving(entry_apps.slow, blocking_threads=1, graceful_timeout=0.2) as url:
    threading.Thread(target=lambda: httpx.get(url + "/?2", timeout=10), daemon=True).start()
    entry_apps.inside.wait(10)
print("the test process lives on after", round(time.monotonic() - started, 1), flush=True)
"""


def test_serving_outlives_a_request_that_overruns_the_graceful_timeout():
    # The command's server ends its process when a stop overruns its budget;
    # one serving a test must not (in a subprocess here, so a regression is
    # seen as that process's death rather than this one's).
    result = subprocess.run([sys.executable, "-c", OVERRUN.format(root=str(ROOT))], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "the test process lives on after" in result.stdout, (result.stdout, result.stderr)


def test_serving_stops_only_its_own_server():
    with baton.serving(entry_apps.hello) as outer:
        with baton.serving(entry_apps.hello_asgi) as inner:
            assert httpx.get(inner, timeout=10).status_code == 200
        assert refused(inner)
        assert httpx.get(outer, timeout=10).status_code == 200


def test_serving_takes_an_import_string_and_options():
    with baton.serving("tests.integration.apps.entry_apps:hello", server_header=False) as url:
        answer = httpx.get(url, timeout=10)
    assert answer.status_code == 200 and "server" not in answer.headers


def test_serving_raises_when_the_app_fails_to_start():
    with pytest.raises(RuntimeError, match="did not start"):
        with baton.serving(entry_apps.failing_startup, lifespan="on"):
            pytest.fail("the block must not run")


def test_serving_refuses_what_needs_a_master_or_the_whole_process():
    with pytest.raises(ValueError, match="workers: baton.serving.* needs a master process"):
        with baton.serving(entry_apps.hello, workers=2):
            pass
    with pytest.raises(ValueError, match="chdir: baton.serving.* leaves the process as it found it"):
        with baton.serving(entry_apps.hello, chdir="/"):
            pass
    with pytest.raises(TypeError, match="unknown option 'port_number'"):
        with baton.serving(entry_apps.hello, port_number=1):
            pass
