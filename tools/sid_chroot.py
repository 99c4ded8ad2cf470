"""A Debian sid chroot for the CPythons only sid packages: 3.14 and 3.15.

This machine has CPython 3.14 and 3.15 only as Debian sid's binary packages,
which need sid's libc: they run in a minimal sid chroot made with debootstrap
from the Debian mirror this machine's apt uses. The wheels, the sdist check
and the smoke suite for those two Pythons use it (tools/wheels.py).

  python3 tools/sid_chroot.py create
      Makes the chroot once, at $BATON_SID_CHROOT (/var/cache/baton/sid-chroot
      by default: outside the clone, so `make clean` and a fresh clone keep
      it). A machine that has it only refreshes the host's CA bundle and pip
      configuration in it. One that cannot make it (not root, no debootstrap,
      the mirror out of reach, not x86-64) prints why on one line and exits
      0: what needs the chroot skips those Pythons and says so.

      The mirror is the first of apt's sources that serves sid, or
      $BATON_SID_MIRROR alone.

  python3 tools/sid_chroot.py status
      One line: ready, or why not (exit 0 when ready, 1 otherwise).

  python3 tools/sid_chroot.py run [--cwd DIR] [--env NAME=VALUE ...] -- COMMAND...
      COMMAND inside the chroot, in a mount and PID namespace of its own
      (unshare): /proc, a tmpfs on /tmp and on /dev/shm, the clone read-only
      at its own path. When COMMAND ends, whatever way, the kernel takes the
      mounts down with the namespace and ends every process left in it, so a
      failed test leaves neither a mount nor a server behind.

  python3 tools/sid_chroot.py host-python MINOR
      The path of a launcher that runs the chroot's python3.MINOR on this host
      (under sid's own dynamic loader and libraries): the wheels are built
      with the host's compiler against its headers (see host_python).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROOT = Path(os.environ.get("BATON_SID_CHROOT") or "/var/cache/baton/sid-chroot")
PYTHONS = ("3.14", "3.15")
PACKAGES = sorted({
    *(f"python{m}{suffix}" for m in PYTHONS for suffix in ("", "-dev", "-venv")),
    # What building baton from its sdist needs (the bridge and the core's libraries).
    "g++", "pkg-config", "meson", "ninja-build", "libssl-dev", "libnghttp2-dev", "zlib1g-dev", "curl",
    # The smoke suite's client side (pytest and its clients), on sid's default
    # python3: the venvs under test hold baton and tools/locks/matrix.txt alone.
    "python3-pytest", "python3-pytest-timeout", "python3-httpx", "python3-h2", "python3-websockets",
    "python3-aioquic",
})
# The files in the chroot that say it is complete, and what it was made with.
STAMP = ".baton-sid-chroot.json"
# Beside the chroot's own tree but no part of sid: the host launchers and the
# pkg-config file a host build finds the chroot's Python headers with.
HOST_DIR = Path("usr/baton-host")
# The chroot's apt reads sid's Release file again when packages are added. A
# mirror that is a fixed snapshot serves a Release whose Valid-Until has
# passed (debootstrap does not check it; apt does), so apt is told not to.
APT_CONF = 'Acquire::Check-Valid-Until "false";\n'
# The host's pip settings copied in, so that pip inside trusts and reaches
# what the host's pip does (a proxy's CA, an index).
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
PIP_CONFIGS = (Path("/etc/pip.conf"), Path("/etc/xdg/pip"))
SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def say(message: str) -> None:
    print(f"chroot: {message}", flush=True)


def stamp_packages(root: Path = CHROOT) -> list[str] | None:
    try:
        return json.loads((root / STAMP).read_text())["packages"]
    except (OSError, ValueError, KeyError):
        return None


def ready(root: Path = CHROOT) -> bool:
    """Made, and with every package PACKAGES names."""
    packages = stamp_packages(root)
    return packages is not None and set(PACKAGES) <= set(packages)


def apt_sources() -> list[tuple[str, str]]:
    """(URI, suite) of each binary source in this machine's apt configuration, in order."""
    found = []
    files = [Path("/etc/apt/sources.list")] + sorted(Path("/etc/apt/sources.list.d").glob("*"))
    for path in files:
        try:
            text = path.read_text()
        except OSError:
            continue
        if path.suffix == ".sources":  # deb822: stanzas of Field: value
            for stanza in re.split(r"\n\s*\n", text):
                fields = {}
                for line in stanza.splitlines():
                    if line.startswith("#") or ":" not in line or line[0].isspace():
                        continue
                    key, _, value = line.partition(":")
                    fields[key.strip().lower()] = value.split()
                if "deb" in fields.get("types", []) and fields.get("enabled", ["yes"]) != ["no"]:
                    found += [(uri, suite) for uri in fields.get("uris", []) for suite in fields.get("suites", [])]
        elif path.name == "sources.list" or path.suffix == ".list":
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
                if len(words) >= 3 and words[0] == "deb":
                    found.append((words[1], words[2]))
    return found


