"""Binding the listening socket and running the native server."""

from __future__ import annotations

import os
import socket
import stat

from baton import _baton, logging_setup
from baton.config import Config

logger = logging_setup.logger


def bind(config: Config) -> socket.socket:
    """Returns a listening socket. Raises OSError with a message for the user."""
    if config.uds:
        path = config.uds
        try:
            if stat.S_ISSOCK(os.stat(path).st_mode):
                os.unlink(path)  # a stale socket from an earlier run
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(path)
            sock.listen(config.backlog)
        except OSError:
            sock.close()
            raise
        return sock
    infos = socket.getaddrinfo(config.host, config.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(config.backlog)
    except OSError:
        sock.close()
        raise
    return sock


def _switch(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def describe(config: Config, sock: socket.socket) -> str:
    """Where the socket listens, as the first log line says it."""
    if sock.family == socket.AF_UNIX:
        return f"unix:{config.uds}"
    name, port = sock.getsockname()[:2]
    host = f"[{name}]" if sock.family == socket.AF_INET6 else name
    return f"http://{host}:{port}"


def remove_socket_file(config: Config) -> None:
    if config.uds:
        try:
            os.unlink(config.uds)
        except OSError:
            pass


def run(config: Config, app, sock: socket.socket) -> None:
    where = describe(config, sock)
    if sock.family == socket.AF_UNIX:
        server_name, server_port = "localhost", ""
    else:
        server_name, server_port = sock.getsockname()[:2]
    what = "the native hello route" if config.native_hello else config.app
    shape = "" if config.native_hello else (
        f", {config.blocking_threads} app thread{'s' if config.blocking_threads != 1 else ''}"
        if config.blocking_threads else ", the app on the loop thread")
    logger.info("baton serving %s on %s (pid %d%s)", what, where, os.getpid(), shape)
    # The native server owns the descriptor from here and closes it.
    _baton.serve(
        app,
        [sock.detach()],
        native_hello=config.native_hello,
        keep_alive_timeout=config.keep_alive_timeout,
        header_read_timeout=config.header_read_timeout,
        graceful_timeout=config.graceful_timeout,
        max_header_size=config.max_header_size,
        max_headers=config.max_headers,
        max_body_size=config.max_body_size,
        body_read_timeout=config.body_read_timeout,
        blocking_threads=config.blocking_threads,
        # A/B switches for the benchmarks, not options: the attached loop of
        # before the detach, the pool without its turn barrier, and the
        # predecessor's inline fallback when every pool thread is busy.
        loop_attached=_switch("BATON_LOOP_ATTACHED", False),
        pool_turn=_switch("BATON_POOL_TURN", True),
        pool_fallback_inline=os.environ.get("BATON_POOL_FALLBACK", "") == "inline",
        root_path=config.root_path,
        server_name=str(server_name),
        server_port=str(server_port),
        log_level=logging_setup.logging.getLevelName(config.log_level.upper()),
        log_exception=logging_setup.log_exception,
    )
    remove_socket_file(config)
    logger.info("baton stopped")
