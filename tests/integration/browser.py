"""Debian's Chromium, headless, as a real client for the tests."""

import contextlib
import os
import shutil
import signal
import subprocess


@contextlib.contextmanager
def chromium(url: str, profile_dir):
    """Chromium showing `url` until the block ends (then it is killed). Over
    TLS it is told to take the test CA's certificate."""
    browser = shutil.which("chromium")
    assert browser, "Debian's chromium is missing (the Makefile installs it)"
    # Under the sanitizer run the server has the sanitizers preloaded; the
    # browser is a client and must not inherit them.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--ignore-certificate-errors", f"--user-data-dir={profile_dir}",
                             "--remote-debugging-port=0", url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
    try:
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
