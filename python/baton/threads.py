"""The --threads shape: N event loops in one process, each on a thread of its
own that runs the app itself (a WSGI app on the loop thread, as the inline
shape does; an ASGI app on an asyncio loop of the thread's own, as the
inverted shape does). On a free-threaded CPython they run Python at once:
one process's memory for N cores of Python.

Each thread is a worker in all but process: its own native server, its own
connections, timers and idle trim, its own lifespan (ASGI) and its slot in
the master's scoreboard. Each loop accepts from a socket of its own on
every TCP address (SO_REUSEPORT: the kernel spreads the connections among
them, binding.spread); a Unix socket, or one handed over without
SO_REUSEPORT, they share (the kernel wakes one loop per connection:
EPOLLEXCLUSIVE). They share the app and its module state, and the access
log file. The main thread takes the signals (they stay blocked in the loop
threads) and passes each to every loop, so a drain, a reload or a log
reopen reaches all of them at once; when one loop retires by itself (its
share of --max-requests), the main thread retires the others too, and the
process ends as a whole.

A thread cannot be killed. A loop stuck inside the app stops stamping its
slot; the master (--timeout) then retires the whole process: the other
loops finish their requests while a new worker takes over, and the stuck
loop's connections are lost when the process exits (its own stop budget,
--graceful-timeout, ends it).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import warnings

from baton import _baton, binding, logging_setup
from baton.binding import Listener
from baton.config import Config
from baton.serve import WorkerContext
from baton.stop_reason import StopReason

logger = logging_setup.logger

STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2}
HEARTBEAT_BYTES = 8
# Why a loop stopped by itself, for which the others retire too.
RETIRING = {StopReason.MAX_REQUESTS, StopReason.APP_TIMEOUT}


def gil_reenabled_by(caught: list[warnings.WarningMessage]) -> list[str]:
    """The modules CPython says turned the GIL back on as they were imported."""
    names = []
    for w in caught:
        text = str(w.message)
        if "global interpreter lock" in text.lower() and "to load module" in text:
            names.append(text.split("to load module", 1)[1].split(",", 1)[0].strip(" '"))
    return names


def report_gil(caught: list[warnings.WarningMessage]) -> None:
    """One line when importing the app turned the GIL back on: baton serves on,
    correctly, but its loops then take turns at Python."""
    if not getattr(sys, "_is_gil_enabled", lambda: False)():
        return
    modules = gil_reenabled_by(caught) or ["a module the app imported"]
    logger.warning("the GIL is enabled again: %s did not declare it can run without it; the %s loop threads "
                   "serve on, taking turns at Python (PYTHON_GIL=0 keeps it off, at that module's risk)",
                   ", ".join(modules), "several")


def worker_for_thread(worker: WorkerContext, index: int, threads: int) -> WorkerContext:
    """Thread `index`'s part of the process's: its heartbeat stamp in the
    scoreboard slot, its share of --max-requests, and its QUIC socket's index."""
    heartbeat = None
    if worker.heartbeat is not None and len(worker.heartbeat) >= (index + 1) * HEARTBEAT_BYTES:
        heartbeat = worker.heartbeat[index * HEARTBEAT_BYTES:(index + 1) * HEARTBEAT_BYTES]
    share = -(-worker.max_requests // threads) if worker.max_requests else 0
    return WorkerContext(heartbeat=heartbeat, max_requests=share, app_timeout=worker.app_timeout,
                         supervised=worker.supervised, metrics=worker.metrics, parent_pid=worker.parent_pid,
                         quic_cids=worker.quic_cids[index:index + 1], quic_key=worker.quic_key,
                         quic_reset_secret=worker.quic_reset_secret)


def listeners_for(listeners: list[Listener], index: int) -> list[Listener]:
    """The sockets loop `index` accepts from: its own on each TCP address
    (binding.spread), and those every loop shares."""
    return [listener for listener in listeners if listener.loop in (None, index)]


def descriptors_for(listeners: list[Listener]) -> list[tuple[int, str, int]]:
    """A duplicate of each listening socket for one loop (the loop closes it)."""
    return [(os.dup(listener.fd), listener.server_name, listener.server_port) for listener in listeners]


def distinct(fds: list[int]) -> list[int]:
    """One descriptor for each socket among the loops' kept ones (a shared
    socket comes back from every loop, as a duplicate); the rest closed."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for fd in fds:
        status = os.fstat(fd)
        if (status.st_dev, status.st_ino) in seen:
            os.close(fd)
        else:
            seen.add((status.st_dev, status.st_ino))
            kept.append(fd)
    return kept


class LoopThreads:
    """The N loop threads of one process and the main thread that watches them."""

    def __init__(self, config: Config, app, interface: str, listeners: list[Listener], worker: WorkerContext):
        self.config = config
        self.app = app
        self.interface = interface
        self.listeners = listeners
        self.worker = worker
        self.results: list[tuple[int, str, list[int]] | None] = [None] * config.threads
        self.done = threading.Event()
        self.retire_signal = signal.SIGUSR2 if worker.supervised else signal.SIGHUP
        # Made here, on the main thread, and kept until the process's end:
        # each heartbeat is a view of the one scoreboard slot, and CPython
        # 3.13t counts a buffer's views without atomics, so views taken or
        # dropped by two loop threads at once race (ThreadSanitizer shows it
        # at the loops' exit); here they are taken and dropped by one thread.
        self.contexts = [worker_for_thread(worker, i, config.threads) for i in range(config.threads)]

    def serve_one(self, index: int) -> None:
        worker = self.contexts[index]
        mine = listeners_for(self.listeners, index)
        descriptors = descriptors_for(mine)
        # A socket the loops share wakes one of them at a time (EPOLLEXCLUSIVE).
        shared = any(listener.loop is None for listener in mine)
        try:
            if self.interface == "asgi":
                from baton import asgi

                self.results[index] = asgi.run(self.config, self.app, self.listeners, worker,
                                               descriptors=descriptors, in_thread=True, thread_index=index,
                                               shared_listeners=shared)
            else:
                from baton import serve

                reason, kept = serve.run_wsgi(self.config, self.app, self.listeners, worker, descriptors=descriptors,
                                              own_signals=False, shared_listeners=shared, loop_index=index,
                                              metrics=(*worker.metrics, index) if worker.metrics else None)
                self.results[index] = (0, reason, kept)
        except BaseException as error:  # noqa: BLE001 - a loop that fails stops the others, and says why
            logging_setup.log_exception(f"loop thread {index} failed", error)
            self.results[index] = (1, StopReason.FAILED, [])
        finally:
            self.done.set()

    def run(self) -> tuple[int, str, list[int]]:
        # The loops never take a signal: they are blocked in every thread
        # this one starts, and waited for here.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        logger.info("baton serving %s on %s (pid %d, %s, %d loop threads, each running the app)", self.config.app,
                    binding.shown(self.listeners, bool(self.config.ssl_certfile)), os.getpid(),
                    "ASGI" if self.interface == "asgi" else "WSGI", self.config.threads)
        threads = [threading.Thread(target=self.serve_one, args=(i,), name=f"baton-loop-{i}", daemon=True)
                   for i in range(self.config.threads)]
        for thread in threads:
            thread.start()
        retired_all = False
        while any(thread.is_alive() for thread in threads):
            got = signal.sigtimedwait(STOP_SIGNALS, 0.2)
            if got is not None:
                _baton.deliver_signal(got.si_signo)
            if not retired_all and self.one_retired():
                retired_all = True
                _baton.deliver_signal(self.retire_signal)
        for thread in threads:
            thread.join()
        binding.close_listeners(self.listeners)
        return self.combined()

    def one_retired(self) -> bool:
        """A loop stopped by itself (its share of --max-requests, a failure, a
        lifespan that failed): the others follow."""
        return any(r is not None and (r[1] in RETIRING or r[0] != 0) for r in self.results)

    def combined(self) -> tuple[int, str, list[int]]:
        """The process's outcome: the first failure, or the first loop's reason,
        and every socket kept for a reload, once (the duplicates closed)."""
        results = [r for r in self.results if r is not None]
        status = next((r[0] for r in results if r[0] != 0), 0)
        reason = next((r[1] for r in results if r[0] != 0 or r[1] in RETIRING), results[0][1] if results else StopReason.NONE)
        return status, reason, distinct([fd for r in results for fd in r[2]])


def run(config: Config, app, interface: str, listeners: list[Listener], worker: WorkerContext,
        caught: list[warnings.WarningMessage]) -> tuple[int, str, list[int]]:
    report_gil(caught)
    return LoopThreads(config, app, interface, listeners, worker).run()
