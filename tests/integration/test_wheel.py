"""The wheel and the sdist: `make wheels` builds the wheel of this Python,
tagged manylinux, and it installs with `pip install --no-index` into a fresh
plain venv (no system site packages) that then serves an app; `make sdist`'s
archive builds and installs with pip in a user's own venv. (The other
interpreters' wheels are tested by the matrix, tests/matrix.)"""

import os
import subprocess
import sys
import venv

import httpx
import pytest

from tests.integration.server import ROOT, Server

MINOR = f"{sys.version_info.major}.{sys.version_info.minor}"
TAG = f"cp{sys.version_info.major}{sys.version_info.minor}"

# Each build compiles the whole tree (some 85 s on a machine whose compiler
# cache is cold, longer beside another suite): the subprocesses' own
# timeouts bound them, not the suites' 120 s a test.
pytestmark = pytest.mark.timeout(1200)


def plain_venv(where):
    venv.create(where, with_pip=True, system_site_packages=False)
    return where / "bin" / "python"


@pytest.fixture(scope="module")
def wheel():
    # `make wheels` for this interpreter alone (it reuses a wheel newer than the sources).
    subprocess.run([sys.executable, str(ROOT / "tools" / "wheels.py"), "build", "--python", MINOR], cwd=ROOT,
                   check=True, timeout=900)
    wheels = list((ROOT / "dist").glob(f"baton-*-{TAG}-{TAG}-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    python = plain_venv(tmp_path_factory.mktemp("plain") / "venv")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", str(wheel)], check=True,
                   timeout=300)
    return python


def test_the_wheel_is_tagged_manylinux_for_this_python(wheel):
    assert f"-{TAG}-{TAG}-manylinux_" in wheel.name and wheel.name.endswith("_x86_64.whl")


def test_installed_from_the_wheel_alone(installed):
    where = subprocess.run([str(installed), "-c", "import baton, baton._baton; print(baton.__file__)"],
                           capture_output=True, text=True, check=True, cwd="/").stdout
    assert str(installed.parent.parent) in where  # the venv's copy, not the source tree's
    version = subprocess.run([str(installed.parent / "baton"), "--version"], capture_output=True, text=True,
                             check=True)
    assert version.stdout.startswith("baton ")


def test_the_plain_venv_serves(installed):
    server = Server(["--port", "0", "--workers", "2", "tests.integration.apps.ops_apps:app"], python=str(installed))
    server.start()
    try:
        answer = httpx.get(server.url + "/").json()
        assert answer["SERVER_SOFTWARE"].startswith("baton/")
    finally:
        server.stop()


def test_the_sdist_builds_and_installs_with_pip_in_a_users_venv(tmp_path):
    made = subprocess.run([sys.executable, str(ROOT / "tools" / "wheels.py"), "sdist"], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=600).stdout
    sdist = ROOT / made.strip().splitlines()[-1].split("sdist: ", 1)[1]
    assert sdist.name.endswith(".tar.gz") and sdist.exists()
    python = plain_venv(tmp_path / "venv")
    # pip builds it as it would for a user, in an isolated build environment;
    # the versions it takes for that are the pinned ones.
    constraints = tmp_path / "constraints.txt"
    subprocess.run([sys.executable, str(ROOT / "tools" / "locks.py"), "constraints", str(ROOT / "tools" / "locks" /
                    "build.txt"), "--out", str(constraints)], check=True)
    env = dict(os.environ, PIP_CONSTRAINT=str(constraints))
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(sdist)], check=True, timeout=900, env=env)
    out = subprocess.run([str(python.parent / "baton"), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("baton ")
