"""Writes the gunicorn request corpus as plain text for the C++ corpus replay.

One case per line: `<name> <verdict> <hex of the raw bytes>`.
"""

import base64
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance" / "data" / "gunicorn-requests.json"


def main(out_path):
    cases = json.loads(CORPUS.read_text())["cases"]
    lines = [f"{c['name']} {c['verdict']} {base64.b64decode(c['request_b64']).hex()}" for c in cases]
    pathlib.Path(out_path).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
