"""Checks that every room of src/ includes only the rooms docs/rooms.txt
lets it (the table docs/architecture.md explains). Part of `make lint`.

A room is a folder under src/core/ or src/bridge/ (the bridge's own files,
outside its wsgi/ and asgi/ folders, are the room `bridge`). Every
`#include "..."` of a project header is checked: a room may include its
own headers and those of the rooms its line names, nothing else.

    python3 tools/rooms.py            # check; prints each break, exit 1 if any
    python3 tools/rooms.py --edges    # what includes what today, one line a pair
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "rooms.txt"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(path: str) -> str | None:
    """The room of a path relative to src/ (a file, or a header as an include names it)."""
    parts = path.split("/")
    if parts[0] == "core" and len(parts) >= 3:
        return f"core/{parts[1]}"
    if parts[0] == "bridge":
        return f"bridge/{parts[1]}" if len(parts) >= 3 else "bridge"
    return None


def read_table(path: Path = TABLE) -> dict[str, set[str]]:
    rules: dict[str, set[str]] = {}
    for number, raw in enumerate(path.read_text().split("\n"), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        room, sep, allowed = line.partition(":")
        if not sep or room.strip() in rules:
            raise SystemExit(f"{path}:{number}: expected one `room: rooms...` line a room")
        rules[room.strip()] = set(allowed.split())
    return rules


def includes(src: Path) -> list[tuple[str, int, str]]:
    """(file relative to src/, line, included path) of every quoted include."""
    found = []
    for file in sorted(src.rglob("*")):
        if file.suffix not in (".h", ".cc"):
            continue
        text = file.read_text()
        for m in INCLUDE.finditer(text):
            found.append((file.relative_to(src).as_posix(), text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def breaks(src: Path, rules: dict[str, set[str]]) -> list[str]:
    problems = []
    for file, line, included in includes(src):
        mine, theirs = room_of(file), room_of(included)
        if mine is None or theirs is None:
            continue  # not a room's file, or not a project header (a vendored one, Python.h)
        if mine not in rules:
            problems.append(f"src/{file}: the room {mine} is not in {TABLE.relative_to(ROOT)}")
        elif theirs != mine and theirs not in rules[mine]:
            problems.append(f"src/{file}:{line}: includes {included}, but {mine} may not include {theirs} "
                            f"({TABLE.relative_to(ROOT)})")
    for room in rules:
        for other in rules[room]:
            if other not in rules:
                problems.append(f"{TABLE.relative_to(ROOT)}: {room} names {other}, which is no room")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edges", action="store_true")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--table", type=Path, default=TABLE)
    args = parser.parse_args(argv)
    if args.edges:
        pairs = sorted({(room_of(f), room_of(i)) for f, _, i in includes(args.src)
                        if room_of(f) and room_of(i) and room_of(f) != room_of(i)})
        for mine, theirs in pairs:
            print(f"{mine} -> {theirs}")
        return 0
    problems = breaks(args.src, read_table(args.table))
    for problem in problems:
        print(problem)
    print(f"rooms: {'every include allowed' if not problems else f'{len(problems)} not allowed'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
