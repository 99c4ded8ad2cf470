"""Serving an ASGI app: the asyncio side of both shapes, lifespan, and the signals.

pump (the default): the native loop runs on its own thread; this thread runs
asyncio, which watches one eventfd and takes new requests and news from the
native side when it fires.

inverted (--asgi-mode inverted, or BATON_INVERTED=1): one thread. asyncio
watches the native loop's epoll fd and runs one non-blocking pass of it when
it is readable or its timer is due; the graceful drain is stepped the same
way, pass by pass, with asyncio free to run the app's tasks in between.

In both, asyncio catches the signals (add_signal_handler) and passes each to
the native server, whose one policy every shape shares: SIGTERM and SIGINT
gracefully (a second SIGINT at once), SIGQUIT at once, SIGHUP (SIGUSR2 for a
worker) by retiring, SIGUSR1 reopens the access log.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import sys
import time

from baton import _baton, binding, logging_setup
from baton.binding import Listener
from baton.config import Config
from baton.serve import WorkerContext, env_switch, listener_args, server_options

logger = logging_setup.logger


class LifespanFailed(Exception):
    """The app's startup (or shutdown) reported failure; the message is the app's."""


class Lifespan:
    """The lifespan protocol's server side: startup before the first accept,
    shutdown after the drain. With mode "auto", an app that does not speak it
    (it raises on the lifespan scope before answering) is served anyway."""

    def __init__(self, app, mode: str, state: dict):
        self.app = app
        self.mode = mode
        self.state = state
        self.events: asyncio.Queue = asyncio.Queue()
        self.startup_answer: asyncio.Future | None = None
        self.shutdown_answer: asyncio.Future | None = None
        self.task: asyncio.Task | None = None
        self.supported = mode != "off"

    async def startup(self) -> None:
        if self.mode == "off":
            return
        loop = asyncio.get_running_loop()
        self.startup_answer = loop.create_future()
        self.shutdown_answer = loop.create_future()
        self.task = loop.create_task(self._main())
        await self.events.put({"type": "lifespan.startup"})
        await self.startup_answer  # raises LifespanFailed

    async def shutdown(self) -> None:
        if not self.supported or self.task is None or self.task.done():
            return
        await self.events.put({"type": "lifespan.shutdown"})
        try:
            await asyncio.wait_for(asyncio.shield(self.shutdown_answer), 30)
        except LifespanFailed as error:
            logger.error("application shutdown failed: %s", error)
        except asyncio.TimeoutError:
            logger.error("application shutdown did not complete in 30 seconds")

    async def _main(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": self.state}
        try:
            await self.app(scope, self._receive, self._send)
        except BaseException as error:  # noqa: BLE001
            if not self.startup_answer.done():
                if self.mode == "auto":
                    # Not a lifespan app: serve it without one.
                    self.supported = False
                    logger.info("the application does not support lifespan (%s: %s); serving without it",
                                type(error).__name__, error)
                    self.startup_answer.set_result(None)
                else:
                    logging_setup.log_exception("the application failed in lifespan startup", error)
                    self.startup_answer.set_exception(LifespanFailed(f"{type(error).__name__}: {error}"))
            elif not self.shutdown_answer.done():
                logging_setup.log_exception("the application failed in lifespan shutdown", error)
                self.shutdown_answer.set_exception(LifespanFailed(f"{type(error).__name__}: {error}"))
            if not isinstance(error, Exception):
                raise
        finally:
            for answer in (self.startup_answer, self.shutdown_answer):
                if not answer.done():
                    answer.set_result(None)

    async def _receive(self):
        return await self.events.get()

    async def _send(self, message) -> None:
        kind = message.get("type")
        if kind == "lifespan.startup.complete":
            self.startup_answer.set_result(None)
        elif kind == "lifespan.startup.failed":
            self.startup_answer.set_exception(LifespanFailed(message.get("message") or "startup failed"))
        elif kind == "lifespan.shutdown.complete":
            self.shutdown_answer.set_result(None)
        elif kind == "lifespan.shutdown.failed":
            self.shutdown_answer.set_exception(LifespanFailed(message.get("message") or "shutdown failed"))
        else:
            raise RuntimeError(f"unexpected lifespan message {kind!r}")


def make_loop(kind: str) -> asyncio.AbstractEventLoop:
    if kind in ("auto", "uvloop"):
        try:
            import uvloop
        except ImportError:
            if kind == "uvloop":
                raise
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def shape_of(config: Config) -> str:
    """The ASGI shape. With --asgi-mode auto: the pump where each process
    (the one, or each worker) has two CPUs of its own, so that its two
    threads run side by side; inverted, the one-thread shape, where they
    would share one (measured: with a worker per core, inverted served the
    hello at twice the pump's rate; with one process on one core, it led
    eight rows of nine)."""
    if os.environ.get("BATON_INVERTED", "").strip().lower() in ("1", "true", "yes", "on"):
        return "inverted"
    if config.asgi_mode != "auto":
        return config.asgi_mode
    return "pump" if len(os.sched_getaffinity(0)) >= 2 * config.worker_count else "inverted"


def run(config: Config, app, listeners: list[Listener], worker: WorkerContext) -> tuple[int, str, list[int]]:
    """Serves until a stop: the exit status, why it stopped, and the sockets kept for a reload."""
    loop = make_loop(config.loop)
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(serve(config, app, listeners, worker))
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        asyncio.set_event_loop(None)


async def serve(config: Config, app, listeners: list[Listener], worker: WorkerContext) -> tuple[int, str, list[int]]:
    loop = asyncio.get_running_loop()
    shape = shape_of(config)
    state: dict = {}
    lifespan = Lifespan(app, config.lifespan, state)
    try:
        await lifespan.startup()
    except LifespanFailed as error:
        logger.error("application startup failed: %s", error)
        for listener in listeners:
            listener.sock.close()
        return 3, "startup-failed", []

    stopped = loop.create_future()
    pass_scheduled = False
    timer: asyncio.TimerHandle | None = None

    # Sockets are read only when the backend fd says so (once per turn of
    # asyncio's loop): the requests of a turn start together, their tasks
    # run, and the posted pass sends what they answered together.
    # pass_scheduled: a posted pass is queued (only that pass clears it, so
    # that one is queued at most).
    def run_pass() -> None:
        settle(server.run_pass())

    def queued_pass() -> None:
        nonlocal pass_scheduled
        pass_scheduled = False
        settle(server.posted_pass())

    def timed_pass() -> None:
        settle(server.posted_pass())

    def settle(timeout: int) -> None:
        nonlocal timer
        if server.stopped:
            if not stopped.done():
                stopped.set_result(None)
            return
        if timeout == 0:
            schedule_pass()
        elif timeout > 0:
            when = loop.time() + timeout / 1000
            if timer is None or abs(timer.when() - when) > 0.0005:
                if timer is not None:
                    timer.cancel()
                timer = loop.call_at(when, timed_pass)

    def schedule_pass() -> None:
        nonlocal pass_scheduled
        if not pass_scheduled:
            pass_scheduled = True
            loop.call_soon(queued_pass)

    options = server_options(config, worker)
    # The heartbeat comes from asyncio's own thread below: a blocked event
    # loop is what a master must see, not the native loop beside it.
    options["heartbeat"] = None
    server = _baton.AsgiServer(
        app, listener_args(listeners), loop, logging_setup.log_exception,
        state if lifespan.supported else None,
        pump=shape == "pump", schedule_pass=schedule_pass if shape == "inverted" else None,
        # An A/B switch for the benchmarks: each request's task started
        # eagerly (Python 3.12 and later), or queued as before.
        eager_tasks=env_switch("BATON_EAGER_TASKS", True),
        **options,
    )
    # The signals are asyncio's to catch and the server's to act on, by the
    # one policy every shape has (the native server's): TERM and INT drain,
    # a second INT or QUIT stops at once, the retire signal retires, USR1
    # reopens the access log.
    def on_signal(signo: int) -> None:
        server.deliver_signal(signo)

    handled = [signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1,
               signal.SIGUSR2 if worker.supervised else signal.SIGHUP]
    for signo in handled:
        loop.add_signal_handler(signo, on_signal, signo)

    drain_queued = False  # pump: one more drain is queued (at most one)

    def on_wake() -> None:
        nonlocal drain_queued
        if server.drain() and not drain_queued:  # more new requests than one turn starts
            drain_queued = True
            loop.call_soon(queued_drain)
        if server.stopped and not stopped.done():
            stopped.set_result(None)

    def queued_drain() -> None:
        nonlocal drain_queued
        drain_queued = False
        on_wake()

    beat: asyncio.TimerHandle | None = None
    stamp = ctypes.c_int64.from_buffer(worker.heartbeat) if worker.heartbeat is not None else None

    def heartbeat() -> None:
        nonlocal beat
        stamp.value = int(time.monotonic() * 1000)  # one aligned 8-byte store
        beat = loop.call_later(beat_interval, heartbeat)

    beat_interval = min(1.0, worker.app_timeout / 4) if worker.app_timeout else 1.0
    if worker.heartbeat is not None:
        heartbeat()
    logger.info("baton serving %s on %s (pid %d, ASGI, %s on %s)", config.app,
                binding.shown(listeners, bool(config.ssl_certfile)), os.getpid(), shape,
                type(loop).__module__.split(".")[0])
    server.start()
    if shape == "pump":
        loop.add_reader(server.wake_fd, on_wake)
    else:
        loop.add_reader(server.backend_fd, run_pass)
        schedule_pass()
    try:
        await stopped
    finally:
        if shape == "pump":
            loop.remove_reader(server.wake_fd)
        else:
            loop.remove_reader(server.backend_fd)
            if timer is not None:
                timer.cancel()
        for signo in handled:
            loop.remove_signal_handler(signo)
        server.join()
    # Tasks of requests the drain cut off are told so before lifespan ends.
    await asyncio.sleep(0)
    await lifespan.shutdown()
    if beat is not None:
        beat.cancel()
    reason, kept = server.stop_reason, server.take_listeners()
    server.close()
    return 0, reason, kept
