"""The include table (docs/rooms.txt) as `make lint` checks it: the tree
passes, and an include the table does not allow, planted in a copy of the
tree, fails the check with a line naming the file, the header and the rule."""

import shutil
import subprocess
import sys

from tests.integration.server import ROOT

CHECK = [sys.executable, str(ROOT / "tools" / "rooms.py")]


def test_every_include_of_the_tree_is_allowed():
    result = subprocess.run(CHECK, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
    assert "every include allowed" in result.stdout


def test_a_protocol_that_includes_its_sibling_fails_the_check(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src)
    planted = src / "core" / "http1" / "protocol.cc"
    text = planted.read_text()
    planted.write_text(text.replace('#include "core/http1/protocol.h"\n',
                                    '#include "core/http1/protocol.h"\n#include "core/http2/protocol.h"\n', 1))
    result = subprocess.run([*CHECK, "--src", str(src)], capture_output=True, text=True)
    assert result.returncode == 1
    assert ("src/core/http1/protocol.cc:2: includes core/http2/protocol.h, but core/http1 may not include "
            "core/http2") in result.stdout


def test_the_bridge_may_not_reach_into_a_protocol(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src)
    planted = src / "bridge" / "asgi" / "websocket.cc"
    planted.write_text('#include "core/ws/endpoint.h"\n' + planted.read_text())
    result = subprocess.run([*CHECK, "--src", str(src)], capture_output=True, text=True)
    assert result.returncode == 1 and "bridge/asgi may not include core/ws" in result.stdout
