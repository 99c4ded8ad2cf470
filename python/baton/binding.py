"""The listening sockets: bound from --bind/--host/--port/--uds, or inherited
(--fd, systemd's LISTEN_FDS, or baton's own re-exec)."""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import stat

from baton.config import Config

SD_LISTEN_FDS_START = 3


class BindError(Exception):
    """A socket could not be bound or adopted; the message is one line for the user."""


@dataclasses.dataclass
class Listener:
    sock: socket.socket
    where: str  # http://127.0.0.1:8000, http://[::1]:8000, unix:/run/app.sock
    server_name: str  # SERVER_NAME / the ASGI scope's server host ("" for a Unix socket)
    server_port: int
    unix_path: str | None = None  # a socket file baton created and removes at exit
    loop: int | None = None  # the one event loop that accepts from it (spread), or None: every loop

    @property
    def fd(self) -> int:
        return self.sock.fileno()


def describe(sock: socket.socket) -> tuple[str, str, int]:
    """(where, server name, server port) of a listening socket."""
    if sock.family == socket.AF_UNIX:
        path = sock.getsockname()
        if isinstance(path, bytes):
            path = path.decode(errors="replace")
        return f"unix:{path or '(unnamed)'}", "", 0
    name, port = sock.getsockname()[:2]
    host = f"[{name}]" if sock.family == socket.AF_INET6 else name
    return f"http://{host}:{port}", name, port


def _listener(sock: socket.socket, unix_path: str | None = None) -> Listener:
    where, name, port = describe(sock)
    return Listener(sock, where, name, port, unix_path)


def adopt(fd: int) -> Listener:
    """A listening socket this process was given."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError as error:
        raise BindError(f"fd {fd} is not a socket: {error.strerror or error}") from None
    if sock.type != socket.SOCK_STREAM or not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
        sock.detach()
        raise BindError(f"fd {fd} is not a listening stream socket")
    sock.set_inheritable(True)
    return _listener(sock)


def bind_unix(path: str, config: Config) -> Listener:
    try:
        if stat.S_ISSOCK(os.stat(path).st_mode):
            os.unlink(path)  # a stale socket from an earlier run
    except FileNotFoundError:
        pass
    except OSError as error:
        raise BindError(f"cannot listen on unix:{path}: {error.strerror or error}") from None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)
        os.chmod(path, config.uds_mode)
        sock.listen(config.backlog)
    except OSError as error:
        sock.close()
        raise BindError(f"cannot listen on unix:{path}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return _listener(sock, unix_path=path)


def shown(listeners: list[Listener], secure: bool) -> str:
    """The listeners for a log line (each address once): https:// for TCP ones when TLS is on.
    QUIC's UDP sockets (baton.datagrams) stand on the TCP ones' addresses and are not shown again."""
    wheres = dict.fromkeys(listener.where for listener in listeners if listener.sock.type != socket.SOCK_DGRAM)
    return ", ".join("https://" + where[len("http://"):] if secure and where.startswith("http://") else where
                     for where in wheres)


def bind_tcp(host: str, port: int, config: Config) -> list[Listener]:
    """One socket for every address the name resolves to (a name may mean both 127.0.0.1 and ::1).
    With more than one event loop to accept from them, each is made for SO_REUSEPORT (spread gives
    every loop a socket of its own on the address), once the address is seen to be free."""
    reuse_port = config.reuse_port or spreading(config)
    shown = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise BindError(f"cannot resolve {shown}: {error.strerror}") from None
    seen: set = set()
    listeners: list[Listener] = []
    try:
        for family, kind, proto, _, address in infos:
            if (family, address[:2]) in seen:
                continue
            seen.add((family, address[:2]))
            if port == 0 and listeners:
                # Port 0 asks for a free port: the first socket chose it, the rest follow.
                address = (address[0], listeners[0].server_port) + tuple(address[2:])
            try:
                if reuse_port and not config.reuse_port and address[1] != 0:
                    # SO_REUSEPORT would let this bind join another server's
                    # sockets on the port: a plain bind first says whether it is taken.
                    _listening_socket(family, kind, proto, address, config.backlog, False).close()
                sock = _listening_socket(family, kind, proto, address, config.backlog, reuse_port)
            except OSError as error:
                raise BindError(f"cannot listen on {shown}: {error.strerror or error}") from None
            listeners.append(_listener(sock))
    except BindError:
        for listener in listeners:
            listener.sock.close()
        raise
    return listeners


def _listening_socket(family: int, kind: int, proto: int, address: tuple, backlog: int,
                      reuse_port: bool) -> socket.socket:
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def parse_bind(text: str) -> tuple[str, str | int, int]:
    """('unix', path, 0), ('fd', n, 0) or ('tcp', host, port) from one --bind value."""
    if text.startswith("unix:"):
        path = text[len("unix:"):]
        if not path:
            raise BindError(f"--bind {text!r}: no path after unix:")
        return "unix", path, 0
    if text.startswith("fd://"):
        try:
            return "fd", int(text[len("fd://"):]), 0
        except ValueError:
            raise BindError(f"--bind {text!r}: not a descriptor number") from None
    host, port_text = text, "8000"
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (end + 1 < len(text) and text[end + 1] != ":"):
            raise BindError(f"--bind {text!r}: expected [IPV6]:PORT")
        host, port_text = text[1:end], text[end + 2:] or "8000"
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif ":" in text:
        raise BindError(f"--bind {text!r}: put an IPv6 address in brackets, [::1]:8000")
    try:
        port = int(port_text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise BindError(f"--bind {text!r}: not a port number: {port_text!r}")
    return "tcp", host or "0.0.0.0", port


def systemd_fds(environ) -> list[int]:
    """The descriptors systemd's socket activation passed to this process, if any."""
    try:
        count = int(environ.get("LISTEN_FDS", ""))
    except ValueError:
        return []
    pid = environ.get("LISTEN_PID")
    if pid and pid != str(os.getpid()):
        return []
    return list(range(SD_LISTEN_FDS_START, SD_LISTEN_FDS_START + count))


