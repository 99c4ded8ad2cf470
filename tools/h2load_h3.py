"""h2load with HTTP/3, built once from Debian sid's nghttp2 source, for the h3 benchmark suite.

Debian's h2load (nghttp2-client) is built without ngtcp2 and nghttp3, so it
speaks HTTP/1.1 and HTTP/2 only. nghttp2's h2load speaks HTTP/3 through
ngtcp2's crypto layer over OpenSSL 3.5's QUIC TLS API (ngtcp2_crypto_ossl)
in nghttp2 releases from 2025 on: trixie's 1.64 predates it, sid's (1.70
when this was written) has it. Its release tarball is fetched with apt-get
source (tools/trixie_source.py, from sid) and only h2load is built, with
Debian 12's clang 19 and libc++ (its apps are C++23), linked statically
against the first three below (libev, c-ares, zlib and libc++ are Debian's
shared libraries):

  - the static OpenSSL 3.5 that `make openssl` builds (tools/openssl.py);
  - ngtcp2, its ossl crypto layer and nghttp3 from third_party/, built by
    third_party/meson.build itself (the same sources, probes and flags as
    the extension's), in a scratch meson project;
  - libnghttp2 from the same tarball.

sid moves: a later nghttp2 may ask for a newer ngtcp2 or nghttp3 than
third_party/ holds, and its configure then stops with that (in the log).

  python3 tools/h2load_h3.py build
      Builds it once at $BATON_H2LOAD_H3 (/var/cache/baton/h2load-h3 by
      default: outside the clone, so a fresh clone on a machine that has it
      skips the work), with the build's log beside it. A machine that cannot
      build it (no static OpenSSL 3.5, no network to the mirror, not root for
      apt) prints why on one line and exits 0: the h3 suite's HTTP/3 rows
      then fail with that reason, and its HTTP/2 rows run.

  python3 tools/h2load_h3.py status
      One line: the binary and the nghttp2 version it holds, or why there is
      none (exit 1).

  python3 tools/h2load_h3.py path
      The h2load binary alone (exit 1 when there is none).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import openssl
from trixie_source import ROOT, build_once, cache_command

PREFIX = Path(os.environ.get("BATON_H2LOAD_H3") or "/var/cache/baton/h2load-h3")
SOURCE_PACKAGE = "nghttp2"
SOURCE_SUITE = "sid"
# nghttp2's configure and make (autotools), meson for the QUIC libraries,
# and h2load's own dependencies: libev (its loop), c-ares (the apps' DNS),
# zlib.
BUILD_PACKAGES = ["build-essential", "dpkg-dev", "pkg-config", "meson", "ninja-build", "libev-dev",
                  "libc-ares-dev", "zlib1g-dev", "clang-19", "libc++-19-dev", "libc++abi-19-dev"]
# nghttp2's applications are C++23 (<print>, std::format), which Debian 12's
# g++ 12 and its libstdc++ lack: Debian 12's clang 19 with LLVM's libc++ 19
# has both. The C parts (libnghttp2, ngtcp2, nghttp3) stay on cc.
CXX = "clang++-19 -stdlib=libc++"
# Only what h2load needs; everything optional that would link another
# library into it is off.
CONFIGURE_OPTIONS = ["--enable-app", "--enable-http3", "--with-libngtcp2", "--with-libnghttp3",
                     "--disable-shared", "--enable-static", "--disable-hpack-tools", "--disable-examples",
                     "--disable-python-bindings", "--without-jemalloc", "--without-systemd", "--without-libxml2",
                     "--without-jansson", "--without-libbpf", "--without-mruby", "--without-neverbleed",
                     "--with-libcares"]
JOBS = "-j2"
# The scratch meson project around third_party/meson.build: it hands over
# the OpenSSL it links as quic_openssl, as the top-level meson.build does.
QUIC_MESON = """project('quic-for-h2load', 'c', default_options: ['buildtype=release', 'b_ndebug=if-release'])
cc = meson.get_compiler('c')
openssl_inc = include_directories('{openssl}/include')
quic_openssl = [declare_dependency(include_directories: openssl_inc,
  dependencies: [cc.find_library('ssl', dirs: '{openssl}/lib', static: true),
                 cc.find_library('crypto', dirs: '{openssl}/lib', static: true)])]
