"""The wheel: `make wheel`'s command builds it, and it installs with
`pip install --no-index` into a fresh plain venv (no system site packages)
that then serves an app."""

import subprocess
import sys
import venv

import httpx
import pytest

from tests.integration.server import ROOT, Server


@pytest.fixture(scope="module")
def plain_venv(tmp_path_factory):
    dist = tmp_path_factory.mktemp("dist")
    # The command `make wheel` runs, into a directory of the test's own.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps",
                    "--no-index", "-w", str(dist), "--config-settings=builddir=build/py", "."],
                   cwd=ROOT, check=True, timeout=900)
    wheels = list(dist.glob("baton-*.whl"))
    assert len(wheels) == 1, wheels
    env_dir = tmp_path_factory.mktemp("plain") / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", str(wheels[0])], check=True,
                   timeout=300)
    return python, wheels[0]


def test_the_wheel_is_for_this_python(plain_venv):
    _, wheel = plain_venv
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"-{tag}-{tag}-linux_" in wheel.name


def test_installed_from_the_wheel_alone(plain_venv):
    python, _ = plain_venv
    where = subprocess.run([str(python), "-c", "import baton, baton._baton; print(baton.__file__)"],
                           capture_output=True, text=True, check=True, cwd="/").stdout
    assert str(python.parent.parent) in where  # the venv's copy, not the source tree's
    version = subprocess.run([str(python.parent / "baton"), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("baton ")


def test_the_plain_venv_serves(plain_venv):
    python, _ = plain_venv
    server = Server(["--port", "0", "--workers", "2", "tests.integration.apps.ops_apps:app"], python=str(python))
    server.start()
    try:
        answer = httpx.get(server.url + "/").json()
        assert answer["SERVER_SOFTWARE"].startswith("baton/")
    finally:
        server.stop()
