"""--reload: the app's directory watched for changes to .py files, each
burst of changes reloading the workers once, after it has ended.

A save is often several events (an editor truncates the file and writes it,
or writes a copy and renames it over; a checkout touches many files). The
reload waits until no change has come for QUIET seconds, so the workers
load what was saved last: reloading on a burst's first event read a file
still being written (an empty module, "has no attribute 'app'") and kept
the old workers, and the events after it, within the same burst, were let
go, so the finished file was never loaded.
"""

from __future__ import annotations

import os
import threading

from baton import logging_setup
from baton.config import Config

logger = logging_setup.logger

QUIET = 0.2


def start(config: Config, on_change):
    """Watches the app's directory (or the working directory); calls
    `on_change` from a timer thread once a burst of changes has ended."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class Changes(FileSystemEventHandler):
        def __init__(self):
            self.lock = threading.Lock()
            self.timer: threading.Timer | None = None
            self.changed = ""

        def on_any_event(self, event):
            paths = [str(getattr(event, "src_path", "")), str(getattr(event, "dest_path", ""))]
            changed = next((p for p in paths if p.endswith(".py")), None)
            if event.is_directory or changed is None:
                return
            with self.lock:
                self.changed = changed
                if self.timer is not None:
                    self.timer.cancel()
                self.timer = threading.Timer(QUIET, self.burst_ended)
                self.timer.daemon = True
                self.timer.start()

        def burst_ended(self):
            with self.lock:
                self.timer = None
                changed = self.changed
            logger.info("%s changed; reloading", os.path.relpath(changed))
            on_change()

    observer = Observer()
    directory = config.app_dir or os.getcwd()
    observer.schedule(Changes(), directory, recursive=True)
    observer.daemon = True
    observer.start()
    logger.info("watching %s for changes to .py files", directory)
    return observer
