"""The listening sockets: bound from --bind/--host/--port/--uds, or inherited
(--fd, systemd's LISTEN_FDS, or baton's own re-exec)."""

from __future__ import annotations

import dataclasses
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
    """The listeners for a log line: https:// for TCP ones when TLS is on."""
    return ", ".join("https://" + listener.where[len("http://"):] if secure and listener.where.startswith("http://")
                     else listener.where for listener in listeners)


def bind_tcp(host: str, port: int, config: Config) -> list[Listener]:
    """One socket for every address the name resolves to (a name may mean both 127.0.0.1 and ::1)."""
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
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if config.reuse_port:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                if port == 0 and listeners:
                    # Port 0 asks for a free port: the first socket chose it, the rest follow.
                    address = (address[0], listeners[0].server_port) + tuple(address[2:])
                sock.bind(address)
                sock.listen(config.backlog)
            except OSError as error:
                sock.close()
                raise BindError(f"cannot listen on {shown}: {error.strerror or error}") from None
            sock.set_inheritable(True)
            listeners.append(_listener(sock))
    except BindError:
        for listener in listeners:
            listener.sock.close()
        raise
    return listeners


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
