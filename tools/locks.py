"""Lock files for what the project takes from PyPI: exact versions and hashes.

Two commands:

  python3 tools/locks.py write LOCK --python SPEC [--python SPEC ...] REQUIREMENT...
      Resolves the requirements (top-level pins, `name==version`) with each
      interpreter SPEC names, in a scratch venv, by pip's own resolver
      (`pip install --dry-run --report`), and writes LOCK: one line per
      package and version, the files' sha256 hashes that pip chose for each
      interpreter, and a python_version marker where a line holds for some
      interpreters only. SPEC is `system` (/usr/bin/python3), `system+site`
      (the same with --system-site-packages: what Debian's packages already
      provide is not locked), a version such as `3.13` (found under
      pyenv's root), `sid:3.14` (the sid chroot's, run on this host:
      tools/sid_chroot.py) or `ft` (the free-threaded 3.13t that
      tools/python_ft.py builds; its lines carry 3.13's marker).

  python3 tools/locks.py install LOCK --venv DIR [--report FILE] [--keep-going]
      Installs every line of LOCK that applies to DIR's interpreter, one
      package at a time, with --no-deps --require-hashes (the lock holds
      every dependency). With --keep-going a package that will not install
      is recorded in the report (JSON: package -> the end of pip's output)
      and the rest go on; without it the first failure stops the install.

  python3 tools/locks.py constraints LOCK --out FILE
      The lock's versions (and markers) without hashes, as a constraints file:
      for pip's isolated build environments (PIP_CONSTRAINT), which take
      constraints but not hashes.

The interpreters a lock was written for are named in its header, and
`python3 tools/locks.py pythons` prints the ones this machine has.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # sid_chroot, beside it
PYENV_ROOT = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))


def pyenv_interpreters() -> dict[str, Path]:
    """minor version ("3.12") -> the newest pyenv build of it."""
    found: dict[str, tuple[tuple[int, ...], Path]] = {}
    versions = PYENV_ROOT / "versions"
    if not versions.is_dir():
        return {}
    for entry in versions.iterdir():
        match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", entry.name)
        python = entry / "bin" / "python"
        if not match or not python.exists():
            continue
        key = tuple(int(x) for x in match.groups())
        minor = f"{key[0]}.{key[1]}"
        if minor not in found or found[minor][0] < key:
            found[minor] = (key, python)
    return {minor: path for minor, (_, path) in sorted(found.items())}


def interpreter(spec: str) -> tuple[Path, bool]:
    """(python, system_site) for a SPEC."""
    if spec in ("system", "system+site"):
        return Path("/usr/bin/python3"), spec.endswith("+site")
    if spec == "ft":
        import python_ft
        if python_ft.ready() is not None:
            raise SystemExit(f"{spec}: {python_ft.ready()}")
        return python_ft.INTERPRETER, False
    if spec.startswith("sid:"):
        import sid_chroot
        if not sid_chroot.ready():
            raise SystemExit(f"{spec}: {sid_chroot.status()[1]}")
        return sid_chroot.host_python(spec.removeprefix("sid:")), False
    found = pyenv_interpreters()
    if spec not in found:
        raise SystemExit(f"no Python {spec} under {PYENV_ROOT}/versions")
    return found[spec], False


def python_version(python: Path) -> str:
    out = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def resolve(spec: str, requirements: list[str], scratch: Path) -> tuple[str, dict[str, tuple[str, str, set[str]]]]:
    """Resolves with one interpreter: (its minor version, name -> (display name, version, {sha256}))."""
    python, site = interpreter(spec)
    venv = scratch / re.sub(r"\W", "_", spec)
    if spec.startswith("sid:"):
        import sid_chroot
        sid_chroot.host_venv(spec.removeprefix("sid:"), venv)
    else:
        subprocess.run([str(python), "-m", "venv", *(["--system-site-packages"] if site else []), str(venv)],
                       check=True)
    report = venv / "report.json"
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--dry-run",
                    "--report", str(report), *requirements], check=True,
                   env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    resolved = {}
    for item in json.loads(report.read_text())["install"]:
        meta = item["metadata"]
        info = item["download_info"]
        hashes = info.get("archive_info", {}).get("hashes", {})
        digest = hashes.get("sha256") or info.get("archive_info", {}).get("hash", "").partition("sha256=")[2]
        if not digest:
            raise SystemExit(f"{meta['name']}: pip reported no sha256 for {info.get('url')}")
        resolved[canonical(meta["name"])] = (meta["name"], meta["version"], {digest})
    return python_version(python), resolved


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def write(lock: Path, specs: list[str], requirements: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="baton-lock-") as tmp:
        per_python = [resolve(spec, requirements, Path(tmp)) for spec in specs]
    versions = [v for v, _ in per_python]
    # (canonical name, version) -> display name, the Pythons it is for, its hashes
    lines: dict[tuple[str, str], tuple[str, list[str], set[str]]] = {}
    for minor, resolved in per_python:
        for key, (display, version, digests) in resolved.items():
            entry = lines.setdefault((key, version), (display, [], set()))
            entry[1].append(minor)
            entry[2].update(digests)
    out = [f"# Written by `python3 tools/locks.py write` for Python {', '.join(versions)}",
           f"# ({', '.join(specs)}) from: {' '.join(requirements)}",
           "# Install with `python3 tools/locks.py install` (--no-deps --require-hashes).", ""]
    for (key, version), (display, pythons, digests) in sorted(lines.items()):
        marker = ""
        if sorted(set(pythons)) != sorted(set(versions)):
            marker = " ; " + " or ".join(f'python_version == "{p}"' for p in sorted(set(pythons)))
        hashes = " \\\n".join(f"    --hash=sha256:{d}" for d in sorted(digests))
        out.append(f"{display}=={version}{marker} \\\n{hashes}")
    lock.write_text("\n".join(out) + "\n")
    print(f"{lock}: {len(lines)} packages for Python {', '.join(versions)}")


def entries(lock: Path) -> list[str]:
    """The lock's requirement lines, continuation lines joined."""
    text = lock.read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def applies(entry: str, minor: str) -> bool:
    _, _, marker = entry.partition(";")
    marker = marker.split("--hash")[0].strip()
    return not marker or f'python_version == "{minor}"' in marker