def debian_mirror() -> tuple[str | None, str]:
    """(the mirror, "") or (None, why not): the first source of apt's that is a
    Debian archive (not its security or updates suites) and serves sid."""
    override = os.environ.get("BATON_SID_MIRROR")  # this one alone
    candidates = [override] if override else []
    for uri, suite in [] if override else apt_sources():
        if "security" in uri or "-" in suite:  # bookworm-updates, bookworm-security, backports
            continue
        if uri.rstrip("/") not in [c.rstrip("/") for c in candidates]:
            candidates.append(uri)
    if not candidates:
        return None, "no Debian mirror in /etc/apt/sources.list{,.d}"
    last = ""
    for uri in candidates:
        probe = uri.rstrip("/") + "/dists/sid/InRelease"
        try:
            with urllib.request.urlopen(urllib.request.Request(probe, method="HEAD"), timeout=20):
                return uri, ""
        except OSError as error:  # URLError and timeouts are OSErrors
            last = f"{probe}: {getattr(error, 'reason', error)}"
    return None, f"no mirror serves sid ({last})"


def cannot_create(install: bool = True) -> str:
    """Why the chroot cannot be made on this machine, or "" when it can (with
    install, debootstrap is installed when it is missing)."""
    if platform.machine() != "x86_64":
        return f"it is made for x86-64 only, this machine is {platform.machine()}"
    if os.geteuid() != 0:
        return "debootstrap and chroot need root"
    for tool in ("unshare", "mount"):
        if shutil.which(tool) is None:
            return f"no {tool} on this machine"
    if shutil.which("debootstrap") is None and install:
        # Installed like the project's other Debian packages; where it cannot
        # be (no apt, no network), that is the reason given.
        install = subprocess.run([sys.executable, str(ROOT / "tools" / "ensure_packages.py"), "debootstrap"],
                                 capture_output=True, text=True)
        if install.returncode != 0 or shutil.which("debootstrap") is None:
            return "no debootstrap, and it would not install"
    return ""


def status() -> tuple[bool, str]:
    if ready():
        return True, f"ready at {CHROOT} (Python {', '.join(PYTHONS)})"
    why = cannot_create(install=False)
    if why:
        return False, f"no sid chroot at {CHROOT}, and it cannot be made here: {why}"
    return False, f"no sid chroot at {CHROOT} yet (make chroot)"


def base_env(extra: dict[str, str] | None = None, root: Path = CHROOT) -> dict[str, str]:
    """The environment inside: a clean one, and the host's proxy and pip
    settings unless they name a path the chroot does not have (this host's
    own wheel folders)."""
    env = {"PATH": SEARCH_PATH, "HOME": "/root", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "DEBIAN_FRONTEND": "noninteractive", "PYTHONDONTWRITEBYTECODE": "1"}
    for name, value in os.environ.items():
        if name.startswith("PIP_") or name.lower() in ("http_proxy", "https_proxy", "no_proxy", "all_proxy"):
            paths = [v.removeprefix("file://") for v in value.split() if v.startswith(("/", "file://"))]
            if all((root / p.lstrip("/")).exists() for p in paths):
                env[name] = value
    env.update(extra or {})
    return env


def run(command: list, env: dict[str, str] | None = None, cwd: Path | str = ROOT, root: Path = CHROOT,
        **kw) -> subprocess.CompletedProcess:
    """COMMAND inside the chroot, in a namespace of its own (see `run` above);
    keyword arguments go to subprocess.run."""
    inner = [sys.executable, str(Path(__file__).resolve()), "_enter", str(root), str(cwd),
             json.dumps(base_env(env, root)), "--", *map(str, command)]
    return subprocess.run(["unshare", "--mount", "--pid", "--fork", "--propagation", "private", "--", *inner], **kw)