subdir('third_party')
"""
PC_FILE = """Name: {name}
Description: {name} from baton's third_party, static
Version: {version}
Cflags: -I{include} -DNGTCP2_STATICLIB -DNGHTTP3_STATICLIB
Libs: {libs}
"""


def say(message: str) -> None:
    print(f"h2load-h3: {message}", flush=True)


def binary(prefix: Path = PREFIX) -> Path:
    return prefix / "bin" / "h2load"


def version_of(prefix: Path = PREFIX) -> str | None:
    try:
        return (prefix / "VERSION").read_text().strip() or None
    except OSError:
        return None


def ready(prefix: Path = PREFIX) -> str | None:
    """Why the prefix cannot be used, or None when it can."""
    if not binary(prefix).exists() or version_of(prefix) is None:
        return f"no h2load with HTTP/3 at {prefix} (make h2load-h3 builds it)"
    probe = subprocess.run([str(binary(prefix)), "--help"], capture_output=True, text=True)
    if "--h3" not in probe.stdout:
        return f"{binary(prefix)} does not offer --h3"
    return None


def third_party_version(header: Path) -> str:
    for line in header.read_text().splitlines():
        if "_VERSION \"" in line:
            return line.split('"')[1]
    raise RuntimeError(f"no version in {header}")


def build_quic_libraries(work: Path, openssl_prefix: Path, out) -> Path:
    """ngtcp2, ngtcp2_crypto_ossl and nghttp3 as static libraries, with the
    pkg-config files nghttp2's configure looks for; returns their folder."""
    project = work / "quic"
    project.mkdir()
    shutil.copytree(ROOT / "third_party", project / "third_party",
                    ignore=shutil.ignore_patterns("h2spec"))
    (project / "meson.build").write_text(QUIC_MESON.format(openssl=openssl_prefix))
    for step in (["meson", "setup", str(work / "quic-build"), str(project)],
                 ["ninja", JOBS, "-C", str(work / "quic-build")]):
        out.write(f"+ {' '.join(step)}\n")
        out.flush()
        subprocess.run(step, stdout=out, stderr=subprocess.STDOUT, check=True)
    libs = work / "quic-build" / "third_party"
    pkgconfig = work / "pkgconfig"
    pkgconfig.mkdir()
    tp = project / "third_party"
    ngtcp2_version = third_party_version(tp / "ngtcp2/lib/includes/ngtcp2/version.h")
    nghttp3_version = third_party_version(tp / "nghttp3/lib/includes/nghttp3/version.h")
    for name, version, include, libs_flags in (
            ("libngtcp2", ngtcp2_version, tp / "ngtcp2/lib/includes", f"{libs}/libngtcp2.a"),
            ("libngtcp2_crypto_ossl", ngtcp2_version, f"{tp}/ngtcp2/crypto/includes -I{tp}/ngtcp2/lib/includes",
             f"{libs}/libngtcp2_crypto_ossl.a {libs}/libngtcp2.a"),
            ("libnghttp3", nghttp3_version, tp / "nghttp3/lib/includes", f"{libs}/libnghttp3.a")):
        (pkgconfig / f"{name}.pc").write_text(PC_FILE.format(name=name, version=version, include=include,
                                                             libs=libs_flags))
    return pkgconfig


def compile_into(tree: Path, prefix: Path, log: Path) -> bool:
    """Builds the QUIC libraries, then configures nghttp2 and makes h2load
    alone; False on failure."""
    openssl_prefix = openssl.PREFIX
    with open(log, "w") as out:
        try:
            pkgconfig = build_quic_libraries(tree.parent, openssl_prefix, out)
        except subprocess.CalledProcessError as error:
            say(f"failed building ngtcp2 and nghttp3 ({error.cmd[0]}): see {log}")
            return False
        env = dict(os.environ, CXX=CXX, PKG_CONFIG_PATH=f"{pkgconfig}:{openssl_prefix}/lib/pkgconfig",
                   OPENSSL_CFLAGS=f"-I{openssl_prefix}/include",
                   OPENSSL_LIBS=f"{openssl_prefix}/lib/libssl.a {openssl_prefix}/lib/libcrypto.a -ldl -pthread")
        for step in (["./configure", *CONFIGURE_OPTIONS, f"--prefix={prefix}"], ["make", JOBS, "-C", "lib"],
                     ["make", JOBS, "-C", "third-party"], ["make", JOBS, "-C", "src", "h2load"]):
            out.write(f"+ {' '.join(step)}\n")
            out.flush()
            status = subprocess.run(step, cwd=tree, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
            if status != 0:
                say(f"failed at {' '.join(step[:3])}: see {log}")
                return False
    (prefix / "bin").mkdir(parents=True, exist_ok=True)
    shutil.copy2(tree / "src" / "h2load", binary(prefix))
    (prefix / "VERSION").write_text(f"{tree.name.removeprefix('nghttp2-')}\n")
    return True


def build(prefix: Path = PREFIX) -> int:
    why = openssl.ready()
    if why is not None and ready(prefix) is not None:
        say(f"skipped: {why}")
        return 0
    return build_once(prefix, package=SOURCE_PACKAGE, tree_prefix="nghttp2-", build_packages=BUILD_PACKAGES,
                      ready=lambda: ready(prefix), describe=lambda: f"h2load {version_of(prefix)} at {prefix}",
                      compile_into=lambda tree, log: compile_into(tree, prefix, log), say=say,
                      suite=SOURCE_SUITE)


def main() -> int:
    return cache_command(__doc__.splitlines()[0], "h2load-h3", lambda: build(PREFIX), lambda: ready(PREFIX),
                         lambda: f"h2load {version_of(PREFIX)} at {binary(PREFIX)}", lambda: binary(PREFIX))


if __name__ == "__main__":
    sys.exit(main())
