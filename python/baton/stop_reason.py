"""Why a server stopped, as the core names it (src/core/server/server.h's
stop_reason): an enum both sides name, checked against the core's own list
(check_against_core, called as baton.serve loads the extension), so a
reason added on one side only fails at once. This module does not load the
extension itself: the master, which imports it, never needs the core."""

from __future__ import annotations

import enum


class StopReason(str, enum.Enum):
    NONE = "none"
    SIGNAL = "signal"  # TERM, INT or QUIT: the process is to end
    REQUESTED = "requested"  # a program that embeds the server stopped it (baton.serving)
    HANGUP = "hangup"  # HUP (alone: a reload in place) or the retire signal (a worker)
    MAX_REQUESTS = "max-requests"  # a worker's --max-requests reached: it retires
    APP_TIMEOUT = "app-timeout"  # a request over --timeout: the worker is replaced
    # Python's own, never the core's:
    FAILED = "failed"  # a loop thread of --threads raised
    STARTUP_FAILED = "startup-failed"  # the ASGI app's lifespan startup failed

    def __str__(self) -> str:  # in log lines and messages, the core's name
        return self.value

    __format__ = str.__format__


PYTHON_ONLY = {StopReason.FAILED, StopReason.STARTUP_FAILED}


def check_against_core(core_names: tuple[str, ...]) -> None:
    mine = {r.value for r in StopReason if r not in PYTHON_ONLY}
    if mine != set(core_names):
        raise ImportError(f"baton's stop reasons {sorted(mine)} are not the core's {sorted(core_names)}: the "
                          "extension and the package are of different builds")
