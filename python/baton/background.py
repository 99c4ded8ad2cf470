"""baton.serving(): an app served on a thread of this process, for tests.

    with baton.serving(app) as url:
        assert httpx.get(url + "/").status_code == 200

It binds a free loopback port (port=0 on 127.0.0.1 unless told otherwise),
serves the app (an object, or "module:attribute") on a thread of its own in
the shape the options choose (WSGI inline or pool, ASGI pump or inverted),
and yields the base URL once the server serves. Leaving the block stops
that server, and only that one, gracefully: requests in flight finish
(within graceful_timeout), then the thread is joined.

The native server runs on any thread; what it cannot have here is the
process: the signals stay the test's (a server asked not to take them, and
stopped through a _baton.StopHandle instead), and a stop that overruns
its budget does not end the process (the command's server would) but is
made immediate, then reported. For the same reason the options that need
a master process (workers, reload, max_requests, max_worker_rss, timeout)
or change the whole process (chdir, app_dir, env_file, pid, metrics_bind,
threads) are refused with a ValueError. BATON_* environment variables are
not read: a test gets the same server wherever it runs.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Iterator

from baton import binding, loading
from baton.config import Config, ConfigError, assemble, check, keyword_layer

STARTUP_TIMEOUT = 30.0  # seconds for the app's lifespan startup (ASGI) and the server to begin
STOP_MARGIN = 5.0  # seconds past graceful_timeout before the stop is made immediate
NEEDS_A_MASTER = ("workers", "reload", "max_requests", "max_worker_rss", "timeout")
WHOLE_PROCESS = ("chdir", "app_dir", "env_file", "pid", "metrics_bind")


def options_for(app: Any, options: dict[str, Any]) -> Config:
    options = {"port": 0, **options}
    spec = app if isinstance(app, str) else loading.named(app)
    config, _ = assemble(spec, [keyword_layer(options, "baton.serving")])
    check(config)
    refused = [name for name in NEEDS_A_MASTER if getattr(config, name)]
    if refused:
        raise ConfigError(f"{', '.join(refused)}: baton.serving() serves on a thread of this process, and "
                          f"{'this needs' if len(refused) == 1 else 'these need'} a master process "
                          "(baton.run() in a subprocess has one)")
    refused = [name for name in WHOLE_PROCESS if getattr(config, name)]
    if config.threads > 1:
        refused.append("threads")
    if refused:
        raise ConfigError(f"{', '.join(refused)}: baton.serving() leaves the process as it found it; "
                          "set this up in the test itself")
    return config


def base_url(listeners: list[binding.Listener], secure: bool) -> str:
    """The first socket's address as a URL: https:// with TLS; unix:PATH for a Unix socket."""
    where = listeners[0].where
    return "https://" + where[len("http://"):] if secure and where.startswith("http://") else where


class BackgroundServer:
    """One server on a thread of its own, stopped by its StopHandle."""

    def __init__(self, config: Config, app, interface: str, listeners: list[binding.Listener]):
        from baton import _baton

        self.config = config
        self.app = app
        self.interface = interface
        self.listeners = listeners
        self.handle = _baton.StopHandle()
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self.serve, name="baton-serving", daemon=True)

    def embedded_options(self) -> dict[str, Any]:
        # No SIGHUP reload, no retire signal, no watchdog that would end the
        # process: the test process outlives its server.
        return {"catch_hangup": False, "retire_signal": 0, "stop_watchdog": False, "stop_handle": self.handle}

    def serve(self) -> None:
        from baton.serve import WorkerContext

        try:
            if self.interface == "asgi":
                from baton import asgi

                status, reason, _ = asgi.run(self.config, self.app, self.listeners, WorkerContext(),
                                             embedded=self.embedded_options())
                if status != 0:
                    self.failure = RuntimeError(f"baton.serving(): the app did not start ({reason}; the log says why)")
            else:
                from baton import serve

                serve.run_wsgi(self.config, self.app, self.listeners, WorkerContext(), own_signals=False,
                               **self.embedded_options())
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread, which raises it
            self.failure = error

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        # Waits on the handle in short turns, to notice a thread that ended
        # without ever serving (a lifespan startup that failed).
        while not self.handle.wait_serving(0.05):
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise self.failure or RuntimeError(f"baton.serving(): the server did not start in "
                                                   f"{STARTUP_TIMEOUT:g} s")

    def stop(self) -> None:
        self.handle.stop()
        self.thread.join(self.config.graceful_timeout + STOP_MARGIN)
        if self.thread.is_alive():
            self.handle.stop(immediate=True)
            self.thread.join(STOP_MARGIN)
        for listener in self.listeners:
            binding.remove_socket_file(listener)
        if self.thread.is_alive():
            raise RuntimeError(f"baton.serving(): the server did not stop within {self.config.graceful_timeout:g} "
                               f"+ {2 * STOP_MARGIN:g} s (a request stuck in the app?)")


@contextlib.contextmanager
def serving(app: Any, **options: Any) -> Iterator[str]:
    config = options_for(app, options)
    if isinstance(app, str):
        loaded, interface = loading.load(app, config.factory, config.interface)
    else:
        loaded, interface = loading.prepare(app, config.app, config.factory, config.interface)
    listeners = binding.open_listeners(config, environ={})
    server = BackgroundServer(config, loaded, interface, listeners)
    server.start()
    try:
        yield base_url(listeners, bool(config.ssl_certfile))
    finally:
        server.stop()
    if server.failure is not None:
        raise server.failure
