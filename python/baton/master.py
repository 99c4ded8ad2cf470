"""The master: binds the sockets once, forks workers that serve them in the
chosen shape, and keeps them going.

It never imports the application, so every worker it forks imports fresh
code (unless baton.run() was given the app object itself: the workers
inherit that object at their fork, a reload included). Signals, as gunicorn's master takes them:

  TERM      graceful stop: every worker drains (within --graceful-timeout), then exit 0
  INT, QUIT quick stop: workers close their connections now
  HUP       reload: new workers start; once every one of them is serving, the
            old ones drain. The sockets stay open throughout, so no
            connection is refused. If the new code fails to load, the old
            workers keep serving.
  TTIN/TTOU one worker more / fewer
  USR1      workers reopen the access log
  CHLD      a worker died: logged with its cause and replaced at once

Each worker has a slot of a shared scoreboard whose first 8 bytes it stamps
with its loop's clock (CLOCK_MONOTONIC, ms): the WSGI core's loop, or
asyncio's for ASGI. A stamp older than --timeout means the loop stopped
making progress (an app hung on the loop thread, a blocked event loop): the
master kills that worker and starts another. A pool worker watches its own
requests and answers 504 to one that overran --timeout, then retires.
"""

from __future__ import annotations

import ctypes
import dataclasses
import errno
import mmap
import os
import random
import select
import signal
import sys
import time
import traceback

from baton import binding, datagrams, hooks, loading, logging_setup, metrics, process, reload_watch
from baton.config import Config
from baton.stop_reason import StopReason

logger = logging_setup.logger

SLOT_BYTES = 64  # a worker's slot in the scoreboard: one 8-byte stamp per loop thread (more with --threads)
MAX_SLOTS = 4096
EXIT_APP_LOAD_FAILED = 3  # the worker could not import the app
STALL_MS = 750             # a master look later than this after the previous one: everyone stalled
EXIT_RETIRED = 4          # the worker retired by itself (--max-requests)
EXIT_APP_TIMEOUT = 5      # the worker retired by itself: a request was inside the app past --timeout
RSS_CHECK_INTERVAL = 1.0  # seconds between reads of the workers' resident memory
RESPAWN_BACKOFF = 1.0     # seconds between attempts when new workers keep failing to load the app
HANDLED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTTIN,
                   signal.SIGTTOU, signal.SIGUSR1, signal.SIGCHLD)


@dataclasses.dataclass
class Worker:
    pid: int
    slot: int
    generation: int
    position: int  # its place among its generation's workers, 0 .. target-1
    shares: tuple[int, ...]  # the workers' parts of the listening sockets it accepts from (binding.share)
    started: float
    booted: bool = False
    retiring: bool = False
    killed: bool = False
    stuck_since: float = 0.0  # when a loop thread of it was found stuck (--threads: retired first)
    over_memory: bool = False  # recycled for --max-worker-rss (retired once its replacement serves)
    view: hooks.Worker | None = None  # what server hooks are given for it