def enter(root: Path, cwd: str, env: dict[str, str], command: list[str]) -> int:
    """The first process of the new namespace: mounts what the command needs,
    runs it chrooted, and reaps what it leaves until it exits."""
    def mount(*args: str) -> None:
        subprocess.run(["mount", *args], check=True)

    mount("-t", "proc", "proc", str(root / "proc"))
    # A chroot made where devices cannot be created (a container) gets the host's.
    if not (root / "dev" / "null").is_char_device():
        mount("--rbind", "/dev", str(root / "dev"))
    mount("-t", "tmpfs", "-o", "mode=1777", "shm", str(root / "dev" / "shm"))
    mount("-t", "tmpfs", "-o", "mode=1777", "tmp", str(root / "tmp"))
    clone = root / str(ROOT).lstrip("/")
    clone.mkdir(parents=True, exist_ok=True)
    mount("--bind", str(ROOT), str(clone))
    mount("-o", "remount,bind,ro", str(clone))
    # The namespace's first process gets no default action for SIGTERM: it
    # is passed on, and the exit that follows ends the rest.
    child = os.fork()
    if child == 0:
        os.chroot(root)
        os.chdir(cwd)
        try:
            os.execvpe(command[0], command, env)
        except OSError as error:
            print(f"chroot: cannot run {command[0]}: {error}", file=sys.stderr)
            os._exit(127)
    signal.signal(signal.SIGTERM, lambda signo, frame: os.kill(child, signo))
    while True:
        pid, status = os.wait()
        if pid == child:
            return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def refresh(root: Path) -> None:
    """What the chroot takes from this host, copied again on every create:
    the CA bundle and pip's configuration (pip inside reaches PyPI as the
    host's does), DNS, and the host launchers (they name the chroot's path)."""
    def copy(source: Path, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)

    for name in ("etc/resolv.conf", "etc/hosts"):
        if (Path("/") / name).is_file():
            copy(Path("/") / name, root / name)
    if CA_BUNDLE.is_file():
        copy(CA_BUNDLE, root / str(CA_BUNDLE).lstrip("/"))
    for config in PIP_CONFIGS:
        files = [config] if config.is_file() else sorted(p for p in config.glob("*") if p.is_file())
        for source in files:
            copy(source, root / str(source).lstrip("/"))
    (root / "etc/apt/apt.conf.d/99baton-snapshot").write_text(APT_CONF)
    for minor in PYTHONS:
        write_host_files(root, minor)


def host_python(minor: str, root: Path = CHROOT) -> Path:
    """The chroot's python{minor}, runnable on this host.

    The interpreter needs sid's libc, so it is started by sid's dynamic loader
    with sid's libraries; --argv0 keeps the name it was called by, so a venv
    made with it finds its pyvenv.cfg. The launcher lies in the chroot's /usr
    (usr/baton-host), so that CPython, searching up from it, finds its
    standard library in the chroot's usr/lib: sys.prefix is the chroot's /usr.
    The programs it starts (the compiler, ninja) are the host's own."""
    return root / HOST_DIR / f"python{minor}"


def write_host_files(root: Path, minor: str) -> None:
    libdir = root / "usr/lib/x86_64-linux-gnu"
    launcher = host_python(minor, root)
    launcher.parent.mkdir(parents=True, exist_ok=True)
    q = shlex.quote
    launcher.write_text(
        "#!/bin/sh\n"
        f"# The sid chroot's python{minor} on this host (tools/sid_chroot.py host_python).\n"
        f'exec {q(str(libdir / "ld-linux-x86-64.so.2"))} --library-path {q(str(libdir))} --argv0 "$0" '
        f'{q(str(root / "usr/bin" / f"python{minor}"))} "$@"\n')
    launcher.chmod(0o755)
    # Debian's pyconfig.h is a wrapper including <x86_64-linux-gnu/pythonX.Y/pyconfig.h>:
    # a folder holding that path alone gives the host's compiler the real one
    # without putting the chroot's other headers (sid's libc) before the host's.
    include = root / HOST_DIR / "include"
    link = include / "x86_64-linux-gnu" / f"python{minor}"
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(root / "usr/include/x86_64-linux-gnu" / f"python{minor}")
    pkgconfig = root / HOST_DIR / "pkgconfig"
    pkgconfig.mkdir(parents=True, exist_ok=True)
    (pkgconfig / f"python-{minor}.pc").write_text(
        f"# The sid chroot's Python {minor} headers, for a build on this host (tools/sid_chroot.py).\n"
        "Name: Python\n"
        f"Description: Python {minor} of the sid chroot at {root}\n"
        f"Version: {minor}\n"
        "Libs:\n"
        f"Cflags: -I{root / 'usr/include' / f'python{minor}'} -I{include}\n")


