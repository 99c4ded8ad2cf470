"""Debian's Chromium, headless, as a real client for the tests."""

import base64
import contextlib
import hashlib
import os
import shutil
import signal
import subprocess


def spki_hash(cert) -> str:
    """The base64 SHA-256 of a certificate's public key, as Chromium's
    --ignore-certificate-errors-spki-list names a certificate."""
    key = subprocess.run(["openssl", "x509", "-in", str(cert), "-pubkey", "-noout"], check=True,
                         capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, check=True,
                         capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@contextlib.contextmanager
def chromium(url: str, profile_dir, trusted_cert=None, extra_args=()):
    """Chromium showing `url` until the block ends (then it is killed). Over
    TLS it is told to take any certificate; or, given `trusted_cert`, to
    trust that one as if a known CA had signed it: a connection with a
    certificate error is served, but Chromium caches nothing from it (a
    resource preloaded by a 103 is then fetched again when the page uses it).
    `extra_args`: more of Chromium's switches."""
    browser = shutil.which("chromium")
    assert browser, "Debian's chromium is missing (the Makefile installs it)"
    # Under the sanitizer run the server has the sanitizers preloaded; the
    # browser is a client and must not inherit them.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    trust = (f"--ignore-certificate-errors-spki-list={spki_hash(trusted_cert)}" if trusted_cert
             else "--ignore-certificate-errors")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             trust, f"--user-data-dir={profile_dir}",
                             "--remote-debugging-port=0", *extra_args, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
    try:
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
