"""A release built once from its Debian trixie source package (or another
suite's), into a cache outside the clone (tools/python_ft.py: CPython
3.13t; tools/openssl.py: OpenSSL 3.5; tools/h2load_h3.py: h2load from
sid's nghttp2, whose h2load speaks HTTP/3 over OpenSSL 3.5 and trixie's
does not). The package's release tarball is fetched with apt-get source
through a private deb-src list (the host's apt configuration is left as it
is) and unpacked as its project released it (Debian's patches are not
applied). One build at a time, whoever asks (two make runs, a test and CI);
a machine that cannot build (no network to the mirror, not root for apt)
says why on one line and goes on."""

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
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
MIRROR = "http://deb.debian.org/debian"
SUITE = "trixie"


def newest_first(versions: list[str]) -> list[str]:
    def compare(a: str, b: str) -> int:
        return 0 if a == b else (-1 if subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0
                                 else 1)
    return sorted(set(versions), key=functools.cmp_to_key(compare))


def fetch_release(work: Path, package: str, tree_prefix: str, say: Callable[[str], None],
                  suite: str = SUITE) -> Path:
    """The release tarball inside `suite`'s `package`, unpacked in `work`: the
    tree whose name starts with `tree_prefix`. The index may name a version
    the mirror does not hold yet (a 404), so each one it lists is tried,
    newest first."""
    apt = work / "apt"
    (apt / "lists" / "partial").mkdir(parents=True)
    (apt / "sources.list").write_text(f"deb-src {MIRROR} {suite} main\n")
    options = ["-o", f"Dir::Etc::SourceList={apt / 'sources.list'}", "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", f"Dir::State::Lists={apt / 'lists'}", "-o", "APT::Sandbox::User=root",
               "-o", "Acquire::Check-Valid-Until=false", "-qq"]
    subprocess.run(["apt-get", *options, "update"], check=True, cwd=work)
    listing = subprocess.run(["apt-cache", *options, "showsrc", package], check=True, cwd=work,
                             capture_output=True, text=True).stdout
    versions = newest_first([line.split()[1] for line in listing.splitlines() if line.startswith("Version: ")])
    for version in versions:
        fetched = subprocess.run(["apt-get", *options, "source", "--download-only", f"{package}={version}"],
                                 cwd=work, capture_output=True, text=True)
        if fetched.returncode == 0:
            break
        say(f"{package} {version} could not be fetched ({fetched.stderr.strip().splitlines()[-1:]})")
    tarballs = sorted(p for p in work.glob(f"{package}_*.orig.tar.*") if not p.name.endswith(".asc"))
    if not tarballs:
        raise RuntimeError(f"apt-get source {package} brought no .orig tarball (tried {', '.join(versions)})")
    subprocess.run(["tar", "-xf", str(tarballs[-1])], check=True, cwd=work)
    trees = [p for p in work.iterdir() if p.is_dir() and p.name.startswith(tree_prefix)]
    if not trees:
        raise RuntimeError(f"{tarballs[-1].name} holds no {tree_prefix} tree")
    return trees[0]


def build_once(prefix: Path, *, package: str, tree_prefix: str, build_packages: list[str],
               ready: Callable[[], str | None], describe: Callable[[], str],
               compile_into: Callable[[Path, Path], bool], say: Callable[[str], None], suite: str = SUITE) -> int:
    """Builds into `prefix` unless `ready()` says it is usable already.
    `compile_into(tree, log)` configures, builds and installs; `describe()`
    names what is ready. 0 when ready (or when this machine cannot build)."""
    if ready() is None:
        say(f"ready: {describe()}")
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        say("skipped: building it needs root and apt-get (for the build packages and the source)")
        return 0
    started = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "tools" / "ensure_packages.py"), *build_packages], check=True)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(prefix.parent / f".{prefix.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready() is None:
            return 0
        with tempfile.TemporaryDirectory(prefix=f"baton-{prefix.name}-") as tmp:
            try:
                tree = fetch_release(Path(tmp), package, tree_prefix, say, suite)
            except (subprocess.CalledProcessError, RuntimeError) as error:
                say(f"skipped: the source of {package} from {suite} could not be fetched ({error})")
                return 0
            say(f"building {tree.name} into {prefix}")
            if prefix.exists():
                shutil.rmtree(prefix)
            if not compile_into(tree, prefix.parent / f"{prefix.name}-build.log"):
                return 1
    why = ready()
    if why is not None:
        say(f"built, but {why}")
        return 1
    say(f"ready: {describe()} (built in {time.monotonic() - started:.0f} s)")
    return 0


def cache_command(description: str, name: str, build, ready, ready_line, path) -> int:
    """The command line every cached build shares: `build` (the callable's exit status), `status` (why it is
    not ready, or `ready_line()`), `path` (`path()` once ready); exit 0 when ready."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("command", choices=["build", "status", "path"])
    args = parser.parse_args()
    if args.command == "build":
        return build()
    why = ready()
    if args.command == "status":
        print(f"{name}: {why}" if why else f"{name}: ready: {ready_line()}")
    elif why is None:
        print(path())
    return 0 if why is None else 1