class Master:
    def __init__(self, config: Config):
        self.config = config
        self.listeners: list[binding.Listener] = []
        self.datagrams: datagrams.DatagramPlaces | None = None  # QUIC's UDP sockets, with --http3
        self.workers: dict[int, Worker] = {}
        self.target = config.worker_count
        self.generation = 0
        self.threads = config.threads
        self.slot_bytes = max(SLOT_BYTES, 8 * self.threads)
        self.scoreboard = mmap.mmap(-1, self.slot_bytes * MAX_SLOTS)
        self.free_slots = list(range(MAX_SLOTS - 1, -1, -1))
        self.pending: list[int] = []
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.stopping: str | None = None  # "graceful" or "quick"
        self.stop_deadline = 0.0
        self.reload_from: int | None = None  # the generation a reload replaces
        self.ever_booted = False
        self.failed_boot: Worker | None = None  # the last worker that could not load the app
        self.next_spawn = 0.0
        self.last_progress_check = 0.0  # ms; the master's clock at its previous look at the stamps
        self.resumed_at = 0.0  # ms; when the master last woke from a stall of the whole machine
        self.watcher = None
        self.metrics = None  # the metrics region, with --metrics-bind (baton.metrics)
        self.used_slots: set[int] = set()  # scoreboard slots a worker has had (a new one there is a restart)
        self.next_rss_check = 0.0
        self.hook_server = hooks.Server(config, self)  # what server hooks are given for the master
        self.spawned = 0  # workers started so far: the next one's age, for hooks

    # --- the loop ---------------------------------------------------------------

    def run(self) -> int:
        hooks.call("nworkers_changed", self.hook_server, self.target, None)
        hooks.call("on_starting", self.hook_server)
        try:
            self.listeners = binding.spread(binding.open_listeners(self.config), self.config)
            self.datagrams = datagrams.open_places(self.listeners, self.config)
            self.metrics = metrics.start(self.config, MAX_SLOTS)
        except binding.BindError as error:
            binding.close_listeners(self.listeners)
            if self.datagrams is not None:
                self.datagrams.close()
            return process.fail(str(error))
        process.write_pid(self.config)
        for signo in HANDLED_SIGNALS:
            signal.signal(signo, self.on_signal)
        signal.set_wakeup_fd(self.wake_write, warn_on_full_buffer=False)
        logger.info("baton master (pid %d) on %s: %d worker%s of %s", os.getpid(),
                    binding.shown(self.listeners, bool(self.config.ssl_certfile)), self.target,
                    "s" if self.target != 1 else "", self.config.app or "the native hello")
        if self.metrics is not None:
            logger.info("metrics at %s", metrics.shown(self.config))
        if self.config.reload:
            self.watcher = reload_watch.start(self.config, self.request_reload)
        hooks.call("when_ready", self.hook_server)
        status = 0
        try:
            status = self.loop()
        finally:
            if self.watcher is not None:
                self.watcher.stop()
            signal.set_wakeup_fd(-1)
            binding.close_listeners(self.listeners)
            if self.datagrams is not None:
                self.datagrams.close()
            process.remove_pid(self.config)
        hooks.call("on_exit", self.hook_server)
        logger.info("baton stopped")
        return status

    def loop(self) -> int:
        while True:
            self.handle_signals()
            self.reap()
            if self.stopping:
                if not self.workers:
                    return 0
                if time.monotonic() >= self.stop_deadline:
                    for worker in self.workers.values():
                        if not worker.killed:
                            logger.warning("worker %d did not stop in time; killing it", worker.pid)
                            self.kill(worker, signal.SIGKILL)
            else:
                failed = self.check_boot_failures()
                if failed is not None:
                    return failed
                self.maintain()
                self.advance_reload()
                self.check_progress()
                self.check_memory()
                if self.datagrams is not None:
                    self.datagrams.settle([w.pid for w in self.current()])
            self.wait(0.25)

    def wait(self, timeout: float) -> None:
        try:
            select.select([self.wake_read], [], [], timeout)
        except InterruptedError:
            pass
        try:
            while os.read(self.wake_read, 512):
                pass
        except BlockingIOError:
            pass

    def on_signal(self, signo, frame) -> None:  # noqa: ARG002 - signal's handler signature
        self.pending.append(signo)

    def request_reload(self) -> None:
        """From the file watcher's thread: reload as SIGHUP does."""
        self.pending.append(signal.SIGHUP)
        try:
            os.write(self.wake_write, b"r")
        except OSError:
            pass

    def handle_signals(self) -> None:
        while self.pending:
            signo = self.pending.pop(0)
            if signo == signal.SIGCHLD:
                continue  # reap() runs after this
            if signo == signal.SIGTERM:
                self.stop("graceful")
            elif signo in (signal.SIGINT, signal.SIGQUIT):
                self.stop("quick")
            elif self.stopping:
                continue
            elif signo == signal.SIGHUP:
                self.reload()
            elif signo == signal.SIGTTIN:
                self.target += 1
                logger.info("SIGTTIN: %d workers", self.target)
                hooks.call("nworkers_changed", self.hook_server, self.target, self.target - 1)
            elif signo == signal.SIGTTOU:
                if self.target > 1:
                    self.target -= 1
                    logger.info("SIGTTOU: %d workers", self.target)
                    hooks.call("nworkers_changed", self.hook_server, self.target, self.target + 1)
                    if self.target < self.config.worker_count and binding.spreading(self.config):
                        # Fewer workers than parts of the sockets: a new
                        # generation divides every part among them.
                        self.reload("SIGTTOU")
                    self.retire_extra()
            elif signo == signal.SIGUSR1:
                logger.info("SIGUSR1: reopening log files")
                for worker in self.workers.values():
                    self.kill(worker, signal.SIGUSR1)

    # --- workers ------------------------------------------------------------------

    def current(self) -> list[Worker]:
        """The workers that count toward the target: this generation's, not retiring, and not over
        --max-worker-rss (a replacement for each of those is started)."""
        return [w for w in self.workers.values()
                if w.generation == self.generation and not w.retiring and not w.over_memory]

    def maintain(self) -> None:
        """Starts workers of the current generation until there are enough."""
        now = time.monotonic()
        while len(self.current()) < self.target and now >= self.next_spawn:
            self.spawn()

    def free_position(self) -> int:
        """The lowest place among this generation's workers that none holds."""
        taken = {w.position for w in self.current()}
        return next(i for i in range(len(taken) + 1) if i not in taken)

    def shares_for(self, position: int) -> tuple[int, ...]:
        """The parts of the listening sockets (one for each worker the sockets
        were spread for, binding.spread) the worker at `position` accepts
        from: its own; with fewer workers than parts (SIGTTOU) every part has
        one, and with more (SIGTTIN) two workers take turns at one."""
        parts = self.config.worker_count
        if self.target >= parts:
            return (position % parts,)
        return tuple(part for part in range(parts) if part % self.target == position)

    def spawn(self) -> None:
        position = self.free_position()
        shares = self.shares_for(position)
        slot = self.free_slots.pop()
        for stamp in self.stamps(slot):
            stamp.value = 0
        jitter = random.randint(0, self.config.max_requests_jitter) if self.config.max_requests_jitter else 0
        max_requests = self.config.max_requests + jitter if self.config.max_requests else 0
        loops = [part * self.threads + thread for part in shares for thread in range(self.threads)]
        chosen = self.datagrams.choose(loops) if self.datagrams is not None else {}
        self.spawned += 1
        view = hooks.Worker(self.hook_server, self.spawned)
        hooks.call("pre_fork", self.hook_server, view)
        sys.stdout.flush()
        sys.stderr.flush()
        master = os.getpid()
        # Forked on the master's main thread only (maintain(), from loop()):
        # the kernel's death signal follows the thread that forked.
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                if not die_with_parent(master, signal.SIGUSR2):
                    os._exit(0)  # the master died between the fork and now: nothing to serve for
                view.pid = os.getpid()
                status = self.worker_main(slot, loops, chosen, max_requests, master, view)
            except BaseException:  # noqa: BLE001 - whatever happens, the child must not return into the master
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        view.pid = pid
        if self.datagrams is not None:
            self.datagrams.hold(pid, chosen)
        self.hook_server.WORKERS[pid] = view
        self.workers[pid] = Worker(pid, slot, self.generation, position, shares, time.monotonic(), view=view)
        if self.metrics is not None:
            self.metrics.started(slot, pid, slot in self.used_slots)
        self.used_slots.add(slot)
        logger.info("started worker %d", pid)

    def worker_main(self, slot: int, loops: list[int], chosen: dict[int, int], max_requests: int, master: int,
                    view: hooks.Worker) -> int:
        for signo in HANDLED_SIGNALS:
            signal.signal(signo, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the master's; a closed terminal must not kill workers
        signal.set_wakeup_fd(-1)
        os.close(self.wake_read)
        os.close(self.wake_write)
        if self.watcher is not None:
            self.watcher = None  # its thread is not in this process
        metrics.close_in_worker()
        random.seed()
        if self.config.log_config:
            logging_setup.route_core_logs()
        hooks.call("post_fork", self.hook_server, view)
        try:
            return self.serve_as_worker(slot, loops, chosen, max_requests, master, view)
        finally:
            view.alive = False
            hooks.call("worker_exit", self.hook_server, view)

    def serve_as_worker(self, slot: int, loops: list[int], chosen: dict[int, int], max_requests: int, master: int,
                        view: hooks.Worker) -> int:
        try:
            app, interface = process.load_app(self.config)
        except loading.AppLoadError as error:
            process.fail(str(error), error.detail)
            return EXIT_APP_LOAD_FAILED
        view.wsgi, view.booted = app, True
        hooks.call("post_worker_init", view)
        from baton.serve import WorkerContext

        listeners = binding.share(self.listeners, loops, self.threads)
        quic: dict = {}
        if self.datagrams is not None:
            part = self.datagrams.share(chosen, loops, self.threads)
            listeners += part.listeners
            quic = {"quic_cids": tuple(part.indexes[thread] for thread in range(self.threads)),
                    "quic_key": part.key, "quic_reset_secret": part.reset_secret}
        worker = WorkerContext(
            heartbeat=memoryview(self.scoreboard)[slot * self.slot_bytes:slot * self.slot_bytes + 8 * self.threads],
            max_requests=max_requests, app_timeout=self.config.timeout, supervised=True,
            metrics=(self.metrics, slot) if self.metrics is not None else None, parent_pid=master, **quic)
        status, reason, _ = process.serve_in_process(self.config, app, interface, listeners, worker)
        if reason is StopReason.APP_TIMEOUT:
            view.aborted = True
            hooks.call("worker_abort", view)
            return EXIT_APP_TIMEOUT
        if reason in (StopReason.MAX_REQUESTS, StopReason.HANGUP):
            return EXIT_RETIRED
        return status

    def stamp(self, slot: int, thread: int = 0) -> ctypes.c_int64:
        return ctypes.c_int64.from_buffer(self.scoreboard, slot * self.slot_bytes + 8 * thread)

    def stamps(self, slot: int) -> list[ctypes.c_int64]:
        return [self.stamp(slot, thread) for thread in range(self.threads)]

    def kill(self, worker: Worker, signo: int) -> None:
        if signo == signal.SIGKILL:
            worker.killed = True
        try:
            os.kill(worker.pid, signo)
        except ProcessLookupError:
            pass

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker = self.workers.pop(pid, None)
            if worker is None:
                continue
            self.free_slots.append(worker.slot)
            if self.datagrams is not None:
                self.datagrams.release(pid)
            self.log_exit(worker, status)
            if worker.view is not None:
                worker.view.alive = False
                self.hook_server.WORKERS.pop(pid, None)
                hooks.call("child_exit", self.hook_server, worker.view)
            if self.metrics is not None:
                self.metrics.retired(worker.slot, self.respawn_cause(worker, status))
            if (not self.stopping and os.WIFEXITED(status) and os.WEXITSTATUS(status) == EXIT_APP_LOAD_FAILED
                    and not worker.booted):
                self.next_spawn = time.monotonic() + RESPAWN_BACKOFF
                self.failed_boot = worker

    def respawn_cause(self, worker: Worker, status: int) -> str | None:
        """Why a worker that ended is replaced (for the metrics), or None when it
        ended because it was asked to (a stop, a reload) and is not."""
        if worker.over_memory:
            return "memory"
        if worker.killed or worker.stuck_since:
            return None if self.stopping and not worker.stuck_since else "timeout"
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == EXIT_APP_TIMEOUT:
            return "timeout"
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == EXIT_RETIRED and not worker.retiring:
            return "max_requests"
        if self.stopping or worker.retiring:
            return None
        return "crash"

    def log_exit(self, worker: Worker, status: int) -> None:
        if os.WIFSIGNALED(status):
            name = signal.Signals(os.WTERMSIG(status)).name
            # A worker told to retire may die of the signal itself, before its
            # handler is in place (it was still starting): that is no loss.
            gone_as_asked = self.stopping or worker.retiring
            level = logger.info if (worker.killed and self.stopping) or worker.retiring else logger.warning
            level("worker %d was killed by %s%s", worker.pid, name, "" if gone_as_asked else "; starting another")
            return
        code = os.WEXITSTATUS(status)
        if self.stopping or worker.retiring:
            logger.info("worker %d exited", worker.pid)
        elif code == EXIT_RETIRED:
            logger.info("worker %d retired; starting another", worker.pid)
        elif code == EXIT_APP_LOAD_FAILED:
            logger.error("worker %d could not load the application", worker.pid)
        else:
            logger.warning("worker %d exited with status %d; starting another", worker.pid, code)

    def check_boot_failures(self) -> int | None:
        """A worker that could not import the app: at start, the master gives up
        (exit 1, the worker printed why); in a reload, the old workers stay."""
        worker, self.failed_boot = self.failed_boot, None
        if worker is None:
            return None
        if not self.ever_booted:
            logger.error("the application failed to load; stopping")
            self.stop("quick")
            while self.workers:
                self.reap()
                self.wait(0.1)
            return 1
        if self.reload_from is not None:
            logger.error("reload failed: the new code does not load; the running workers stay")
            for w in self.current():
                self.kill(w, signal.SIGTERM)
                w.retiring = True
            self.generation = self.reload_from
            self.reload_from = None
        return None

    def retire_extra(self) -> None:
        # The last places go: those left, 0 .. target-1, have every part of the sockets.
        workers = sorted(self.current(), key=lambda w: w.position, reverse=True)
        for worker in workers[:max(0, len(workers) - self.target)]:
            worker.retiring = True
            self.kill(worker, signal.SIGUSR2)

    # --- reload, progress, stop ------------------------------------------------------

    def reload(self, why: str = "SIGHUP") -> None:
        if self.reload_from is not None:
            return  # one at a time; the one under way imports the newest code anyway
        logger.info("%s: starting %d new worker%s, then retiring the old", why, self.target,
                    "s" if self.target != 1 else "")
        if why == "SIGHUP":
            hooks.call("on_reload", self.hook_server)
        self.reload_from = self.generation
        self.generation += 1
        self.next_spawn = 0.0

    def advance_reload(self) -> None:
        """Once every new worker serves, the old generation drains."""
        for worker in self.workers.values():
            if not worker.booted and self.stamp(worker.slot).value != 0:
                worker.booted = True
                self.ever_booted = True
        if self.reload_from is None:
            return
        new = self.current()
        if len(new) < self.target or not all(w.booted for w in new):
            return
        for worker in self.workers.values():
            if worker.generation != self.generation and not worker.retiring:
                worker.retiring = True
                self.kill(worker, signal.SIGUSR2)
        logger.info("reload: new workers serving; old ones draining")
        self.reload_from = None

    def check_progress(self) -> None:
        if not self.config.timeout:
            return
        now_ms = time.monotonic() * 1000
        if now_ms - self.last_progress_check > STALL_MS:
            # The master itself did not run for a while: the whole machine
            # stalled (a paused VM, a suspended host) and every stamp aged
            # with it. Ages count from the master's waking, not from before.
            self.resumed_at = now_ms
        self.last_progress_check = now_ms
        for worker in list(self.workers.values()):
            if not worker.booted or worker.killed:
                continue
            beats = [stamp.value for stamp in self.stamps(worker.slot) if stamp.value]
            beat = min(beats) if beats else 0
            if not beat or now_ms - max(beat, self.resumed_at) <= self.config.timeout * 1000:
                continue
            if self.threads > 1 and not worker.stuck_since:
                # A loop thread cannot be killed: the worker retires instead.
                # Its other loops finish their requests while a new worker
                # takes over; the stuck one's connection is lost when the
                # process exits, at the end of its stop budget.
                logger.error("a loop thread of worker %d made no progress for %.1f s (--timeout %g); retiring the "
                             "worker", worker.pid, (now_ms - beat) / 1000, self.config.timeout)
                worker.stuck_since = time.monotonic()
                worker.retiring = True
                self.kill(worker, signal.SIGUSR2)
            elif self.threads == 1 or time.monotonic() - worker.stuck_since > self.config.graceful_timeout + 2:
                logger.error("worker %d made no progress for %.1f s (--timeout %g); killing it", worker.pid,
                             (now_ms - beat) / 1000, self.config.timeout)
                self.kill(worker, signal.SIGKILL)

    def check_memory(self) -> None:
        """Every second, with --max-worker-rss: each worker's resident memory.
        A worker over it is replaced as a reload replaces
        one: a new worker first, and the old one retired (it finishes its
        requests) once the new one serves."""
        now = time.monotonic()
        if now < self.next_rss_check or not self.config.max_worker_rss:
            return
        self.next_rss_check = now + RSS_CHECK_INTERVAL
        limit = self.config.max_worker_rss * 1024 * 1024
        for worker in list(self.workers.values()):
            rss = metrics.resident_bytes(worker.pid)
            if limit and rss > limit and worker.booted and not worker.retiring and not worker.over_memory:
                logger.warning("worker %d uses %d MiB, over --max-worker-rss %d: replacing it", worker.pid,
                               rss >> 20, self.config.max_worker_rss)
                worker.over_memory = True
        waiting = [w for w in self.workers.values() if w.over_memory and not w.retiring]
        if waiting:
            self.next_spawn = 0.0
            booted = [w for w in self.current() if w.booted]
            for worker in waiting:
                if len(booted) >= self.target:
                    worker.retiring = True
                    self.kill(worker, signal.SIGUSR2)

    def stop(self, how: str) -> None:
        if self.stopping == "quick" or self.stopping == how:
            return
        self.stopping = how
        if how == "graceful":
            logger.info("SIGTERM: workers finish their requests (at most %g s)", self.config.graceful_timeout)
            self.stop_deadline = time.monotonic() + self.config.graceful_timeout + 2
            signo = signal.SIGTERM
        else:
            logger.info("stopping now")
            self.stop_deadline = time.monotonic() + 2
            signo = signal.SIGQUIT
        for worker in self.workers.values():
            self.kill(worker, signo)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_libc = ctypes.CDLL(None, use_errno=True)  # loaded here: a child just forked should load nothing
_libc.prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
_libc.prctl.restype = ctypes.c_int


def die_with_parent(parent: int, signo: int) -> bool:
    """In a worker just forked: asks the kernel to send `signo` when `parent`
    dies (a worker must not outlive its master: it would hold the port and
    serve old code forever). False when the parent is already gone (it died
    between the fork and the call, which the kernel would not report): the
    child should exit. Each loop's heartbeat compares getppid() with the
    master's pid too, for what this cannot catch (a handler the app
    installed for the signal, or the signal ignored by whoever started the
    master)."""
    if _libc.prctl(PR_SET_PDEATHSIG, int(signo), 0, 0, 0) != 0:
        logger.warning("prctl(PR_SET_PDEATHSIG): %s", os.strerror(ctypes.get_errno()))
    return os.getppid() == parent


def run(config: Config) -> int:
    try:
        return Master(config).run()
    except OSError as error:
        if error.errno == errno.EAGAIN:
            return process.fail(f"cannot start a worker: {error.strerror}")
        raise
