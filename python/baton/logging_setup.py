"""Logging: one format for Python's lines and the core's (which writes its own)."""

from __future__ import annotations

import logging

FORMAT = "[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"

logger = logging.getLogger("baton")
error_logger = logging.getLogger("baton.error")


def configure(level_name: str) -> int:
    level = getattr(logging, level_name.upper())
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False
    return level


def log_exception(message: str, error: BaseException | None) -> None:
    """Called by the native handler with the app's exception."""
    if error is None:
        error_logger.error(message)
    else:
        error_logger.error(message, exc_info=(type(error), error, error.__traceback__))
