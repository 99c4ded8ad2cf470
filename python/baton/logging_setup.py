"""Logging: one format for Python's lines and the core's (which writes its own),
or the user's --log-config, which then receives the core's lines too."""

from __future__ import annotations

import json
import logging
import logging.config
import os
import threading

FORMAT = "[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"

logger = logging.getLogger("baton")
error_logger = logging.getLogger("baton.error")
access_logger = logging.getLogger("baton.access")
_core_reader: threading.Thread | None = None


def configure(level_name: str, log_config: str | None = None) -> int:
    """baton's loggers at `level_name`, or as the configuration file says."""
    level = getattr(logging, level_name.upper())
    if log_config:
        load_config(log_config)
        if logger.level == logging.NOTSET:
            logger.setLevel(level)
        return logger.getEffectiveLevel()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False
    return level


def load_config(path: str) -> None:
    """dictConfig from .json or .yaml/.yml, fileConfig from anything else (.ini, .conf)."""
    extension = os.path.splitext(path)[1].lower()
    if extension == ".json":
        with open(path, encoding="utf-8") as f:
            logging.config.dictConfig(json.load(f))
    elif extension in (".yaml", ".yml"):
        import yaml

        with open(path, encoding="utf-8") as f:
            logging.config.dictConfig(yaml.safe_load(f))
    else:
        logging.config.fileConfig(path, disable_existing_loggers=False)


def route_core_logs() -> None:
    """Sends the core's log lines through Python's logging (for --log-config):
    the core writes them to a non-blocking pipe, never waiting, and a thread
    logs them as 'baton'."""
    global _core_reader
    from baton import _baton

    if _core_reader is not None:
        return
    read_fd, write_fd = os.pipe2(os.O_CLOEXEC)
    os.set_blocking(write_fd, False)
    _baton.set_log_output(write_fd, True)

    def pump() -> None:
        with os.fdopen(read_fd, "rb") as lines:
            for line in lines:
                number, _, message = line.decode("utf-8", "replace").rstrip("\n").partition(" ")
                try:
                    level = int(number)
                except ValueError:
                    level, message = logging.INFO, line.decode("utf-8", "replace").rstrip("\n")
                logger.log(level, "%s", message)

    _core_reader = threading.Thread(target=pump, name="baton-core-log", daemon=True)
    _core_reader.start()


def route_access_log(json_lines: bool) -> str:
    """The access log through Python's logging (for --log-config, when no
    --access-logfile is named): the core's writer thread writes the lines to
    a pipe, never the loop, and a thread logs each as 'baton.access' at INFO.
    Returns the path the core opens. The message is the line; a JSON line's
    fields are also the record's attributes (record.status, record.path, ...:
    none of them is a name LogRecord uses), for a JSON formatter to take."""
    read_fd, write_fd = os.pipe2(os.O_CLOEXEC)

    def pump() -> None:
        with os.fdopen(read_fd, "rb") as lines:
            for line in lines:
                text = line.decode("utf-8", "replace").rstrip("\n")
                fields = None
                if json_lines:
                    try:
                        fields = json.loads(text)
                    except ValueError:
                        fields = None
                access_logger.info("%s", text, extra=fields)

    threading.Thread(target=pump, name="baton-access-log", daemon=True).start()
    # Workers inherit the descriptor (fork without exec), and each loop opens it anew by this path.
    return f"/dev/fd/{write_fd}"


def log_exception(message: str, error: BaseException | None) -> None:
    """Called by the native handler with the app's exception."""
    if error is None:
        error_logger.error(message)
    else:
        error_logger.error(message, exc_info=(type(error), error, error.__traceback__))