def pkgconfig_dir(root: Path = CHROOT) -> Path:
    """Where python-3.14.pc and python-3.15.pc for a host build lie (PKG_CONFIG_PATH)."""
    return root / HOST_DIR / "pkgconfig"


def host_venv(minor: str, where: Path, root: Path = CHROOT) -> Path:
    """A venv of the chroot's python{minor} on this host, with pip. Debian's
    ensurepip takes pip from /usr/share/python-wheels by its absolute path,
    which here is the host's own older pip (it fails on 3.14): the venv is
    made without pip, which is then installed from the chroot's wheel."""
    if where.exists():
        shutil.rmtree(where)
    subprocess.run([str(host_python(minor, root)), "-m", "venv", "--without-pip", str(where)], check=True)
    wheels = sorted((root / "usr/share/python-wheels").glob("pip-*.whl"))
    if not wheels:
        raise SystemExit(f"chroot: no pip wheel in {root}/usr/share/python-wheels")
    python = where / "bin" / "python"
    subprocess.run([str(python), f"{wheels[-1]}/pip", "install", "--quiet", "--no-index",
                    "--disable-pip-version-check", str(wheels[-1])], check=True)
    return python


def create(root: Path = CHROOT) -> int:
    if ready(root):
        refresh(root)
        say(f"ready at {root}")
        return 0
    why = cannot_create()
    mirror = None
    if not why:
        mirror, why = debian_mirror()
    if why:
        say(f"skipped, the sid chroot cannot be made here: {why}")
        return 0
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f".{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another make made it meanwhile: nothing to do
        if ready(root):
            refresh(root)
            say(f"ready at {root}")
            return 0
        return build(root, mirror)


def build(root: Path, mirror: str) -> int:
    started = time.monotonic()
    packages = stamp_packages(root)
    if packages is None:
        # Made beside its place and moved there whole: an interrupted run
        # leaves no half-made chroot where a ready one is looked for.
        partial = root.with_name(root.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        say(f"debootstrap --variant=minbase sid {partial} {mirror}")
        result = subprocess.run(["debootstrap", "--variant=minbase", "sid", str(partial), mirror],
                                capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout[-3000:], result.stderr[-3000:], sep="\n", file=sys.stderr)
            say("FAILED: debootstrap (its output above)")
            return 1
        shutil.rmtree(root, ignore_errors=True)
        partial.rename(root)
    # Made before or not: what PACKAGES names is installed (a chroot made
    # with an older list gets what was added).
    refresh(root)
    for step in (["apt-get", "update", "-qq"],
                 ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *PACKAGES],
                 ["apt-get", "clean"]):
        result = run(step, root=root, cwd="/", capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout[-3000:], result.stderr[-3000:], sep="\n", file=sys.stderr)
            say(f"FAILED: {' '.join(step[:2])} in {root} (its output above)")
            return 1
    # Again: installing ca-certificates in there wrote the chroot's own
    # bundle over the host's (pip inside then met the proxy's CA untrusted).
    refresh(root)
    versions = {}
    for minor in PYTHONS:
        out = subprocess.run([str(host_python(minor, root)), "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            say(f"FAILED: python{minor} does not run on this host through {host_python(minor, root)}:\n{out.stderr}")
            return 1
        versions[minor] = out.stdout.strip()
    (root / STAMP).write_text(json.dumps({"packages": PACKAGES, "mirror": mirror, "pythons": versions,
                                          "made": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=1) + "\n")
    say(f"made at {root} in {time.monotonic() - started:.0f} s: "
        + ", ".join(f"Python {v}" for v in versions.values()))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_enter"]:  # run's first process, inside the new namespace
        root, cwd, env, _, *command = argv[1:]
        return enter(Path(root), cwd, json.loads(env), command)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("create")
    sub.add_parser("status")
    r = sub.add_parser("run")
    r.add_argument("--cwd", default=str(ROOT))
    r.add_argument("--env", action="append", default=[], help="NAME=VALUE (repeatable)")
    r.add_argument("argv", nargs=argparse.REMAINDER)
    h = sub.add_parser("host-python")
    h.add_argument("minor", choices=PYTHONS)
    args = parser.parse_args(argv)
    if args.command == "create":
        return create()
    if args.command == "status":
        ok, line = status()
        say(line)
        return 0 if ok else 1
    if args.command == "host-python":
        print(host_python(args.minor))
        return 0
    if not ready():
        say(status()[1])
        return 1
    command = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    env = dict(item.split("=", 1) for item in args.env)
    return run(command, env=env, cwd=args.cwd).returncode


if __name__ == "__main__":
    sys.exit(main())