def install(lock: Path, venv: Path, report_path: Path | None, keep_going: bool,
            leave_out: frozenset[str] = frozenset()) -> int:
    python = venv / "bin" / "python"
    minor = python_version(python)
    failures: dict[str, str] = {}
    todo = [e for e in entries(lock) if applies(e, minor) and e.split("==")[0] not in leave_out]
    if not todo:
        print(f"{lock}: nothing for Python {minor}", file=sys.stderr)
    for entry in todo:
        name = entry.split("==")[0]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as one:
            one.write(entry.replace(" --hash", " \\\n --hash") + "\n")
        result = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--require-hashes",
                                 "--disable-pip-version-check", "-r", one.name], capture_output=True, text=True)
        os.unlink(one.name)
        if result.returncode != 0:
            tail = (result.stdout + result.stderr).strip().splitlines()[-12:]
            failures[name] = "\n".join(line for line in tail if "is ignored: it is neither" not in line)
            print(f"{name}: did not install\n{failures[name]}", file=sys.stderr)
            if not keep_going:
                break
    if report_path is not None:
        report_path.write_text(json.dumps({"python": minor, "lock": str(lock), "failed": failures}, indent=1))
    return 1 if failures and not keep_going else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("lock", type=Path)
    w.add_argument("--python", action="append", required=True, dest="pythons")
    w.add_argument("requirements", nargs="+")
    i = sub.add_parser("install")
    i.add_argument("lock", type=Path)
    i.add_argument("--venv", type=Path, required=True)
    i.add_argument("--report", type=Path)
    i.add_argument("--keep-going", action="store_true")
    c = sub.add_parser("constraints")
    c.add_argument("lock", type=Path)
    c.add_argument("--out", type=Path, required=True)
    sub.add_parser("pythons")
    args = parser.parse_args(argv)
    if args.command == "constraints":
        lines = [e.split(" --hash")[0].strip() for e in entries(args.lock)]
        args.out.write_text("\n".join(lines) + "\n")
        return 0
    if args.command == "write":
        write(args.lock, args.pythons, args.requirements)
        return 0
    if args.command == "install":
        return install(args.lock, args.venv, args.report, args.keep_going)
    for minor, path in pyenv_interpreters().items():
        print(minor, path)
    import sid_chroot
    for minor in sid_chroot.PYTHONS if sid_chroot.ready() else ():
        print(f"sid:{minor}", sid_chroot.host_python(minor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
