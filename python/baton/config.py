"""Options, resolved once: command line over BATON_* environment over a
configuration file (-c) over defaults.

Each option is declared once in OPTIONS; the command line, its --help, the
environment lookup, the validation and the Config object all come from that
one table. A bad value is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any, Callable

from baton.version import VersionAction

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
DEFAULT_ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'


@dataclasses.dataclass(frozen=True)
class Option:
    name: str  # the attribute on Config; the flag is --name-with-dashes
    kind: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    flag: bool = False  # a boolean switch (--x), no value
    negatable: bool = False  # a boolean switch with a --no-x form
    repeat: bool = False  # may be given more than once; the environment separates values with commas
    short: str | None = None
    # The native server takes it as it is, under its own name: it is carried
    # to the core by serve.server_options() and read by the core's option
    # table (src/bridge/server_setup.cc), with no other copy.
    core: bool = False

    @property
    def cli(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "BATON_" + self.name.upper()


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"not a boolean: {text!r}")


def _number(convert: Callable[[str], Any], low: float | None, high: float | None, strict_low: bool = False):
    """A converter that checks a range; the message names the range."""
    if strict_low:
        bounds = f"greater than {low}" + (f" and at most {high}" if high is not None else "")
    elif high is not None:
        bounds = f"between {low} and {high}"
    else:
        bounds = f"at least {low}"

    def check(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise ValueError(f"not {'an integer' if convert is int else 'a number'}: {text!r}") from None
        too_low = low is not None and (value <= low if strict_low else value < low)
        if value != value or too_low or (high is not None and value > high):
            raise ValueError(f"must be {bounds}")
        return value

    check.__name__ = convert.__name__
    return check


# The core keeps timeouts as 32-bit milliseconds: 24 days fit.
MAX_SECONDS = 86400 * 24


def _seconds(text: str) -> float:
    return _number(float, 0, MAX_SECONDS, strict_low=True)(text)


def _seconds_or_off(text: str) -> float:
    return _number(float, 0, MAX_SECONDS)(text)


def _mode(text: str) -> int:
    try:
        value = int(text, 8)
    except ValueError:
        raise ValueError(f"not an octal file mode: {text!r}") from None
    if not 0 <= value <= 0o777:
        raise ValueError(f"not a file mode: {text!r}")
    return value


def _log_level(text: str) -> str:
    value = text.strip().lower()
    if value not in LOG_LEVELS:
        raise ValueError(f"choose from {', '.join(LOG_LEVELS)}")
    return value


def _route(text: str) -> str:
    if not text.startswith("/"):
        raise ValueError(f"a path must begin with '/': {text!r}")
    return text.rstrip("/") or "/"


def _directory(text: str) -> str:
    if not os.path.isdir(text):
        raise ValueError(f"not a directory: {text!r}")
    return os.path.abspath(text)


def _existing_file(text: str) -> str:
    if not os.path.isfile(text):
        raise ValueError(f"no such file: {text!r}")
    return os.path.abspath(text)


CERT_REQS = {"none": 0, "optional": 1, "required": 2}


def _cert_reqs(text: str) -> int:
    """0, 1, 2 (Python's ssl.CERT_NONE, CERT_OPTIONAL, CERT_REQUIRED, as uvicorn takes them) or their names."""
    value = text.strip().lower()
    if value in CERT_REQS:
        return CERT_REQS[value]
    if value in ("0", "1", "2"):
        return int(value)
    raise ValueError("choose from 0 (none), 1 (optional), 2 (required)")


def _tls_version(text: str) -> str:
    value = text.strip().lower().removeprefix("tlsv").removeprefix("tls")
    if value not in ("1.2", "1.3"):
        raise ValueError("the oldest TLS version to accept: TLSv1.2 or TLSv1.3")
    return "TLSv" + value


def _access_log_format(text: str) -> str:
    if not text:
        raise ValueError("empty format")
    return text


def _alt_svc(text: str) -> str:
    """auto, off, or an Alt-Svc field value (RFC 7838) sent as it is."""
    value = text.strip()
    if value.lower() in ("auto", "off"):
        return value.lower()
    if not value or any(not (" " <= c <= "~" or c == "\t") for c in value):
        raise ValueError(f"not auto, off or a header value (printable ASCII, one line): {text!r}")
    return value


def _field_name(text: str) -> str:
    """A request header's name (an RFC 9110 token), lowercased."""
    allowed = set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz")
    name = text.strip().lower()
    if not name or not set(name) <= allowed:
        raise ValueError(f"not a header name: {text!r}")
    return name


OPTIONS: tuple[Option, ...] = (
    # Where to listen.
    Option("bind", str, None, "where to listen: HOST:PORT, [V6]:PORT, unix:PATH or fd://N; repeatable "
           "(default: --host and --port)", repeat=True, short="-b"),
    Option("host", str, "127.0.0.1", "address to bind when no --bind is given; every address it resolves to "
           "(default: %(default)s)"),
    Option("port", _number(int, 0, 65535), 8000, "TCP port to bind with --host (default: %(default)s)"),
    Option("uds", str, None, "also listen on a Unix domain socket at this path (instead of --host/--port when "
           "no --bind is given)"),
    Option("uds_mode", _mode, 0o666, "file mode of Unix sockets baton creates, in octal, so a proxy running as "
           "another user can connect (default: 0666)"),
    Option("fd", _number(int, 0, 65535), None, "serve on an inherited listening socket; repeatable (systemd "
           "socket activation, LISTEN_FDS, is read by itself)", repeat=True),
    Option("backlog", _number(int, 1, 65535), 2048, "listen backlog (default: %(default)s)"),
    Option("reuse_port", _bool, False, "set SO_REUSEPORT on the sockets baton binds", flag=True),
    Option("accept_spread", _bool, True, "with more than one event loop (--workers, --threads), a listening "
           "socket of each loop's own on every TCP address, the kernel sharing connections out evenly; "
           "--no-accept-spread: one socket all loops wait on, each connection taken by a loop that is idle "
           "(default: on)", negatable=True),
    # Processes.
    Option("workers", _number(int, 0, 1024), 0, "worker processes under a master that binds the sockets, "
           "respawns, recycles and reloads them; 0 serves in this one process (default: %(default)s)",
           short="-w"),
    Option("threads", _number(int, 1, 256), 1, "event loop threads in each process, each running the app "
           "itself (WSGI on the loop thread, ASGI on an asyncio loop of its own): one process's memory for "
           "several cores of Python; above 1 needs a free-threaded CPython (3.13t or later) running without "
           "the GIL (default: %(default)s)"),
    Option("max_requests", _number(int, 0, None), 0, "recycle a worker after this many requests, gracefully; "
           "0 never (default: %(default)s; needs a master, so it starts one)"),
    Option("max_requests_jitter", _number(int, 0, None), 0, "add a random 0..N to each worker's "
           "--max-requests so workers do not recycle together (default: %(default)s)"),
    Option("max_worker_rss", _number(int, 0, None), 0, "recycle a worker whose resident memory is over this "
           "many MiB, gracefully (a new one takes over first; checked every second); 0 never (default: "
           "%(default)s; starts a master)"),
    Option("timeout", _seconds_or_off, 0.0, "replace a worker whose request has been inside the app longer, or "
           "whose loop made no progress for this many seconds; 0 off (default: %(default)s; starts a master)"),
    Option("reload", _bool, False, "development: restart the workers when a Python file of the app changes",
           flag=True),
    Option("pid", str, None, "write the process id (the master's, with workers) to this file"),
    # The application.
    Option("factory", _bool, False, "APP is a callable that returns the application", flag=True),
    Option("interface", str, "auto", "application interface; auto: an async callable of three parameters is "
           "ASGI (default: %(default)s)", choices=("auto", "wsgi", "asgi")),
    Option("loop", str, "auto", "ASGI: the asyncio loop; auto picks uvloop when it is installed (default: %(default)s)",
           choices=("auto", "asyncio", "uvloop")),
    Option("lifespan", str, "auto", "ASGI: run the lifespan protocol; auto serves an app that does not support it "
           "(default: %(default)s)", choices=("auto", "on", "off")),
    Option("asgi_mode", str, "auto", "ASGI: pump runs the native loop on its own thread; inverted runs it inside "
           "asyncio on one thread; auto: inverted unless each process has two CPUs of its "
           "own (default: %(default)s)", choices=("auto", "pump", "inverted")),
    Option("native_hello", _bool, False, "serve a fixed hello answer from C++ (no app; the benchmark ceiling)",
           flag=True),
    Option("chdir", _directory, None, "change to this directory before loading the app"),
    Option("app_dir", _directory, None, "look for the app's module in this directory first"),
    Option("env_file", str, None, "read KEY=VALUE lines from this file (relative to --chdir) into the "
           "environment before loading the app; variables already set win"),
    Option("root_path", str, "", "SCRIPT_NAME the app is mounted at (default: empty)", core=True),
    Option("blocking_threads", _number(int, 0, 1024), 4,
           "Python threads that run a WSGI app; 0 runs it on the event loop's own thread (default: %(default)s)"),
    # HTTP.
    Option("keep_alive_timeout", _seconds, 5.0,
           "seconds an idle keep-alive connection is kept open (default: %(default)s)", core=True),
    Option("header_read_timeout", _seconds, 10.0,
           "seconds a client has to send a whole request head (default: %(default)s)", core=True),
    Option("body_read_timeout", _seconds, 60.0,
           "seconds a client has to send a whole request body (default: %(default)s)", core=True),
    Option("write_timeout", _seconds, 30.0,
           "seconds a response may wait for a client that does not read (default: %(default)s)", core=True),
    Option("graceful_timeout", _seconds, 5.0,
           "seconds to finish in-flight requests when stopping (default: %(default)s)", core=True),
    Option("max_header_size", _number(int, 256, 1 << 24), 32768,
           "largest request head in bytes; larger gets 431 (default: %(default)s)", core=True),
    Option("max_headers", _number(int, 1, 10000), 100,
           "most header fields in a request; more gets 431 (default: %(default)s)", core=True),
    Option("limit_concurrency", _number(int, 0, 1 << 30), 0, "requests a worker (a loop thread, with --threads) "
           "lets into the app at once, an open WebSocket among them; past it new ones get 503 with Retry-After "
           "from the core, the health path and the metrics still answered; 0 no limit (default: %(default)s)",
           core=True),
    Option("max_body_size", _number(int, 0, None), 0, "largest request body in bytes, 0 for no limit; larger gets "
           "413 (default: %(default)s)", core=True),
    Option("proxy_headers", _bool, True, "take the client address, scheme and port from X-Forwarded-For/-Proto/"
           "-Port and Forwarded, from trusted peers only (default: on)", negatable=True, core=True),
    Option("forwarded_allow_ips", str, "127.0.0.1", "peers trusted for proxy headers: addresses and networks "
           "separated by commas, or * for all; Unix socket peers are trusted (default: %(default)s)", core=True),
    Option("proxy_protocol", _bool, False, "every connection starts with a PROXY header (v1 or v2, told apart by "
           "its first bytes) from a peer trusted by --forwarded-allow-ips, naming the client; a connection without "
           "one is closed (default: off)", negatable=True, core=True),
    # WebSockets (an ASGI app's; a WSGI app gets the upgrade as a plain request).
    Option("ws", str, "auto", "ASGI: WebSockets; auto serves them, none hands an upgrade request to the app as "
           "plain HTTP (default: %(default)s)", choices=("auto", "none")),
    Option("ws_max_size", _number(int, 1, (1 << 31) - 1), 16 * 1024 * 1024,
           "largest WebSocket message in bytes, after decompression; larger closes with 1009 "
           "(default: %(default)s)", core=True),
    Option("ws_max_queue", _number(int, 1, 1 << 20), 32,
           "WebSocket messages waiting for the app before reading pauses (default: %(default)s)", core=True),
    Option("ws_ping_interval", _seconds_or_off, 20.0,
           "seconds between the server's pings on an open WebSocket, 0 for none (default: %(default)s)", core=True),
    Option("ws_ping_timeout", _seconds, 20.0,
           "seconds a ping may go unanswered, the client sending nothing else, before the WebSocket "
           "closes with 1011 (default: %(default)s)",
           core=True),
    Option("ws_handshake_timeout", _seconds, 10.0, "seconds the app has to accept or refuse a WebSocket opening; "
           "past it the client gets 504 (default: %(default)s)", core=True),
    Option("ws_per_message_deflate", _bool, True, "offer permessage-deflate compression to WebSocket clients "
           "(default: on)", negatable=True, core=True),
    Option("ws_deflate_level", _number(int, 1, 9), 1,
           "zlib's level for the messages the server compresses: 1 the fastest, 9 the smallest "
           "(default: %(default)s)", core=True),
    Option("server_header", _bool, True, "send a Server header when the app sends none (default: on)",
           negatable=True),
    # HTTP/2.
    Option("http", str, "auto", "HTTP versions: auto serves HTTP/2 to clients that ask for it (ALPN h2 over TLS, "
           "h2c with prior knowledge or by Upgrade) and HTTP/1.1 to the rest; 1 only HTTP/1.1; 2 only HTTP/2 "
           "(default: %(default)s)", choices=("auto", "1", "2"), core=True),
    Option("h2_max_concurrent_streams", _number(int, 1, (1 << 31) - 1), 100,
           "HTTP/2 streams a client may have open at once (default: %(default)s)", core=True),
    Option("h2_max_header_list_size", _number(int, 1024, (1 << 31) - 1), 32768,
           "largest HTTP/2 request header list, decoded (RFC 9113's measure); larger gets 431 "
           "(default: %(default)s)", core=True),
    Option("h2_initial_window_size", _number(int, 65535, (1 << 31) - 1), 262144,
           "an HTTP/2 stream's receive window: request body bytes the client may send ahead of the app "
           "(default: %(default)s)", core=True),
    # TLS: every listener serves HTTPS (and wss) when a certificate is given.
    Option("ssl_certfile", _existing_file, None, "serve TLS with this PEM certificate (its chain after it; "
           "the key too, unless --ssl-keyfile is given)", core=True),
    Option("ssl_keyfile", _existing_file, None, "the PEM private key of --ssl-certfile", core=True),
    Option("ssl_keyfile_password", str, None, "the password of an encrypted --ssl-keyfile", core=True),
    Option("ssl_ca_certs", _existing_file, None, "PEM file of the CAs that client certificates must chain to",
           core=True),
    Option("ssl_cert_reqs", _cert_reqs, 0, "client certificates: 0 none, 1 optional (verified when sent), "
           "2 required (mutual TLS) (default: %(default)s)", core=True),
    Option("ssl_ciphers", str, None, "OpenSSL cipher list for TLS 1.2 (default: ECDHE with AES-GCM or "
           "ChaCha20-Poly1305 only, Mozilla's intermediate profile; TLS 1.3's suites are OpenSSL's)", core=True),
    Option("ssl_version", _tls_version, "TLSv1.2", "the oldest TLS version accepted: TLSv1.2 or TLSv1.3 "
           "(default: %(default)s)", core=True),
    # HTTP/3 over QUIC (docs/http3.md): requests reach the app as HTTP/2's do.
    Option("http3", _bool, False, "also serve HTTP/3 over QUIC on UDP, on the port of each TCP --bind; needs "
           "--ssl-certfile and a build with QUIC (baton --version says) (default: off)", negatable=True, core=True),
    Option("quic_retry", str, "auto", "address validation with Retry for new QUIC connections: auto asks a "
           "client to prove its address once 256 connections are in their handshake on a loop (an Initial flood), "
           "always asks every one (a round trip more), off only when ngtcp2 needs it (default: %(default)s)",
           choices=("auto", "always", "off"), core=True),
    Option("alt_svc", _alt_svc, "auto", "the Alt-Svc header on HTTP/1.1 and HTTP/2 responses over TCP, which "
           "tells browsers where HTTP/3 is: auto sends h3=\":PORT\"; ma=86400 (the connection's own port) when "
           "--http3 serves and nothing otherwise, off never sends it, any other value is sent as it is; an app's "
           "own Alt-Svc wins (default: %(default)s)", core=True),
    # Served without Python.
    Option("static_path_route", _route, None, "URL path under which --static-path-mount's files are served by "
           "the core; repeatable, paired in order with --static-path-mount", repeat=True),
    Option("static_path_mount", _directory, None, "directory served at the matching --static-path-route; "
           "repeatable", repeat=True),
    Option("static_path_expires", _number(int, 0, None), 86400,
           "Cache-Control max-age of static files, in seconds (default: %(default)s)", core=True),
    Option("health_path", _route, None, "answer GET/HEAD on this path from the core: 200 while serving, 503 "
           "once a drain begins (for readiness probes)", core=True),
    # Operations.
    Option("metrics_bind", str, None, "serve Prometheus metrics on HOST:PORT (GET /metrics, the text format, or "
           "OpenMetrics when asked), from the core: with workers the master serves the whole server's"),
    # Logs.
    Option("log_level", _log_level, "info", "log level, any case (default: %(default)s)"),
    Option("log_config", _existing_file, None, "logging configuration: dictConfig as .json or .yaml, or a "
           "fileConfig .ini; baton's own loggers are 'baton', 'baton.error' and 'baton.access'"),
    Option("access_log", _bool, False, "log every request (default: off)", negatable=True),
    Option("access_log_format", _access_log_format, DEFAULT_ACCESS_LOG_FORMAT,
           "access log line in gunicorn's atoms (%%(h)s %%(r)s %%(s)s %%(b)s %%(L)s ...), or json: one "
           "JSON object a line with named fields (default: the combined log format)"),
    Option("access_logfile", str, "-", "where access log lines go, - for stdout (default: %(default)s)", core=True),
    Option("access_log_request_id_header", _field_name, "x-request-id", "the request header the json access log "
           "gives as request_id (default: %(default)s)", core=True),
)

OPTION_NAMES = tuple(option.name for option in OPTIONS)


@dataclasses.dataclass(frozen=True)
class Config:
    app: str | None
    bind: tuple[str, ...]
    host: str
    port: int
    uds: str | None
    uds_mode: int
    fd: tuple[int, ...]
    backlog: int
    reuse_port: bool
    accept_spread: bool
    workers: int
    threads: int
    max_requests: int
    max_requests_jitter: int
    max_worker_rss: int
    timeout: float
    reload: bool
    pid: str | None
    factory: bool
    interface: str
    loop: str
    lifespan: str
    asgi_mode: str
    native_hello: bool
    chdir: str | None
    app_dir: str | None
    env_file: str | None
    root_path: str
    blocking_threads: int
    keep_alive_timeout: float
    header_read_timeout: float
    body_read_timeout: float
    write_timeout: float
    graceful_timeout: float
    max_header_size: int
    max_headers: int
    limit_concurrency: int
    max_body_size: int
    proxy_headers: bool
    forwarded_allow_ips: str
    proxy_protocol: bool
    ws: str
    ws_max_size: int
    ws_max_queue: int
    ws_ping_interval: float
    ws_ping_timeout: float
    ws_handshake_timeout: float
    ws_per_message_deflate: bool
    ws_deflate_level: int
    server_header: bool
    http: str
    h2_max_concurrent_streams: int
    h2_max_header_list_size: int
    h2_initial_window_size: int
    ssl_certfile: str | None
    ssl_keyfile: str | None
    ssl_keyfile_password: str | None
    ssl_ca_certs: str | None
    ssl_cert_reqs: int
    ssl_ciphers: str | None
    ssl_version: str
    http3: bool
    quic_retry: str
    alt_svc: str
    static_path_route: tuple[str, ...]
    static_path_mount: tuple[str, ...]
    static_path_expires: int
    health_path: str | None
    metrics_bind: str | None
    log_level: str
    log_config: str | None
    access_log: bool
    access_log_format: str
    access_logfile: str
    access_log_request_id_header: str

    @property
    def supervised(self) -> bool:
        """Whether a master runs the app in worker processes."""
        return (self.workers > 0 or self.reload or self.max_requests > 0 or self.timeout > 0
                or self.max_worker_rss > 0)

    @property
    def worker_count(self) -> int:
        return max(1, self.workers)


class UsageError(Exception):
    """A bad option value found after parsing (it depends on the file system)."""


class OptionParser(argparse.ArgumentParser):
    """argparse with one-line errors: 'baton: error: ...' and status 2."""

    def error(self, message: str):  # noqa: D102 - argparse's hook
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Kind:
    """argparse's type= hook, with our converter's own message on failure."""

    def __init__(self, option: Option):
        self.option = option
        self.__name__ = option.name

    def __call__(self, text: str):
        try:
            return self.option.kind(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = OptionParser(
        prog="baton",
        description="Serve a WSGI or ASGI application with a C++ request path.",
        epilog="Every option can also be set as an environment variable: BATON_ plus its name in capitals "
        "with underscores, for example BATON_PORT=9000 or BATON_KEEP_ALIVE_TIMEOUT=10; repeatable options "
        "take values separated by commas.",
    )
    parser.add_argument("app", nargs="?", metavar="APP",
                        help="the application as module:attribute (the attribute may be dotted); a module alone "
                        "means its 'application', else its 'app'")
    parser.add_argument("--version", action=VersionAction)
    # Read before the option table's values: the file is the lowest layer under them.
    parser.add_argument("-c", "--config", metavar="FILE", default=None,
                        help="read options from FILE: a gunicorn-style Python file (gunicorn.conf.py: its settings "
                        "and server hooks) or a .toml file of baton's option names; the environment and the command "
                        "line override it (BATON_CONFIG names it too)")
    parser.add_argument("--print-config", action="store_true",
                        help="print every option's value and where it came from (default, file, environment, "
                        "command line), then exit")
    for option in OPTIONS:
        names = [option.short, option.cli] if option.short else [option.cli]
        text = option.help % {"default": option.default} if "%(default)" in option.help else option.help
        if option.negatable:
            parser.add_argument(*names, dest=option.name, action=argparse.BooleanOptionalAction, default=None,
                                help=text)
        elif option.flag:
            parser.add_argument(*names, dest=option.name, action="store_const", const=True, default=None,
                                help=text)
        else:
            parser.add_argument(*names, dest=option.name, type=_Kind(option), default=None,
                                choices=option.choices, metavar=option.name.upper(),
                                action="append" if option.repeat else "store", help=text)
    return parser


def _from_environment(option: Option, text: str):
    values = [part.strip() for part in text.split(",") if part.strip()] if option.repeat else [text]
    converted = [option.kind(value) for value in values]
    for value in converted:
        if option.choices and value not in option.choices:
            raise ValueError(f"choose from {', '.join(option.choices)}")
    return converted if option.repeat else converted[0]


class ConfigError(ValueError):
    """A bad option value, or options that do not go together. The message is
    the one line the command prints after 'baton: error: '; baton.run()
    raises it as it is (a ValueError)."""


def _converted(option: Option, value: Any) -> Any:
    """One value of `option` from text (the environment, a file) or a Python
    value (a keyword argument, a configuration file), checked by the
    option's own converter, so every way in gives the same message."""
    if isinstance(value, str):
        converted = option.kind(value)
    elif option.kind is _bool:
        if not isinstance(value, (bool, int)) or value not in (0, 1):
            raise ValueError(f"not a boolean: {value!r}")
        converted = bool(value)
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        numeric = option.kind.__name__ in ("int", "float", "_seconds", "_seconds_or_off", "_cert_reqs", "_mode")
        raise ValueError(f"expected {'a number' if numeric else 'a string'}, got {value!r}")
    elif option.kind is _mode:
        converted = _mode(format(int(value), "o")) if value == int(value) else _mode(str(value))
    else:
        # int() first: an IntEnum (ssl.CERT_REQUIRED) reads as its name on Python 3.10.
        converted = option.kind(str(int(value)) if isinstance(value, int) else str(value))
    if option.choices and converted not in option.choices:
        raise ValueError(f"choose from {', '.join(option.choices)}")
    return converted


def converted_value(option: Option, value: Any) -> Any:
    """`value` for `option`; a repeatable option takes one value or a list of them."""
    if option.repeat:
        items = value if isinstance(value, (list, tuple)) else [value]
        return tuple(_converted(option, item) for item in items)
    return _converted(option, value)


OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}


@dataclasses.dataclass
class Layer:
    """Option values from one source (a file, the environment, the command
    line, keyword arguments), converted, and where each came from."""

    values: dict[str, Any] = dataclasses.field(default_factory=dict)
    where: dict[str, str] = dataclasses.field(default_factory=dict)

    def put(self, name: str, value: Any, where: str) -> None:
        self.values[name] = value
        self.where[name] = where


def environment_layer(environ, under: Layer | None = None) -> Layer:
    """BATON_* variables; those of options the layer `under` gives are not
    read (a bad value there does not stop a command line that overrides it)."""
    layer = Layer()
    for option in OPTIONS:
        if option.env in environ and (under is None or option.name not in under.values):
            try:
                value = _from_environment(option, environ[option.env])
            except ValueError as error:
                raise ConfigError(f"{option.env}={environ[option.env]!r}: {error}") from None
            layer.put(option.name, tuple(value) if option.repeat else value, f"environment {option.env}")
    return layer


def keyword_layer(options: dict[str, Any], caller: str) -> Layer:
    """baton.run()'s keyword arguments, named as the options are (underscores)."""
    layer = Layer()
    for name, value in options.items():
        option = OPTIONS_BY_NAME.get(name)
        if option is None:
            import difflib

            close = difflib.get_close_matches(name, OPTION_NAMES, 1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"{caller}() got an unknown option {name!r}{hint}")
        if value is None:
            continue  # as not given: the default (or a lower layer's value) stands
        try:
            layer.put(name, converted_value(option, value), "keyword argument")
        except ValueError as error:
            raise ConfigError(f"{name}={value!r}: {error}") from None
    return layer


def assemble(app: str | None, layers: list[Layer]) -> tuple[Config, dict[str, str]]:
    """The Config from the layers, each over the ones before it and all over
    the defaults, and where each value came from (check() applies the rules
    between options)."""
    values: dict[str, Any] = {"app": app}
    sources: dict[str, str] = {}
    for option in OPTIONS:
        values[option.name] = () if option.repeat else option.default
        sources[option.name] = "default"
        for layer in layers:
            if option.name in layer.values:
                values[option.name] = layer.values[option.name]
                sources[option.name] = layer.where[option.name]
    return Config(**values), sources


def check(config: Config, require_app: bool = True) -> None:
    """The rules between options (ConfigError), the same for every way in."""
    if require_app and config.app is None and not config.native_hello:
        raise ConfigError("APP is required (module:attribute), unless --native-hello is given")
    if len(config.static_path_route) != len(config.static_path_mount):
        raise ConfigError("give --static-path-route and --static-path-mount in pairs "
                          f"({len(config.static_path_route)} routes, {len(config.static_path_mount)} mounts)")
    if config.health_path and config.health_path in config.static_path_route:
        raise ConfigError(f"--health-path {config.health_path} is also a --static-path-route")
    if not config.ssl_certfile:
        given = [o.cli for o in OPTIONS if o.name.startswith("ssl_") and getattr(config, o.name) != o.default]
        if given:
            raise ConfigError(f"{', '.join(given)} need{'s' if len(given) == 1 else ''} --ssl-certfile")
    if config.ssl_cert_reqs and not config.ssl_ca_certs:
        raise ConfigError("--ssl-cert-reqs needs --ssl-ca-certs (the CAs client certificates are checked against)")
    if config.http3:
        from baton import _baton
        if not _baton.HAS_QUIC:
            raise ConfigError(f"--http3 needs a build with QUIC; this one has none: {_baton.QUIC_ABSENT_REASON}")
        if not config.ssl_certfile:
            raise ConfigError("--http3 needs --ssl-certfile (QUIC is always encrypted, with TLS 1.3)")
    if config.max_requests_jitter and not config.max_requests:
        raise ConfigError("--max-requests-jitter needs --max-requests")
    if config.threads > 1 and getattr(sys, "_is_gil_enabled", lambda: True)():
        raise ConfigError(f"--threads {config.threads} needs a free-threaded CPython (3.13t or later) running "
                          "without the GIL; this one has a GIL (use --workers to serve from more cores)")


@dataclasses.dataclass
class Resolved:
    """What the command resolved: the Config, where each value came from,
    and the configuration file read (baton.config_file.FileSettings), if any."""

    config: Config
    sources: dict[str, str]
    file: Any = None
    print_config: bool = False


def command_line_layer(args: argparse.Namespace) -> Layer:
    layer = Layer()
    for option in OPTIONS:
        value = getattr(args, option.name)
        if value is not None:
            layer.put(option.name, tuple(value) if option.repeat else value, "command line")
    return layer


def _app(args: argparse.Namespace, environ, settings) -> tuple[str | None, str]:
    """APP and where it came from: the command line, BATON_APP, or the file's wsgi_app (or app)."""
    if args.app is not None:
        return args.app, "command line"
    if environ.get("BATON_APP") is not None:
        return environ["BATON_APP"], "environment BATON_APP"
    if settings is not None and settings.app is not None:
        return settings.app, settings.where
    return None, "default"


def load(argv: list[str] | None = None, environ=None) -> Resolved:
    """The command's options: built-in defaults, under the configuration
    file (-c FILE or BATON_CONFIG), under BATON_* environment variables,
    under the command line. Exits with status 2 on bad input."""
    environ = os.environ if environ is None else environ
    parser = build_parser()
    args = parser.parse_args(argv)
    path = args.config or environ.get("BATON_CONFIG") or None
    try:
        settings = None
        layers = []
        if path:
            from baton import config_file

            settings = config_file.read(path)
            layers.append(settings.layer)
        command_line = command_line_layer(args)
        layers += [environment_layer(environ, under=command_line), command_line]
        app, app_source = _app(args, environ, settings)
        config, sources = assemble(app, layers)
        sources["app"] = app_source
        check(config, require_app=not args.print_config)
    except ConfigError as error:
        parser.error(str(error))
    return Resolved(config, sources, settings, args.print_config)


def resolve(argv: list[str] | None = None, environ: dict[str, str] | None = None) -> Config:
    """Parse argv, the environment and a configuration file into a Config. Exits with status 2 on bad input."""
    return load(argv, environ).config
