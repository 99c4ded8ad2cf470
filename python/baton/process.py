"""What a serving process does, whoever started it (the command serving
alone, or a master's worker): load the app, keep the pid file, serve in this
process in the chosen shape, and report a failure in one line."""

from __future__ import annotations

import os
import signal
import sys
import warnings

from baton import binding, loading, logging_setup
from baton.config import Config

STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2}


def fail(message: str, detail: str = "") -> int:
    if detail:
        print(detail.rstrip(), file=sys.stderr)
    print(f"baton: error: {message}", file=sys.stderr)
    return 1


# The warnings importing the app raised (with --threads: one of them may
# say that a module turned the GIL back on; baton.threads reports it).
import_warnings: list[warnings.WarningMessage] = []


# baton.run() given the app object itself: taken instead of importing
# config.app. A worker the master forks inherits it (the object was loaded
# before the fork, as gunicorn's preload_app does).
given_app: object | None = None


def load_app(config: Config):
    """(app, interface), or raises AppLoadError."""
    if config.native_hello:
        return None, "wsgi"
    if given_app is not None:
        return loading.prepare(given_app, config.app or "the app", config.factory, config.interface)
    if config.threads == 1:
        return loading.load(config.app, config.factory, config.interface)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        loaded = loading.load(config.app, config.factory, config.interface)
    import_warnings[:] = caught
    from baton.threads import gil_reenabled_by

    for w in caught:  # shown as they would have been, but for the GIL's (baton.threads says it in one line)
        if not gil_reenabled_by([w]):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
    return loaded


def write_pid(config: Config) -> None:
    if config.pid:
        with open(config.pid, "w", encoding="ascii") as f:
            f.write(f"{os.getpid()}\n")


def remove_pid(config: Config) -> None:
    if config.pid:
        try:
            with open(config.pid, encoding="ascii") as f:
                mine = f.read().strip() == str(os.getpid())
            if mine:
                os.unlink(config.pid)
        except OSError:
            pass


def serve_in_process(config: Config, app, interface: str, listeners, worker) -> tuple[int, str, list[int]]:
    """Runs the chosen shape here until it stops: (exit status, why, sockets kept for a reload)."""
    from baton import serve  # imports the extension; kept out of --help's path

    if config.threads > 1:
        from baton import threads

        return threads.run(config, app, interface, listeners, worker, import_warnings)
    if interface == "asgi":
        from baton import asgi

        return asgi.run(config, app, listeners, worker)
    # A stop signal that arrives before the core has its handlers waits
    # (blocked) instead of killing the process; the core unblocks them.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    logging_setup.logger.info("baton serving %s on %s (pid %d, %s)",
                              "the native hello route" if config.native_hello else config.app,
                              binding.shown(listeners, bool(config.ssl_certfile)), os.getpid(),
                              serve.describe_shape(config))
    reason, kept = serve.run_wsgi(config, app, listeners, worker)
    return 0, reason, kept
