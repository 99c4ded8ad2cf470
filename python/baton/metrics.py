"""--metrics-bind: the metrics region (core/metrics, through
_baton.MetricsRegion) and the listener that serves GET /metrics from it.

The process that serves the scrape makes the region: the master, before it
forks, so that every worker counts into its own slot of the same memory and
one scrape gives the whole server; or the one process serving alone. The
listener is a native thread of that process: it answers while every app
thread is busy and through a drain, and never runs Python."""

from __future__ import annotations

import os
import platform
import sys

from baton import __version__, binding
from baton.config import Config


def resident_bytes(pid: int) -> int:
    """A process's resident memory (from /proc), or 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# Where the scrape is served, once start() has bound it.
_served_at = ""
_listening_fd = -1  # the metrics socket, which the master's listener thread serves


def close_in_worker() -> None:
    """In a worker just forked: the metrics socket is the master's. A worker
    that kept it would keep the port bound after its master died (while it
    drains), and a server started anew could not bind it."""
    global _listening_fd
    if _listening_fd >= 0:
        os.close(_listening_fd)
        _listening_fd = -1


def start(config: Config, workers: int):
    """The region, serving on --metrics-bind, or None when it is not given.
    Raises binding.BindError (one line) when the address cannot be bound."""
    if not config.metrics_bind:
        return None
    kind, host, port = binding.parse_bind(config.metrics_bind)
    if kind != "tcp":
        raise binding.BindError(f"--metrics-bind {config.metrics_bind!r}: give HOST:PORT")
    try:
        sockets = binding.bind_tcp(str(host), port, config)
    except binding.BindError as error:
        raise binding.BindError(f"--metrics-bind: {error}") from None
    try:
        from baton import _baton

        region = _baton.MetricsRegion(workers, config.threads)
    except BaseException:
        binding.close_listeners(sockets)
        raise
    # One address is served (a name that resolves to several binds the first),
    # named as bound: port 0 becomes the port the kernel chose.
    global _served_at
    host, port = sockets[0].sock.getsockname()[:2]
    _served_at = f"http://[{host}]:{port}/metrics" if ":" in host else f"http://{host}:{port}/metrics"
    global _listening_fd
    _listening_fd = sockets[0].sock.detach()
    region.listen(_listening_fd, __version__, platform.python_version(),
                  not getattr(sys, "_is_gil_enabled", lambda: True)())
    binding.close_listeners(sockets[1:])
    return region


def shown(config: Config) -> str:
    return _served_at or f"http://{config.metrics_bind}/metrics"
