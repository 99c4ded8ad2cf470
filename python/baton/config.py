"""Options, resolved once: command line over BATON_* environment over defaults.

Each option is declared once in OPTIONS; the command line, its --help, the
environment lookup and the Config object all come from that one table.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from typing import Any, Callable

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


@dataclasses.dataclass(frozen=True)
class Option:
    name: str  # the attribute on Config; the flag is --name-with-dashes
    kind: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    flag: bool = False  # a boolean switch (--x), no value

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


def _positive_float(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise ValueError("must be greater than 0")
    return value


OPTIONS: tuple[Option, ...] = (
    Option("host", str, "127.0.0.1", "address to bind (default: %(default)s)"),
    Option("port", int, 8000, "TCP port to bind (default: %(default)s)"),
    Option("uds", str, None, "bind a Unix domain socket at this path instead of host:port"),
    Option("backlog", int, 2048, "listen backlog (default: %(default)s)"),
    Option("factory", _bool, False, "APP is a callable that returns the application", flag=True),
    Option("interface", str, "auto", "application interface; auto: an async callable of three parameters is "
           "ASGI (default: %(default)s)", choices=("auto", "wsgi", "asgi")),
    Option("loop", str, "auto", "ASGI: the asyncio loop; auto picks uvloop when it is installed (default: %(default)s)",
           choices=("auto", "asyncio", "uvloop")),
    Option("lifespan", str, "auto", "ASGI: run the lifespan protocol; auto serves an app that does not support it "
           "(default: %(default)s)", choices=("auto", "on", "off")),
    Option("asgi_mode", str, "pump", "ASGI: pump runs the native loop on its own thread; inverted runs it inside "
           "asyncio on one thread (BATON_INVERTED=1 too) (default: %(default)s)", choices=("pump", "inverted")),
    Option("native_hello", _bool, False, "serve a fixed hello answer from C++ (no app; the benchmark ceiling)",
           flag=True),
    Option("keep_alive_timeout", _positive_float, 5.0,
           "seconds an idle keep-alive connection is kept open (default: %(default)s)"),
    Option("header_read_timeout", _positive_float, 10.0,
           "seconds a client has to send a whole request head (default: %(default)s)"),
    Option("max_header_size", int, 32768, "largest request head in bytes; larger gets 431 (default: %(default)s)"),
    Option("max_headers", int, 100, "most header fields in a request; more gets 431 (default: %(default)s)"),
    Option("max_body_size", int, 0, "largest request body in bytes, 0 for no limit; larger gets 413 "
           "(default: %(default)s)"),
    Option("blocking_threads", int, 4,
           "Python threads that run a WSGI app; 0 runs it on the event loop's own thread (default: %(default)s)"),
    Option("body_read_timeout", _positive_float, 60.0,
           "seconds a client has to send a whole request body (default: %(default)s)"),
    Option("graceful_timeout", _positive_float, 5.0,
           "seconds to finish in-flight requests after SIGTERM/SIGINT (default: %(default)s)"),
    Option("root_path", str, "", "SCRIPT_NAME the app is mounted at (default: empty)"),
    Option("log_level", str, "info", "log level (default: %(default)s)", choices=LOG_LEVELS),
)


@dataclasses.dataclass(frozen=True)
class Config:
    app: str | None
    host: str
    port: int
    uds: str | None
    backlog: int
    factory: bool
    interface: str
    loop: str
    lifespan: str
    asgi_mode: str
    native_hello: bool
    keep_alive_timeout: float
    header_read_timeout: float
    max_header_size: int
    max_headers: int
    max_body_size: int
    blocking_threads: int
    body_read_timeout: float
    graceful_timeout: float
    root_path: str
    log_level: str

    @property
    def bind_description(self) -> str:
        return f"unix:{self.uds}" if self.uds else f"http://{self.host}:{self.port}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baton",
        description="Serve a WSGI application with a C++ request path.",
        epilog="Every option can also be set as an environment variable: BATON_ plus its name in capitals "
        "with underscores, for example BATON_PORT=9000 or BATON_KEEP_ALIVE_TIMEOUT=10.",
    )
    parser.add_argument("app", nargs="?", metavar="APP",
                        help="the application as module:attribute (the attribute may be dotted)")
    for option in OPTIONS:
        if option.flag:
            parser.add_argument(option.cli, dest=option.name, action="store_const", const=True, default=None,
                                help=option.help)
        else:
            parser.add_argument(option.cli, dest=option.name, type=option.kind, default=None,
                                choices=option.choices, metavar=option.name.upper(),
                                help=option.help % {"default": option.default} if "%(default)" in option.help
                                else option.help)
    return parser


def resolve(argv: list[str] | None = None, environ: dict[str, str] | None = None) -> Config:
    """Parse argv and the environment into a Config. Exits with status 2 on bad input."""
    environ = os.environ if environ is None else environ
    parser = build_parser()
    args = parser.parse_args(argv)
    values: dict[str, Any] = {"app": args.app if args.app is not None else environ.get("BATON_APP")}
    for option in OPTIONS:
        value = getattr(args, option.name)
        if value is None and option.env in environ:
            try:
                value = option.kind(environ[option.env])
            except ValueError as error:
                parser.error(f"{option.env}={environ[option.env]!r}: {error}")
            if option.choices and value not in option.choices:
                parser.error(f"{option.env}={value!r}: choose from {', '.join(option.choices)}")
        values[option.name] = option.default if value is None else value
    config = Config(**values)
    if config.app is None and not config.native_hello:
        parser.error("APP is required (module:attribute), unless --native-hello is given")
    if not 0 <= config.port <= 65535:
        parser.error(f"--port {config.port}: not a port number")
    return config
