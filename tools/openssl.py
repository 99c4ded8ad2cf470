"""OpenSSL 3.5, built once from Debian trixie's source, static, for the extension.

Debian 12 ships OpenSSL 3.0, which lacks the QUIC TLS API (OpenSSL 3.5's
SSL_set_quic_tls_cbs and friends) that ngtcp2's crypto layer needs. Debian
trixie's openssl source package carries OpenSSL's own release tarball: it is
fetched with apt-get source through a private deb-src list (the host's apt
configuration is left as it is), unpacked as OpenSSL released it (Debian's
patches are not applied: tools/trixie_source.py), and built as static,
position-independent libraries (no-shared, -fPIC) that meson links into the extension, for TCP
TLS and QUIC alike.

  python3 tools/openssl.py build
      Builds it once at $BATON_OPENSSL (/var/cache/baton/openssl-3.5 by
      default: outside the clone, so a fresh clone on a machine that has it
      skips the work), with the build's log beside it. A machine that cannot
      build it (no network to the mirror, not root for apt) prints why on
      one line and exits 0: the build then uses the system's OpenSSL.

  python3 tools/openssl.py status
      One line: the prefix and the version it holds, or why there is none
      (exit 1).

  python3 tools/openssl.py path
      The prefix alone (exit 1 when there is none).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from trixie_source import build_once, cache_command

PREFIX = Path(os.environ.get("BATON_OPENSSL") or "/var/cache/baton/openssl-3.5")
SOURCE_PACKAGE = "openssl"
WANTED_SERIES = "3.5."
# OpenSSL's Configure is Perl; apt-get source needs dpkg-dev to unpack.
BUILD_PACKAGES = ["build-essential", "dpkg-dev", "perl", "xz-utils"]
# Static and position-independent (it goes into a shared extension), no test
# programs, no manual pages, no openssl command line, and every provider
# built in (a static library has nowhere to load a provider module from).
# The configuration and the CA store are looked for where Debian keeps
# them, so a server built with this library reads the host's openssl.cnf.
CONFIGURE_OPTIONS = ["no-shared", "-fPIC", "no-tests", "no-docs", "no-apps", "no-module",
                     "--openssldir=/usr/lib/ssl", "--libdir=lib"]
JOBS = "-j2"


def say(message: str) -> None:
    print(f"openssl: {message}", flush=True)


def version_of(prefix: Path = PREFIX) -> str | None:
    """The version the prefix's VERSION file records, or None."""
    try:
        return (prefix / "VERSION").read_text().strip() or None
    except OSError:
        return None


def ready(prefix: Path = PREFIX) -> str | None:
    """Why the prefix cannot be used, or None when it can."""
    for needed in ("lib/libssl.a", "lib/libcrypto.a", "include/openssl/quic.h", "VERSION"):
        if not (prefix / needed).exists():
            return f"no static OpenSSL 3.5 at {prefix} (missing {needed}; make openssl builds it)"
    version = version_of(prefix) or ""
    if not version.startswith(WANTED_SERIES):
        return f"{prefix} holds OpenSSL {version or '(unknown)'}, not {WANTED_SERIES}x"
    return None


def compile_into(tree: Path, prefix: Path, log: Path) -> bool:
    """Configure, build and install the libraries and headers; False on failure."""
    with open(log, "w") as out:
        for step in (["./Configure", *CONFIGURE_OPTIONS, f"--prefix={prefix}"],
                     ["make", JOBS, "build_libs"], ["make", "install_dev"]):
            out.write(f"+ {' '.join(step)}\n")
            out.flush()
            status = subprocess.run(step, cwd=tree, stdout=out, stderr=subprocess.STDOUT).returncode
            if status != 0:
                say(f"failed at {' '.join(step[:2])}: see {log}")
                return False
    version = tree.name.removeprefix("openssl-")
    (prefix / "VERSION").write_text(f"{version}\n")
    return True


def build(prefix: Path = PREFIX) -> int:
    return build_once(prefix, package=SOURCE_PACKAGE, tree_prefix="openssl-3", build_packages=BUILD_PACKAGES,
                      ready=lambda: ready(prefix), describe=lambda: f"OpenSSL {version_of(prefix)} at {prefix}",
                      compile_into=lambda tree, log: compile_into(tree, prefix, log), say=say)


def main() -> int:
    return cache_command(__doc__.splitlines()[0], "openssl", lambda: build(PREFIX), lambda: ready(PREFIX),
                         lambda: f"OpenSSL {version_of(PREFIX)} at {PREFIX}", lambda: PREFIX)


if __name__ == "__main__":
    sys.exit(main())
