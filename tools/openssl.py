"""OpenSSL 3.5, built once from Debian trixie's source, static, for the extension.

Debian 12 ships OpenSSL 3.0, which lacks the QUIC TLS API (OpenSSL 3.5's
SSL_set_quic_tls_cbs and friends) that ngtcp2's crypto layer needs. Debian
trixie's openssl source package carries OpenSSL's own release tarball: it is
fetched with apt-get source through a private deb-src list (the host's apt
configuration is left as it is), unpacked as OpenSSL released it (Debian's
patches are not applied), and built as static, position-independent
libraries (no-shared, -fPIC) that meson links into the extension, for TCP
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

import argparse
import fcntl
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = Path(os.environ.get("BATON_OPENSSL") or "/var/cache/baton/openssl-3.5")
MIRROR = "http://deb.debian.org/debian"
SUITE = "trixie"
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


def newest_first(versions: list[str]) -> list[str]:
    def compare(a: str, b: str) -> int:
        return 0 if a == b else (-1 if subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0
                                 else 1)
    return sorted(set(versions), key=functools.cmp_to_key(compare))


def fetch_source(work: Path) -> Path:
    """The OpenSSL release tarball inside trixie's openssl source package.

    The index may name a point release the mirror does not hold yet (a 404),
    so each version it lists is tried, newest first."""
    apt = work / "apt"
    (apt / "lists" / "partial").mkdir(parents=True)
    (apt / "sources.list").write_text(f"deb-src {MIRROR} {SUITE} main\n")
    options = ["-o", f"Dir::Etc::SourceList={apt / 'sources.list'}", "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", f"Dir::State::Lists={apt / 'lists'}", "-o", "APT::Sandbox::User=root",
               "-o", "Acquire::Check-Valid-Until=false", "-qq"]
    subprocess.run(["apt-get", *options, "update"], check=True, cwd=work)
    listing = subprocess.run(["apt-cache", *options, "showsrc", SOURCE_PACKAGE], check=True, cwd=work,
                             capture_output=True, text=True).stdout
    versions = newest_first([line.split()[1] for line in listing.splitlines() if line.startswith("Version: ")])
    for version in versions:
        fetched = subprocess.run(["apt-get", *options, "source", "--download-only", f"{SOURCE_PACKAGE}={version}"],
                                 cwd=work, capture_output=True, text=True)
        if fetched.returncode == 0:
            break
        say(f"{SOURCE_PACKAGE} {version} could not be fetched ({fetched.stderr.strip().splitlines()[-1:]})")
    tarballs = sorted(p for p in work.glob(f"{SOURCE_PACKAGE}_*.orig.tar.*") if not p.name.endswith(".asc"))
    if not tarballs:
        raise RuntimeError(f"apt-get source {SOURCE_PACKAGE} brought no .orig tarball (tried {', '.join(versions)})")
    subprocess.run(["tar", "-xf", str(tarballs[-1])], check=True, cwd=work)
    trees = [p for p in work.iterdir() if p.is_dir() and p.name.startswith("openssl-3")]
    if not trees:
        raise RuntimeError(f"{tarballs[-1].name} holds no openssl-3 tree")
    return trees[0]


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
    if ready(prefix) is None:
        say(f"ready: OpenSSL {version_of(prefix)} at {prefix}")
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        say("skipped: building it needs root and apt-get (for the build packages and the source)")
        return 0
    started = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "tools" / "ensure_packages.py"), *BUILD_PACKAGES], check=True)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    # One build at a time, whoever asks (two make runs, a test and CI).
    with open(prefix.parent / ".openssl.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready(prefix) is None:
            return 0
        with tempfile.TemporaryDirectory(prefix="baton-openssl-") as tmp:
            try:
                tree = fetch_source(Path(tmp))
            except (subprocess.CalledProcessError, RuntimeError) as error:
                say(f"skipped: the source of {SOURCE_PACKAGE} from {SUITE} could not be fetched ({error})")
                return 0
            say(f"building {tree.name} (static, -fPIC) into {prefix}")
            if prefix.exists():
                shutil.rmtree(prefix)
            if not compile_into(tree, prefix, prefix.parent / f"{prefix.name}-build.log"):
                return 1
    why = ready(prefix)
    if why is not None:
        say(f"built, but {why}")
        return 1
    say(f"ready: OpenSSL {version_of(prefix)} at {prefix} (built in {time.monotonic() - started:.0f} s)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "status", "path"])
    args = parser.parse_args()
    if args.command == "build":
        return build(PREFIX)
    why = ready(PREFIX)
    if args.command == "status":
        print(f"openssl: {why}" if why else f"openssl: ready: OpenSSL {version_of(PREFIX)} at {PREFIX}")
    elif why is None:
        print(PREFIX)
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
