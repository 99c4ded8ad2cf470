"""The command line as gunicorn and uvicorn users expect it: every bad value a
one-line error, a module alone finds its app, an import error shows its
traceback, --version, --chdir, --app-dir, --env-file, --pid, --log-config."""

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from tests.integration.server import LISTEN_LINE, ROOT, Server

OPS = "tests.integration.apps.ops_apps:app"


def run_baton(*args, env=None, cwd=ROOT, timeout=20):
    return subprocess.run([sys.executable, "-m", "baton", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, **(env or {})))


@pytest.mark.parametrize("args, words", [
    (["--max-headers", "0"], "--max-headers: must be between 1 and 10000"),
    (["--backlog", "-5"], "--backlog: must be between 1 and 65535"),
    (["--max-body-size", "-1"], "--max-body-size: must be at least 0"),
    (["--port", "70000"], "--port: must be between 0 and 65535"),
    (["--keep-alive-timeout", "0"], "--keep-alive-timeout: must be greater than 0"),
    # The core keeps milliseconds in 32 bits: a longer timeout would wrap.
    (["--timeout", "2592000"], "--timeout: must be between 0 and 2073600"),
    (["--blocking-threads", "x"], "--blocking-threads: not an integer: 'x'"),
    (["--workers", "-1"], "--workers: must be between 0 and 1024"),
    (["--uds-mode", "999"], "--uds-mode: not an octal file mode: '999'"),
    (["--log-level", "loud"], "--log-level: choose from debug, info, warning, error, critical"),
    (["--static-path-route", "static"], "--static-path-route: a path must begin with '/'"),
    (["--static-path-route", "/s"], "give --static-path-route and --static-path-mount in pairs"),
    (["--max-requests-jitter", "5"], "--max-requests-jitter needs --max-requests"),
    (["--env-file", "/no/such/file"], "--env-file: no such file: '/no/such/file'"),
])
def test_bad_values_are_one_line_and_exit_2(args, words):
    result = run_baton(OPS, *args)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("baton: error: ") and words in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def test_bad_environment_value_is_one_line_and_exit_2():
    result = run_baton(OPS, env={"BATON_MAX_HEADERS": "0"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "baton: error: BATON_MAX_HEADERS='0': must be between 1 and 10000"]


def test_log_level_in_any_case():
    server = Server(["--port", "0", "--log-level", "DEBUG", OPS]).start()
    try:
        assert httpx.get(server.url + "/").status_code == 200
    finally:
        server.stop()


def test_version_names_baton_and_the_openssl_it_carries():
    from baton import __version__, _baton

    result = run_baton("--version")
    assert result.returncode == 0
    first, second = result.stdout.strip().splitlines()
    assert first == f"baton {__version__}"
    assert second.startswith(_baton.OPENSSL_VERSION + "; ")
    assert ("QUIC: ngtcp2 " in second) if _baton.HAS_QUIC else ("no QUIC: " in second)


@pytest.mark.parametrize("module, body", [("has_application", b"application"), ("has_app", b"app")])
def test_a_module_alone_finds_application_then_app(module, body):
    server = Server(["--port", "0", f"tests.integration.apps.default_names.{module}"]).start()
    try:
        assert httpx.get(server.url + "/").content == body
    finally:
        server.stop()


def test_a_module_without_either_name_says_so():
    result = run_baton("tests.integration.apps.default_names.neither")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "baton: error: module 'tests.integration.apps.default_names.neither' has no attribute 'application' or "
        "'app'; name the app as tests.integration.apps.default_names.neither:ATTRIBUTE"]


def test_an_import_error_prints_its_traceback():
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    result = subprocess.run([sys.executable, "-m", "baton", "tests.integration.apps.default_names.needs_env"],
                            cwd=ROOT, capture_output=True, text=True, timeout=20, env=env)
    assert result.returncode == 1
    assert "Traceback (most recent call last)" in result.stderr
    assert 'needs_env.py", line 5' in result.stderr  # the app's own line
    assert result.stderr.strip().splitlines()[-1] == (
        "baton: error: importing 'tests.integration.apps.default_names.needs_env' failed: KeyError: 'DATABASE_URL'")


