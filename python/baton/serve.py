"""Running the native server in this process: the options every shape takes,
and the WSGI (and native hello) entry. A worker under a master runs this
too, with the master's part (heartbeat, recycling) in a WorkerContext."""

from __future__ import annotations

import dataclasses
import signal

from baton import __version__, _baton, logging_setup, switches
from baton.binding import Listener
from baton.config import OPTIONS, Config
from baton.stop_reason import StopReason, check_against_core

check_against_core(_baton.STOP_REASONS)

logger = logging_setup.logger


@dataclasses.dataclass
class WorkerContext:
    """What a master gives a worker, or nothing for a process serving alone."""

    heartbeat: memoryview | None = None  # 8 shared bytes the loop stamps with its clock
    max_requests: int = 0
    app_timeout: float = 0.0
    supervised: bool = False
    metrics: tuple | None = None  # (MetricsRegion, slot): where its loops count (baton.metrics)
    parent_pid: int = 0  # its master: should the worker outlive it, the worker retires (0: serving alone)
    # With --http3 under a master (baton.datagrams): the socket index each loop
    # thread's QUIC connection IDs begin with, the group's key, and the
    # secret the stateless reset tokens come from.
    quic_cids: tuple[int, ...] = ()
    quic_key: int = 0
    quic_reset_secret: str = ""


def server_options(config: Config, worker: WorkerContext) -> dict:
    """The keyword arguments both _baton.serve and _baton.AsgiServer read: every
    option marked `core` in config.OPTIONS as it is, and the few the core takes
    in another form."""
    options = {option.name: getattr(config, option.name) for option in OPTIONS if option.core}
    options.update(
        log_level=logging_setup.logger.getEffectiveLevel(),
        server_header="baton" if config.server_header else "",
        static_mounts=list(zip(config.static_path_route, config.static_path_mount)),
        # A test switch: the static files' fallback walk instead of openat2,
        # as on a kernel without it (the escape tests run through both).
        static_open_fallback=not switches.flag("STATIC_OPENAT2", True),
        access_log_format=config.access_log_format if config.access_log else None,
        websocket=config.ws != "none",
        max_requests=worker.max_requests,
        heartbeat=worker.heartbeat,
        # Stamped four times within the master's --timeout, whatever the shape
        # (the core's own app timeout, where it has one, asks the same).
        heartbeat_interval=min(1.0, worker.app_timeout / 4) if worker.app_timeout else None,
        parent_pid=worker.parent_pid,
        quic_cid_index=worker.quic_cids[0] if worker.quic_cids else -1,
        quic_cid_key=worker.quic_key,
        quic_reset_secret=worker.quic_reset_secret,
        metrics=(*worker.metrics, 0) if worker.metrics else None,
        # A process serving alone reloads itself on SIGHUP (the listeners
        # kept for it); a worker retires on SIGUSR2 and its master replaces it.
        catch_hangup=not worker.supervised,
        retire_signal=signal.SIGUSR2 if worker.supervised else signal.SIGHUP,
    )
    return options


def listener_args(listeners: list[Listener]) -> list[tuple[int, str, int]]:
    """The descriptors for the native server, which owns (and closes) them from here."""
    return [(listener.sock.detach(), listener.server_name, listener.server_port) for listener in listeners]


def describe_shape(config: Config) -> str:
    if config.native_hello:
        return "the native hello route"
    if config.threads > 1:
        return f"{config.threads} loop threads, each running the app"
    if config.blocking_threads:
        return f"{config.blocking_threads} app thread{'s' if config.blocking_threads != 1 else ''}"
    return "the app on the loop thread"


def run_wsgi(config: Config, app, listeners: list[Listener], worker: WorkerContext,
             descriptors: list[tuple[int, str, int]] | None = None, **thread_options) -> tuple[str, list[int]]:
    """Serves until a stop; returns why, and the sockets kept for a reload (single process, SIGHUP).
    One loop thread of --threads passes its own `descriptors` and `thread_options` (baton.threads),
    and runs the app on the loop thread; a server on a thread of a program that owns the process
    (baton.serving) passes server options of its own as `thread_options` too."""
    own_loop_thread = descriptors is not None
    options = server_options(config, worker)
    options["websocket"] = False  # a WSGI app gets an upgrade request as a plain one
    options.update(thread_options)
    reason, kept = _baton.serve(
        app,
        descriptors if descriptors is not None else listener_args(listeners),
        native_hello=config.native_hello,
        blocking_threads=0 if own_loop_thread else config.blocking_threads,
        # A/B switches for the benchmarks, not options: the attached loop of
        # before the detach, the pool without its turn barrier (=force keeps
        # it on a free-threaded interpreter, where it is off), the pool
        # waking an idle thread for every job (none left to the running
        # thread), and the predecessor's inline fallback when every pool
        # thread is busy.
        loop_attached=switches.flag("LOOP_ATTACHED", False),
        pool_turn=switches.flag("POOL_TURN", True),
        pool_turn_forced=switches.text("POOL_TURN") == "force",
        pool_runner=switches.flag("POOL_RUNNER", True),
        pool_fallback_inline=switches.text("POOL_FALLBACK") == "inline",
        server_software=f"baton/{__version__}",
        multiprocess=worker.supervised,
        log_exception=logging_setup.log_exception,
        # The pool shape can give up on a request (504) and retire; inline
        # cannot look while the app runs: its master watches the heartbeat.
        app_timeout=worker.app_timeout if config.blocking_threads and not own_loop_thread else 0,
        **options,
    )
    return StopReason(reason), kept
