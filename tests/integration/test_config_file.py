"""-c FILE: a gunicorn.conf.py (settings and server hooks) or a TOML file,
under the environment and the command line, as --print-config shows."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import httpx
import pytest

from tests.integration.server import ROOT, Server

APP = "tests.integration.apps.entry_apps:hello"

HOOKS = '''
import os

MARKS = os.environ["HOOKS_LOG"]


def mark(*words):
    with open(MARKS, "a") as f:
        f.write(" ".join(str(word) for word in words) + "\\n")


def nworkers_changed(server, new, old):
    mark("nworkers_changed", os.getpid(), new, old)


def on_starting(server):
    mark("on_starting", os.getpid())


def when_ready(server):
    mark("when_ready", os.getpid(), server.num_workers, server.cfg.keepalive, server.cfg.bind[0])


def pre_fork(server, worker):
    mark("pre_fork", os.getpid(), worker.age)


def post_fork(server, worker):
    mark("post_fork", os.getpid(), worker.pid, worker.ppid, worker.age)


def post_worker_init(worker):
    mark("post_worker_init", os.getpid(), worker.pid, worker.wsgi is not None)


def worker_exit(server, worker):
    mark("worker_exit", os.getpid(), worker.pid)


def child_exit(server, worker):
    mark("child_exit", os.getpid(), worker.pid)


def on_reload(server):
    mark("on_reload", os.getpid())


def on_exit(server):
    mark("on_exit", os.getpid())
'''

GUNICORN_CONF = '''
bind = "127.0.0.1:0"
workers = 2
keepalive = 7
graceful_timeout = 3
accesslog = "-"
worker_class = "sync"
user = "nobody"
statsd_host = "localhost:8125"
proc_name = "shop"
worker_connections = 1000  # gunicorn's default: nothing to say about it
spew = False
helper = 42  # the file's own name, not a setting


def pre_request(worker, req):
    pass
''' + HOOKS


def write(path, text: str):
    path.write_text(textwrap.dedent(text))
    return path


def marks(path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines()] if path.exists() else []


def wait_for_marks(path, done, timeout: float = 15.0) -> list[list[str]]:
    """The marks once `done(marks)` holds (the hooks run in other processes)."""
    deadline = time.monotonic() + timeout
    while not done(marks(path)):
        assert time.monotonic() < deadline, marks(path)
        time.sleep(0.02)
    return marks(path)


def named(lines, hook: str) -> list[list[str]]:
    return [line[1:] for line in lines if line[0] == hook]


def test_a_gunicorn_conf_py_sets_options_and_its_hooks_run_at_the_masters_moments(tmp_path):
    conf = write(tmp_path / "gunicorn.conf.py", GUNICORN_CONF)
    log = tmp_path / "hooks.log"
    server = Server(["-c", str(conf), APP], env={"HOOKS_LOG": str(log)}).start()
    try:
        master = str(server.proc.pid)
        lines = wait_for_marks(log, lambda m: len(named(m, "post_worker_init")) == 2)
        assert httpx.get(server.url + "/", timeout=10).status_code == 200
        assert named(lines, "nworkers_changed") == [[master, "2", "None"]]
        assert named(lines, "on_starting") == [[master]]
        assert named(lines, "when_ready") == [[master, "2", "7.0", "127.0.0.1:0"]]
        assert named(lines, "pre_fork") == [[master, "1"], [master, "2"]]
        # post_fork once per worker, in the worker, with that worker's pid.
        forked = named(lines, "post_fork")
        assert len(forked) == 2 and sorted(age for *_, age in forked) == ["1", "2"]
        for pid, worker_pid, ppid, _ in forked:
            assert pid == worker_pid != master and ppid == master
        first = {pid for pid, *_ in forked}
        assert {(pid, wpid, loaded) for pid, wpid, loaded in named(lines, "post_worker_init")} == {
            (pid, pid, "True") for pid in first}

        server.signal(signal.SIGHUP)
        lines = wait_for_marks(log, lambda m: len(named(m, "post_worker_init")) == 4
                               and len(named(m, "child_exit")) == 2)
        assert named(lines, "on_reload") == [[master]]
        assert {pid for pid, _ in named(lines, "worker_exit")} == first
        assert {(pid, wpid) for pid, wpid in named(lines, "child_exit")} == {(master, pid) for pid in first}
        second = {pid for pid, *_ in named(lines, "post_fork")} - first
        assert len(second) == 2

        server.signal(signal.SIGTERM)
        assert server.wait(20) == 0, server.log
    finally:
        server.stop()
    lines = marks(log)
    assert lines[-1] == ["on_exit", master]
    assert {pid for pid, _ in named(lines, "worker_exit")} == first | second
    assert len(named(lines, "when_ready")) == 1 and len(named(lines, "on_starting")) == 1
    # The settings baton has nothing for, in one warning line; gunicorn's defaults and the file's own names not.
    warnings = [line for line in server.log.splitlines() if "baton has no setting for" in line]
    assert len(warnings) == 1, server.log
    assert warnings[0].endswith(f"{conf}: baton has no setting for user, statsd_host, proc_name, pre_request; "
                                "they are ignored")
    assert "[WARNING]" in warnings[0]
    assert "worker_class = 'sync' ignored" in server.log


def test_serving_alone_the_process_is_its_own_worker_for_the_hooks(tmp_path):
    conf = write(tmp_path / "gunicorn.conf.py", 'bind = "127.0.0.1:0"\nworkers = 2\n' + HOOKS)
    log = tmp_path / "hooks.log"
    # The command line's --workers 0 over the file's 2: no master.
    server = Server(["-c", str(conf), "--workers", "0", APP], env={"HOOKS_LOG": str(log)}).start()
    try:
        pid = str(server.proc.pid)
        assert httpx.get(server.url + "/", timeout=10).text == f"wsgi {pid}"
        server.signal(signal.SIGTERM)
        assert server.wait(20) == 0, server.log
    finally:
        server.stop()
    assert [line[0] for line in marks(log)] == ["nworkers_changed", "on_starting", "post_fork", "post_worker_init",
                                                "when_ready", "worker_exit", "on_exit"]
    assert all(line[1] == pid for line in marks(log))
    # The server stand-in is this same process: worker.ppid is its pid, as it is the master's with one.
    assert named(marks(log), "post_fork") == [[pid, pid, pid, "1"]]


def print_config(*args: str, env: dict | None = None) -> dict[str, tuple[str, str]]:
    result = subprocess.run([sys.executable, "-m", "baton", "--print-config", *args], cwd=ROOT, capture_output=True,
                            text=True, timeout=20, env=dict(os.environ, **(env or {})))
    assert result.returncode == 0, result.stderr
    shown = {}
    for line in result.stdout.splitlines():
        text, _, source = line.lstrip("# ").partition("  # ")
        name, _, value = text.partition(" = ")
        shown[name] = (value.strip(), source.strip())
    return shown


def test_print_config_shows_each_layer_over_the_one_below(tmp_path):
    conf = write(tmp_path / "gunicorn.conf.py", """
        workers = 2
        keepalive = 7
        backlog = 100
        graceful_timeout = 3
        wsgi_app = "tests.integration.apps.entry_apps:hello"
    """)
    # A bad BATON_MAX_HEADERS is never read: the command line gives that option.
    env = {"BATON_CONFIG": str(conf), "BATON_KEEP_ALIVE_TIMEOUT": "8", "BATON_BACKLOG": "200",
           "BATON_MAX_HEADERS": "many"}
    shown = print_config("--backlog", "300", "--max-headers", "50", env=env)
    where = f"file {conf}"
    assert shown["app"] == ('"tests.integration.apps.entry_apps:hello"', where)
    assert shown["workers"] == ("2", where)
    assert shown["graceful_timeout"] == ("3.0", where)
    assert shown["keep_alive_timeout"] == ("8.0", "environment BATON_KEEP_ALIVE_TIMEOUT")
    assert shown["backlog"] == ("300", "command line")
    assert shown["max_headers"] == ("50", "command line")
    assert shown["header_read_timeout"] == ("10.0", "default")
    # -c on the command line names the file as BATON_CONFIG does.
    assert print_config("-c", str(conf))["workers"] == ("2", where)


def test_the_file_may_be_named_as_gunicorn_takes_it_file_or_python_module(tmp_path):
    write(tmp_path / "shopconf.py", "workers = 3\n")
    write(tmp_path / "gunicorn.conf", "workers = 4\n")  # no .py: still a Python file
    shown = print_config("-c", "python:shopconf", APP, env={"PYTHONPATH": str(tmp_path)})
    assert shown["workers"] == ("3", "file python:shopconf")
    shown = print_config("-c", f"file:{tmp_path / 'gunicorn.conf'}", APP)
    assert shown["workers"] == ("4", f"file {tmp_path / 'gunicorn.conf'}")


TOML = """
app = "tests.integration.apps.entry_apps:hello"
bind = "127.0.0.1:0"
keep-alive-timeout = 11
blocking_threads = 0
server-header = false
"""


def test_a_toml_file_of_batons_option_names_configures_the_server(tmp_path):
    conf = write(tmp_path / "baton.toml", TOML)
    shown = print_config("-c", str(conf))
    assert shown["keep_alive_timeout"] == ("11.0", f"file {conf}")
    assert shown["blocking_threads"] == ("0", f"file {conf}")
    server = Server(["-c", str(conf)]).start()
    try:
        answer = httpx.get(server.url + "/", timeout=10)
        assert answer.status_code == 200 and "server" not in answer.headers
        assert "1 app thread" not in server.log and "the app on the loop thread" in server.log
    finally:
        server.stop()


def one_line_error(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "baton", *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=20)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_bad_files_are_one_line_and_exit_2(tmp_path):
    toml = write(tmp_path / "bad.toml", 'workers = 1\nkeep_alive = 3\n')
    assert one_line_error("-c", str(toml), APP) == (
        f"baton: error: {toml}: unknown option 'keep_alive' (a TOML file takes baton's option names, as "
        "`baton --help` lists them)")
    conf = write(tmp_path / "zero.conf.py", "keepalive = 0\n")
    assert one_line_error("-c", str(conf), APP) == (
        f"baton: error: {conf}: keepalive (--keep-alive-timeout) = 0: must be greater than 0 and at most 2073600")
    conf = write(tmp_path / "daemon.conf.py", "daemon = True\n")
    assert one_line_error("-c", str(conf), APP).startswith(
        f"baton: error: {conf}: daemon = True: baton does not daemonize itself")
    conf = write(tmp_path / "broken.conf.py", "workers = 2\nbind = undefined_name\n")
    assert one_line_error("-c", str(conf), APP) == (
        f"baton: error: {conf}:2: NameError: name 'undefined_name' is not defined")
    assert one_line_error("-c", str(tmp_path / "missing.py"), APP) == (
        f"baton: error: --config: no such file: {str(tmp_path / 'missing.py')!r}")


def test_toml_without_tomllib_says_what_it_needs(tmp_path, monkeypatch):
    # Python 3.10 has no tomllib: tomli stands in when it is installed, else one line says so.
    from baton import config_file
    from baton.config import ConfigError

    monkeypatch.setitem(sys.modules, "tomllib", None)
    monkeypatch.setitem(sys.modules, "tomli", None)
    toml = write(tmp_path / "baton.toml", TOML)
    with pytest.raises(ConfigError, match=r"reading TOML needs Python 3\.11 or later, or `pip install tomli`"):
        config_file.read(str(toml))


@pytest.mark.parametrize("value, on", [('"v2"', "true"), ('"auto"', "true"), ("True", "true"), ('"off"', "false")])
def test_gunicorns_proxy_protocol_settings_turn_on_batons(tmp_path, value, on):
    """gunicorn's proxy_protocol (off, v1, v2, auto; True in older releases) and the peers it
    believes a PROXY header from (proxy_allow_ips), which baton asks of --forwarded-allow-ips."""
    conf = write(tmp_path / "gunicorn.conf.py", f"""
        proxy_protocol = {value}
        proxy_allow_ips = "10.1.2.3,10.1.2.4"
        wsgi_app = "tests.integration.apps.entry_apps:hello"
    """)
    shown = print_config("-c", str(conf))
    assert shown["proxy_protocol"] == (on, f"file {conf}")
    assert shown["forwarded_allow_ips"] == ('"10.1.2.3,10.1.2.4"', f"file {conf}")
