"""Serving an ASGI app: the asyncio side of both shapes, lifespan, and the signals.

--asgi-mode auto (the default) takes the pump where each process has two
CPUs of its own and inverted elsewhere (shape_of).

pump: the native loop runs on its own thread; this thread runs asyncio,
which watches one eventfd and takes new requests and news from the native
side when it fires.

inverted: one thread. asyncio watches the native loop's epoll fd and runs one non-blocking pass of it when
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

from baton import _baton, binding, logging_setup, switches
from baton.binding import Listener
from baton.config import Config
from baton.stop_reason import StopReason
from baton.serve import WorkerContext, listener_args, server_options

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
    if config.asgi_mode != "auto":
        return config.asgi_mode
    if switches.flag("INVERTED", False):
        return "inverted"
    return "pump" if len(os.sched_getaffinity(0)) >= 2 * config.worker_count else "inverted"


def run(config: Config, app, listeners: list[Listener], worker: WorkerContext,
        descriptors: list[tuple[int, str, int]] | None = None, in_thread: bool = False,
        thread_index: int = 0, shared_listeners: bool = False,
        embedded: dict | None = None) -> tuple[int, str, list[int]]:
    """Serves until a stop: the exit status, why it stopped, and the sockets kept for a reload. One loop
    thread of --threads (baton.threads) passes its own `descriptors` and `in_thread`: an asyncio loop of
    its own, the inverted shape, and the signals left to the main thread. A server on a thread of a
    program that owns the process (baton.serving) passes `embedded`, server options of its own: its
    shape is the configured one, and it takes no signals and announces nothing."""
    loop = make_loop(config.loop)
    asyncio.set_event_loop(loop)
    quiet = in_thread or embedded is not None
    announce = None if quiet else binding.shown(listeners, bool(config.ssl_certfile))
    service = AsgiService(config, app, worker, descriptors if descriptors is not None else listener_args(listeners),
                          "inverted" if in_thread else shape_of(config), signals=not quiet, announce=announce,
                          thread_index=thread_index, shared_listeners=shared_listeners,
                          extra_options=embedded)
    try:
        return loop.run_until_complete(service.serve())
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        asyncio.set_event_loop(None)


class InvertedPasses:
    """inverted: the native loop's passes, run by asyncio. Sockets are read
    only when the backend fd says so (once per turn of asyncio's loop): the
    requests of a turn start together, their tasks run, and the posted pass
    sends what they answered together. At most one posted pass is queued
    (only that pass clears `scheduled`), and one timer waits for the
    native loop's next deadline.

    Each request runs these callbacks several times, so they are closures
    over local state, not methods: a cell read instead of an attribute
    lookup, and no bound method made for each call_soon (about 1 000
    instructions a request, the hello's callgrind says)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, stopped: asyncio.Future):
        server = None
        scheduled = False
        # uvloop's call_at hands back a plain Handle (a call_soon) when the
        # due time rounds to under a millisecond from its clock, which can
        # tick between now() and call_at; a Handle has no when(), so the due
        # time asked for is kept beside it.
        timer: asyncio.Handle | None = None
        timer_when = 0.0
        call_soon, call_at, now = loop.call_soon, loop.call_at, loop.time

        def settle(timeout: int) -> None:
            nonlocal timer, timer_when
            if server.stopped:
                if not stopped.done():
                    stopped.set_result(None)
                return
            if timeout == 0:
                schedule()
            elif timeout > 0:
                when = now() + timeout / 1000
                if timer is None or abs(timer_when - when) > 0.0005:
                    if timer is not None:
                        timer.cancel()
                    timer, timer_when = call_at(when, timed_pass), when

        def run_pass() -> None:
            settle(server.run_pass())

        def queued_pass() -> None:
            nonlocal scheduled
            scheduled = False
            settle(server.posted_pass())

        def timed_pass() -> None:
            # Spent: a Handle run early must not stand for a deadline still to come.
            nonlocal timer
            timer = None
            settle(server.posted_pass())

        def schedule() -> None:
            """Called by the server itself once the app's tasks have posted to it."""
            nonlocal scheduled
            if not scheduled:
                scheduled = True
                call_soon(queued_pass)

        def start(native) -> None:
            nonlocal server
            server = native
            loop.add_reader(server.backend_fd, run_pass)
            schedule()

        def stop() -> None:
            loop.remove_reader(server.backend_fd)
            if timer is not None:
                timer.cancel()

        self.schedule = schedule
        self.start = start
        self.stop = stop


class PumpDrains:
    """pump: the native loop runs on its own thread and wakes asyncio through
    one eventfd; each wake takes what it posted (new requests in turns, news
    of requests in flight). At most one more drain is queued."""

    def __init__(self, loop: asyncio.AbstractEventLoop, stopped: asyncio.Future):
        self.loop = loop
        self.stopped = stopped
        self.server = None
        self.queued = False

    def start(self, server) -> None:
        self.server = server
        self.loop.add_reader(server.wake_fd, self.on_wake)

    def stop(self) -> None:
        self.loop.remove_reader(self.server.wake_fd)

    def on_wake(self) -> None:
        if self.server.drain() and not self.queued:  # more new requests than one turn starts
            self.queued = True
            self.loop.call_soon(self.queued_drain)
        if self.server.stopped and not self.stopped.done():
            self.stopped.set_result(None)

    def queued_drain(self) -> None:
        self.queued = False
        self.on_wake()


class Heartbeat:
    """The loop's clock stamped into the master's scoreboard from asyncio's own
    thread: a blocked event loop is what a master must see, not the native
    loop beside it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slot: memoryview | None, app_timeout: float):
        self.loop = loop
        self.stamp = ctypes.c_int64.from_buffer(slot) if slot is not None else None
        self.interval = min(1.0, app_timeout / 4) if app_timeout else 1.0
        self.handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        if self.stamp is None:
            return
        self.stamp.value = int(time.monotonic() * 1000)  # one aligned 8-byte store
        self.handle = self.loop.call_later(self.interval, self.start)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()


class AsgiService:
    """One native server serving an ASGI app on this thread's asyncio loop:
    lifespan around it, its shape's wiring (InvertedPasses or PumpDrains),
    the signals (asyncio catches them and the server acts on them, by the one
    policy every shape has: TERM and INT drain, a second INT or QUIT stops at
    once, the retire signal retires, USR1 reopens the access log; or, with
    --threads, the main thread passes them to every server), and the
    heartbeat."""

    def __init__(self, config: Config, app, worker: WorkerContext, descriptors: list[tuple[int, str, int]],
                 shape: str, signals: bool, announce: str | None, thread_index: int = 0,
                 shared_listeners: bool = False, extra_options: dict | None = None):
        self.config = config
        self.app = app
        self.worker = worker
        self.descriptors = descriptors
        self.shape = shape
        self.signals = signals
        self.announce = announce  # where it serves, for the one line that says so (None: say nothing)
        self.thread_index = thread_index  # its loop's block in the worker's metrics slot
        self.shared_listeners = shared_listeners  # a socket other loops of this process wait on too
        self.extra_options = extra_options or {}  # an embedded server's own (baton.serving)
        self.handled = [signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1,
                        signal.SIGUSR2 if worker.supervised else signal.SIGHUP]

    def close_descriptors(self) -> None:
        for fd, _, _ in self.descriptors:
            os.close(fd)

    async def serve(self) -> tuple[int, str, list[int]]:
        loop = asyncio.get_running_loop()
        state: dict = {}
        lifespan = Lifespan(self.app, self.config.lifespan, state)
        try:
            await lifespan.startup()
        except LifespanFailed as error:
            logger.error("application startup failed: %s", error)
            self.close_descriptors()
            return 3, StopReason.STARTUP_FAILED, []
        stopped = loop.create_future()
        wiring = InvertedPasses(loop, stopped) if self.shape == "inverted" else PumpDrains(loop, stopped)
        options = server_options(self.config, self.worker)
        options["heartbeat"] = None  # stamped by Heartbeat, from asyncio's thread
        if self.worker.metrics:
            options["metrics"] = (*self.worker.metrics, self.thread_index)
        options["shared_listeners"] = self.shared_listeners
        options["loop_index"] = self.thread_index
        options.update(self.extra_options)
        server = _baton.AsgiServer(
            self.app, self.descriptors, loop, logging_setup.log_exception, state if lifespan.supported else None,
            pump=self.shape == "pump", schedule_pass=wiring.schedule if self.shape == "inverted" else None,
            # An A/B switch for the benchmarks: each request's task started
            # eagerly (Python 3.12 and later), or queued as before.
            eager_tasks=switches.flag("EAGER_TASKS", True),
            **options,
        )
        if self.signals:
            for signo in self.handled:
                loop.add_signal_handler(signo, server.deliver_signal, signo)
        heartbeat = Heartbeat(loop, self.worker.heartbeat, self.worker.app_timeout)
        heartbeat.start()
        if self.announce is not None:
            logger.info("baton serving %s on %s (pid %d, ASGI, %s on %s)", self.config.app, self.announce,
                        os.getpid(), self.shape, type(loop).__module__.split(".")[0])
        server.start()
        wiring.start(server)
        try:
            await stopped
        finally:
            wiring.stop()
            if self.signals:
                for signo in self.handled:
                    loop.remove_signal_handler(signo)
            server.join()
        # Tasks of requests the drain cut off are told so before lifespan ends.
        await asyncio.sleep(0)
        await lifespan.shutdown()
        heartbeat.stop()
        reason, kept = StopReason(server.stop_reason), server.take_listeners()
        server.close()
        return 0, reason, kept
