"""baton.run(): the command, called from Python.

    import baton
    baton.run("myproject.wsgi:application", workers=4, keep_alive_timeout=10)

Options are keyword arguments named as the command line's are (with
underscores); a repeatable one takes a list or a single string. They go
through the same option table and the same checks as the command line: an
unknown name raises TypeError, a bad value ValueError with the message the
command prints. BATON_* environment variables apply under the keywords, as
they do under the command line, and `config="FILE"` (or BATON_CONFIG) reads
a configuration file under both (baton.config_file): its hooks run as they
do for the command.

The app is "module:attribute", as on the command line, or the app object
itself. An object is already loaded: serving alone, it is served as it is;
with workers the master forks them from a process that holds it, so each
inherits it (gunicorn's preload_app), and a SIGHUP starts new workers on
the same object. reload=True needs the import string: an object cannot be
imported again when its files change.

run() takes the process's signals as the command does, so it runs on the
main thread, and returns once the server has stopped (SIGTERM or SIGINT,
after the drain). A failure to start (the port taken, the app not found) is
the command's one line on stderr and SystemExit with its status.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from baton import cli, config_file, loading, process
from baton.config import ConfigError, UsageError, assemble, check, environment_layer, keyword_layer


def run(app: Any, **options: Any) -> None:
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("baton.run() takes the process's signals, so it runs on the main thread; "
                           "baton.serving() serves from a thread of its own")
    path = options.pop("config", None) or os.environ.get("BATON_CONFIG")
    settings = config_file.read(path) if path else None
    layers = [settings.layer] if settings is not None else []
    keywords = keyword_layer(options, "baton.run")
    layers += [environment_layer(os.environ, under=keywords), keywords]
    given = not isinstance(app, str) and app is not None
    if given and not callable(app):
        raise TypeError(f"baton.run() takes 'module:attribute' or the app object, got {app!r}")
    if app is None and settings is not None:
        app = settings.app  # the file's wsgi_app
    config, _ = assemble(loading.named(app) if given else app, layers)
    if given and config.reload:
        raise ConfigError("reload=True needs the app as an import string ('module:attribute'): an app object "
                          "cannot be imported again when its files change")
    check(config)
    process.given_app = app if given else None
    try:
        status = cli.start(config, settings, argv=list(sys.orig_argv))
    except UsageError as error:
        raise ConfigError(str(error)) from None
    finally:
        process.given_app = None
    if status:
        raise SystemExit(status)
