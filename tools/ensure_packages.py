"""Installs the Debian packages named on the command line that are missing.

Uses apt-get (as root, or through sudo); runs `apt-get update` only when
something must be installed. Prints nothing when all are present.

A name may hold `{clang}`: the major version of the clang Debian installs
as `clang` (14 on Debian 12, 19 on Debian 13), for the packages that carry
it in their names (clang's sanitizer and fuzzer runtime, libclang-rt-N-dev).

One install at a time: `make test` builds its slow caches in the
background while its targets run, and both may want packages at once; each
waits for the other (a lock of the project's own), and apt-get itself waits
for anyone else's (DPkg::Lock::Timeout) instead of failing.
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile


def missing(packages):
    result = []
    for package in packages:
        probe = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                               capture_output=True, text=True)
        if "install ok installed" not in probe.stdout:
            result.append(package)
    return result


def clang_major():
    """The N of the clang-N package that Debian's `clang` depends on."""
    out = subprocess.run(["apt-cache", "depends", "clang"], capture_output=True, text=True).stdout
    match = re.search(r"Depends: clang-(\d+)", out)
    if not match:
        raise SystemExit("cannot tell which clang Debian's `clang` package installs (apt-cache depends clang)")
    return match.group(1)


def main(packages):
    if any("{clang}" in p for p in packages):
        major = clang_major()
        packages = [p.replace("{clang}", major) for p in packages]
    if not missing(packages):
        return 0
    with open(os.path.join(tempfile.gettempdir(), "baton-apt.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        needed = missing(packages)  # what another install left to do
        if not needed:
            return 0
        prefix = [] if os.geteuid() == 0 else ["sudo"]
        if prefix and not shutil.which("sudo"):
            print(f"missing Debian packages and not root: {' '.join(needed)}", file=sys.stderr)
            return 1
        print(f"installing Debian packages: {' '.join(needed)}", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        wait = ["-o", "DPkg::Lock::Timeout=600"]
        subprocess.run(prefix + ["apt-get", *wait, "update", "-qq"], check=True, env=env)
        subprocess.run(prefix + ["apt-get", *wait, "install", "-y", "-qq", "--no-install-recommends", *needed],
                       check=True, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