def test_env_file_chdir_and_app_dir(tmp_path):
    app_dir = tmp_path / "code"
    app_dir.mkdir()
    (app_dir / "envapp.py").write_text(
        "import os\n"
        "def app(environ, start_response):\n"
        "    body = (os.environ['DATABASE_URL'] + ' ' + os.environ['KEPT'] + ' ' + os.getcwd()).encode()\n"
        "    start_response('200 OK', [('Content-Length', str(len(body)))])\n"
        "    return [body]\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "settings.env").write_text("# comment\nexport DATABASE_URL='postgres://db/x'\n\nKEPT=from-file\n")
    # --chdir first, so a relative --env-file is read from there; a variable
    # already set is not overwritten.
    server = Server(["--port", "0", "--chdir", str(work), "--env-file", "settings.env", "--app-dir", str(app_dir),
                     "envapp:app"], env={"KEPT": "from-environment"}).start()
    try:
        assert httpx.get(server.url + "/").text == f"postgres://db/x from-environment {work}"
    finally:
        server.stop()


def test_pid_file_written_and_removed(tmp_path):
    pid_file = tmp_path / "baton.pid"
    server = Server(["--port", "0", "--pid", str(pid_file), OPS]).start()
    assert pid_file.read_text().strip() == str(server.proc.pid)
    assert server.stop() == 0
    assert not pid_file.exists()


def start_logging_to_file(log_file, *args):
    """baton with --port 0 whose lines go to `log_file`: (process, port), read from the file."""
    proc = subprocess.Popen([sys.executable, "-m", "baton", "--port", "0", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        match = LISTEN_LINE.search(log_file.read_bytes()) if log_file.exists() else None
        if match:
            return proc, int(match.group(3))
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("baton did not log its listening line to the file")


def test_log_config_routes_baton_and_core_lines(tmp_path):
    log_file = tmp_path / "baton.log"
    config = {
        "version": 1,
        "formatters": {"plain": {"format": "CUSTOM %(name)s %(levelname)s %(message)s"}},
        "handlers": {"file": {"class": "logging.FileHandler", "filename": str(log_file), "formatter": "plain"}},
        "loggers": {"baton": {"handlers": ["file"], "level": "INFO"}},
    }
    config_file = tmp_path / "logging.json"
    config_file.write_text(json.dumps(config))
    proc, port = start_logging_to_file(log_file, "--log-config", str(config_file), OPS)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/fail").status_code == 500
        proc.terminate()
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log_file.read_text()
    assert "CUSTOM baton INFO baton serving" in text
    assert "CUSTOM baton.error ERROR" in text and "the view failed on purpose" in text
    # A line the C++ core wrote, re-emitted through the user's handlers.
    assert "CUSTOM baton INFO shutting down: finishing" in text


def ini_config(log_file):
    return ("[loggers]\nkeys=root,baton\n[handlers]\nkeys=file\n[formatters]\nkeys=plain\n"
            "[logger_root]\nhandlers=\n[logger_baton]\nhandlers=file\nqualname=baton\nlevel=INFO\n"
            f"[handler_file]\nclass=FileHandler\nformatter=plain\nargs=({str(log_file)!r},)\n"
            "[formatter_plain]\nformat=CONFIGURED %(levelname)s %(message)s\n")


def yaml_config(log_file):
    return ("version: 1\n"
            "formatters:\n  plain: {format: 'CONFIGURED %(levelname)s %(message)s'}\n"
            f"handlers:\n  file: {{class: logging.FileHandler, filename: '{log_file}', formatter: plain}}\n"
            "loggers:\n  baton: {handlers: [file], level: INFO}\n")


@pytest.mark.parametrize("suffix,make", [(".ini", ini_config), (".yaml", yaml_config)])
def test_log_config_ini_and_yaml(tmp_path, suffix, make):
    log_file = tmp_path / "baton.log"
    config = tmp_path / f"logging{suffix}"
    config.write_text(make(log_file))
    proc, port = start_logging_to_file(log_file, "--log-config", str(config), OPS)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
    assert "CONFIGURED INFO baton serving" in log_file.read_text()