def open_listeners(config: Config, environ=None) -> list[Listener]:
    """Every socket the configuration asks for (or, given sockets by systemd or
    by a reload, those instead of --bind/--host/--uds); on failure none stays open."""
    environ = os.environ if environ is None else environ
    listeners: list[Listener] = []
    try:
        inherited = systemd_fds(environ)
        for name in ("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"):
            environ.pop(name, None)  # not for the app or its children
        for fd in inherited:
            listeners.append(adopt(fd))
        for fd in config.fd:
            listeners.append(adopt(fd))
        if inherited:
            # Sockets handed over (systemd, or baton's own reload) stand for
            # the addresses in the configuration.
            return listeners
        for text in config.bind:
            kind, target, port = parse_bind(text)
            if kind == "unix":
                listeners.append(bind_unix(str(target), config))
            elif kind == "fd":
                listeners.append(adopt(int(target)))
            else:
                listeners.extend(bind_tcp(str(target), port, config))
        if config.uds:
            listeners.append(bind_unix(config.uds, config))
        if not listeners:
            listeners.extend(bind_tcp(config.host, config.port, config))
    except BindError:
        close_listeners(listeners)
        raise
    return listeners


def loops_of(config: Config) -> int:
    """The event loops that accept connections: each worker's loop threads."""
    return config.worker_count * config.threads


def spreading(config: Config) -> bool:
    """Whether every loop gets a socket of its own on each TCP address
    (--accept-spread). One socket that many loops wait on hands a burst of
    connections to whichever the kernel wakes first (the first of 64 took
    all of them, on two loops as on two workers); sockets in one
    SO_REUSEPORT group get the connections by a hash of their addresses, an
    even share, whether or not their loop is busy."""
    return loops_of(config) > 1 and config.accept_spread


def _reuses_port(sock: socket.socket) -> bool:
    return (sock.family in (socket.AF_INET, socket.AF_INET6)
            and bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT)))


def spread(listeners: list[Listener], config: Config) -> list[Listener]:
    """The sockets with one for each loop on every TCP address that has
    SO_REUSEPORT (bound by baton, or handed over by a reload or systemd):
    the ones there are go to loops 0, 1, ... (round the loops again if
    there are more), and the loops still without one get a new socket in
    the group. A Unix socket, or one without SO_REUSEPORT, stays shared by
    every loop. On failure the new sockets are closed and the address stays shared."""
    if not spreading(config):
        return listeners
    loops = loops_of(config)
    groups: dict[tuple, list[Listener]] = {}
    for listener in listeners:
        if _reuses_port(listener.sock):
            groups.setdefault((listener.sock.family, listener.sock.getsockname()), []).append(listener)
    result = list(listeners)
    for (family, address), members in groups.items():
        made: list[Listener] = []
        try:
            for _ in range(loops - len(members)):
                made.append(_listener(_listening_socket(family, socket.SOCK_STREAM, 0, address, config.backlog, True)))
        except OSError as error:
            for listener in made:
                listener.sock.close()
            logging.getLogger("baton").warning("%s stays one socket for every loop: a socket of its own for each "
                                               "could not be made (%s)", members[0].where, error.strerror or error)
            continue
        for index, listener in enumerate(members + made):
            listener.loop = index % loops
        result.extend(made)
    return result


def share(listeners: list[Listener], loops: list[int], threads: int) -> list[Listener]:
    """A worker's part of a master's sockets: the shared ones and those of
    `loops` (spread's numbers), the i-th of these going to its loop thread
    i % threads. The other workers' sockets are closed in this process (the
    master keeps them)."""
    mine: list[Listener] = []
    for listener in listeners:
        if listener.loop is None:
            mine.append(listener)
        elif listener.loop in loops:
            mine.append(dataclasses.replace(listener, loop=loops.index(listener.loop) % threads))
        else:
            listener.sock.close()
    return mine


def close_listeners(listeners: list[Listener]) -> None:
    for listener in listeners:
        listener.sock.close()
        remove_socket_file(listener)


def remove_socket_file(listener: Listener) -> None:
    if listener.unix_path:
        try:
            os.unlink(listener.unix_path)
        except OSError:
            pass
