"""Running the native server in this process: the options every shape takes,
and the WSGI (and native hello) entry. A worker under a master runs this
too, with the master's part (heartbeat, recycling) in a WorkerContext."""

from __future__ import annotations

import dataclasses
import os
import signal

from baton import __version__, _baton, logging_setup
from baton.binding import Listener
from baton.config import Config

logger = logging_setup.logger


@dataclasses.dataclass
class WorkerContext:
    """What a master gives a worker, or nothing for a process serving alone."""

    heartbeat: memoryview | None = None  # 8 shared bytes the loop stamps with its clock
    max_requests: int = 0
    app_timeout: float = 0.0
    supervised: bool = False


def env_switch(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def server_options(config: Config, worker: WorkerContext) -> dict:
    """The keyword arguments both _baton.serve and _baton.AsgiServer read."""
    return dict(
        keep_alive_timeout=config.keep_alive_timeout,
        header_read_timeout=config.header_read_timeout,
        body_read_timeout=config.body_read_timeout,
        write_timeout=config.write_timeout,
        graceful_timeout=config.graceful_timeout,
        max_header_size=config.max_header_size,
        max_headers=config.max_headers,
        max_body_size=config.max_body_size,
        log_level=logging_setup.logger.getEffectiveLevel(),
        proxy_headers=config.proxy_headers,
        forwarded_allow_ips=config.forwarded_allow_ips,
        server_header="baton" if config.server_header else "",
        root_path=config.root_path,
        health_path=config.health_path,
        static_mounts=list(zip(config.static_path_route, config.static_path_mount)),
        static_expires=config.static_path_expires,
        access_log_format=config.access_log_format if config.access_log else None,
        access_logfile=config.access_logfile,
        max_requests=worker.max_requests,
        heartbeat=worker.heartbeat,
    )


def listener_args(listeners: list[Listener]) -> list[tuple[int, str, int]]:
    """The descriptors for the native server, which owns (and closes) them from here."""
    return [(listener.sock.detach(), listener.server_name, listener.server_port) for listener in listeners]


def describe_shape(config: Config) -> str:
    if config.native_hello:
        return "the native hello route"
    if config.blocking_threads:
        return f"{config.blocking_threads} app thread{'s' if config.blocking_threads != 1 else ''}"
    return "the app on the loop thread"


def run_wsgi(config: Config, app, listeners: list[Listener], worker: WorkerContext) -> tuple[str, list[int]]:
    """Serves until a stop; returns why, and the sockets kept for a reload (single process, SIGHUP)."""
    options = server_options(config, worker)
    reason, kept = _baton.serve(
        app,
        listener_args(listeners),
        native_hello=config.native_hello,
        blocking_threads=config.blocking_threads,
        # A/B switches for the benchmarks, not options: the attached loop of
        # before the detach, the pool without its turn barrier, and the
        # predecessor's inline fallback when every pool thread is busy.
        loop_attached=env_switch("BATON_LOOP_ATTACHED", False),
        pool_turn=env_switch("BATON_POOL_TURN", True),
        pool_fallback_inline=os.environ.get("BATON_POOL_FALLBACK", "") == "inline",
        server_software=f"baton/{__version__}",
        multiprocess=worker.supervised,
        log_exception=logging_setup.log_exception,
        # The pool shape can give up on a request (504) and retire; inline
        # cannot look while the app runs: its master watches the heartbeat.
        app_timeout=worker.app_timeout if config.blocking_threads else 0,
        catch_hangup=not worker.supervised,
        retire_signal=signal.SIGUSR2 if worker.supervised else signal.SIGHUP,
        **options,
    )
    return reason, kept
