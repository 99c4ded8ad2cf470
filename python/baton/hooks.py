"""gunicorn's server hooks, as a configuration file defines them (-c), called
at the moments of baton's that match gunicorn's, with the arguments gunicorn
passes: stand-ins for its arbiter (`server`) and its workers (`worker`)
that carry what hooks commonly use.

With a master (--workers, --reload, --max-requests, --timeout):

  nworkers_changed(server, new, old)  the worker count, set at start (old None) and by TTIN/TTOU
  on_starting(server)                 the master starts, before it binds
  when_ready(server)                  the sockets are bound, before the first worker is forked
  pre_fork(server, worker)            in the master, just before each fork
  post_fork(server, worker)           in the new worker, just after the fork
  post_worker_init(worker)            in the worker, once it has loaded the app
  worker_abort(worker)                in a worker retiring because a request overran --timeout
  worker_exit(server, worker)         in the worker, as it ends
  child_exit(server, worker)          in the master, once it has reaped a worker
  on_reload(server)                   SIGHUP (and --reload's changes), before the new workers start
  on_exit(server)                     the master, as it ends

Serving in one process (no master), the process is its own one worker:
nworkers_changed(server, 1, None), on_starting, post_fork, the app loaded,
post_worker_init, the sockets bound, when_ready, serving, worker_exit,
on_exit. A SIGHUP there re-executes the process once its requests are
done: on_reload and pre_exec come just before (and the new program starts
the list again). A master never re-executes itself, so pre_exec is for
that case only.

Not called, baton having no such moment: worker_int (the core takes a
worker's signals), pre_request and post_request (no Python runs around a
request but the app), ssl_context (the core makes its own TLS context).

A hook that raises is logged with its traceback, and baton carries on.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from baton import logging_setup
from baton.config import OPTION_NAMES, Config
from baton.gunicorn_settings import MAPPED

logger = logging_setup.logger

_installed: dict[str, Callable] = {}


def install(hooks: dict[str, Callable]) -> None:
    """The hooks of this process from here on (a worker inherits them at its fork)."""
    _installed.clear()
    _installed.update(hooks)


def call(name: str, *args: Any) -> None:
    hook = _installed.get(name)
    if hook is None:
        return
    try:
        hook(*args)
    except Exception:  # noqa: BLE001 - the user's hook must not take the server down
        logger.exception("the %s hook raised", name)


class Settings:
    """server.cfg: baton's options under gunicorn's names (cfg.workers,
    cfg.bind, cfg.keepalive, cfg.threads as gunicorn means it) and baton's own."""

    def __init__(self, config: Config):
        self._config = config

    def __getattr__(self, name: str) -> Any:
        config = self.__dict__["_config"]
        if name == "bind":
            return list(config.bind) or [f"{config.host}:{config.port}"]
        if name == "threads":
            return config.blocking_threads
        if name == "accesslog":
            return config.access_logfile if config.access_log else None
        if name in ("worker_class", "proc_name"):
            return "baton"
        option = MAPPED.get(name, name)
        if option in OPTION_NAMES or option == "app":
            return getattr(config, option)
        raise AttributeError(f"server.cfg has no setting {name!r}")


class Server:
    """What hooks get as gunicorn's arbiter: cfg, log, pid (the master's, or
    the one process's), num_workers, WORKERS (pid: worker, in the master)."""

    def __init__(self, config: Config, master: Any = None):
        self.cfg = Settings(config)
        self.log = logger
        self.pid = os.getpid()
        self.WORKERS: dict[int, Worker] = {}
        self._master = master

    @property
    def num_workers(self) -> int:
        return self._master.target if self._master is not None else 1


class Worker:
    """What hooks get as gunicorn's worker: pid ("[booting]" until it is
    forked, as gunicorn's says), ppid, age (its place in the order workers
    were started, from 1), cfg, log, booted and alive, and wsgi (the app,
    once loaded)."""

    def __init__(self, server: Server, age: int, pid: int | str = "[booting]"):
        self.pid = pid
        self.ppid = server.pid
        self.age = age
        self.cfg = server.cfg
        self.log = logger
        self.booted = False
        self.alive = True
        self.aborted = False
        self.wsgi = None

    def __repr__(self) -> str:
        return f"<Worker {self.pid}>"
