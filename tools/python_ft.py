"""A free-threaded CPython 3.13 (3.13t), built once from Debian trixie's source.

No Debian release ships a CPython built with --disable-gil, and pyenv's
stop at 3.13.0 with the GIL. Debian trixie's python3.13 source package
carries CPython's own release tarball: it is fetched with apt-get source
through a private deb-src list (the host's apt configuration is left as it
is), unpacked as CPython released it (Debian's patches are not applied),
configured with --disable-gil and installed under the cache
(tools/trixie_source.py).

  python3 tools/python_ft.py build
      Builds it once at $BATON_PYTHON_FT (/var/cache/baton/cpython-3.13t by
      default: outside the clone, so a fresh clone on a machine that has it
      skips the work; about five minutes on two cores otherwise). A machine
      that cannot build it (no network to the mirror, not root for apt)
      prints why on one line and exits 0: what needs it skips and says so.

  python3 tools/python_ft.py status
      One line: the interpreter's path, or why there is none (exit 1).

  python3 tools/python_ft.py path
      The interpreter's path alone (exit 1 when there is none).

  --tsan (with any command)
      The same CPython built with ThreadSanitizer as well
      (--with-thread-sanitizer), at $BATON_PYTHON_FT_TSAN
      (/var/cache/baton/cpython-3.13t-tsan): the interpreter the bridge's
      free-threaded tests run on under ThreadSanitizer (make tsan-freethreaded).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from trixie_source import build_once

ROOT = Path(__file__).resolve().parents[1]
PREFIX = Path(os.environ.get("BATON_PYTHON_FT") or "/var/cache/baton/cpython-3.13t")
INTERPRETER = PREFIX / "bin" / "python3.13t"
TSAN_PREFIX = Path(os.environ.get("BATON_PYTHON_FT_TSAN") or "/var/cache/baton/cpython-3.13t-tsan")
SOURCE_PACKAGE = "python3.13"
# What CPython's configure looks for to build its standard library's C
# modules (ssl, zlib, ctypes, sqlite3, bz2, lzma, readline, uuid, dbm), and
# what apt-get source needs to unpack a source package.
BUILD_PACKAGES = ["build-essential", "dpkg-dev", "pkg-config", "libssl-dev", "zlib1g-dev", "libffi-dev",
                  "libbz2-dev", "liblzma-dev", "libsqlite3-dev", "libreadline-dev", "libncurses-dev",
                  "uuid-dev", "libgdbm-dev", "libexpat1-dev", "xz-utils"]


def say(message: str) -> None:
    print(f"python-ft: {message}", flush=True)


def ready(interpreter: Path = INTERPRETER) -> str | None:
    """Why the interpreter cannot be used, or None when it can."""
    if not interpreter.exists():
        return f"no free-threaded CPython at {interpreter} (make python-ft builds it)"
    probe = subprocess.run([str(interpreter), "-c", "import sys, sysconfig; "
                            "print(sysconfig.get_config_var('Py_GIL_DISABLED'), sys._is_gil_enabled())"],
                           capture_output=True, text=True)
    if probe.stdout.split() != ["1", "False"]:
        return f"{interpreter} is not a free-threaded CPython running without the GIL ({probe.stdout.strip()})"
    return None


def build(prefix: Path = PREFIX, tsan: bool = False) -> int:
    interpreter = prefix / "bin" / "python3.13t"
    sanitizer = ["--with-thread-sanitizer"] if tsan else []

    def compile_into(tree: Path, log: Path) -> bool:
        jobs = str(os.cpu_count() or 2)
        with open(log, "w") as out:
            # Without CPython's own test modules and test suite: nothing here
            # runs them, and installing Lib/test (compiled three times over,
            # by the interpreter just built) is the slowest part of `make
            # install`, most of all under ThreadSanitizer.
            for step in (["./configure", "--disable-gil", *sanitizer, f"--prefix={prefix}",
                          "--with-ensurepip=install", "--disable-test-modules"],
                         ["make", f"-j{jobs}"], ["make", "install"]):
                if subprocess.run(step, cwd=tree, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                    say(f"failed at {' '.join(step[:2])}: see {log}")
                    return False
        return True

    return build_once(prefix, package=SOURCE_PACKAGE, tree_prefix="Python-3.13", build_packages=BUILD_PACKAGES,
                      ready=lambda: ready(interpreter), describe=lambda: str(interpreter),
                      compile_into=compile_into, say=say)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "status", "path"])
    parser.add_argument("--tsan", action="store_true", help="the build with ThreadSanitizer")
    args = parser.parse_args()
    prefix = TSAN_PREFIX if args.tsan else PREFIX
    interpreter = prefix / "bin" / "python3.13t"
    if args.command == "build":
        return build(prefix, args.tsan)
    why = ready(interpreter)
    if args.command == "status":
        print(f"python-ft: {why}" if why else f"python-ft: ready: {interpreter}")
    elif why is None:
        print(interpreter)
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
