"""Switches for benchmarks and diagnostics: not options, and no user needs
one. Each is an environment variable `BATON_X_<NAME>`; the X keeps them
apart from `BATON_<OPTION>`, the options' own environment form, so no
switch can be mistaken for an option or shadow one. A switch never
overrides an option given explicitly: where it chooses between two shapes,
it chooses only what an option left to `auto`.

The table below is the one list of them (README's "Switches for
benchmarks" shows it); bench/harness/arms.py sets them for its A/B arms.
"""

from __future__ import annotations

import os

PREFIX = "BATON_X_"

SWITCHES = {
    "INVERTED": "1: ASGI with --asgi-mode auto takes the inverted shape whatever the CPUs",
    "EAGER_TASKS": "0: the inverted shape queues each request's task instead of starting it eagerly "
                   "(CPython 3.12 and later)",
    "STATIC_OPENAT2": "0: static files are resolved by the fallback walk a kernel without openat2 gets",
    "LOOP_ATTACHED": "1: a WSGI pool's loop thread takes the GIL on every pass, as before the detached loop",
    "POOL_TURN": "0: a WSGI pool without the turn barrier; force: the barrier kept on where it would be off "
                 "(free-threaded CPython)",
    "POOL_RUNNER": "0: a WSGI pool wakes an idle thread for each job at once, rather than leaving it a moment "
                   "to the thread that runs jobs back to back",
    "POOL_FALLBACK": "inline: a WSGI pool whose full queue runs the request on the loop thread (the "
                     "predecessor's fallback)",
}

# The names these switches had before they moved under the prefix: set, they
# are named in one warning line and otherwise ignored.
FORMER = {"BATON_" + name: PREFIX + name for name in SWITCHES}


def text(name: str) -> str:
    """The switch's value, stripped and lower-cased ('' when unset)."""
    assert name in SWITCHES, name
    return os.environ.get(PREFIX + name, "").strip().lower()


def flag(name: str, default: bool) -> bool:
    """A yes/no switch: unset or empty is `default`; 0, false, no and off are no."""
    value = text(name)
    if value == "":
        return default
    return value not in ("0", "false", "no", "off")


def former_names_set() -> list[str]:
    """The former names set in this environment, each with its new one."""
    return [f"{old} (now {new})" for old, new in FORMER.items() if old in os.environ]
