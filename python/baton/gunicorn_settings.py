"""gunicorn's settings by name, as a gunicorn.conf.py sets them: the baton
option each becomes, the ones baton has nothing for, and the server hooks.

A name whose meaning is the same in both goes straight across (MAPPED); a
few need a word of translation (translate()); the rest baton has no
counterpart for, and a file that sets one to anything but gunicorn's own
default is told so, all of them named in one warning line.
"""

from __future__ import annotations

from typing import Any, Callable

from baton.config import OPTION_NAMES, ConfigError

# gunicorn's name -> baton's option, where the two mean the same thing.
MAPPED = {
    "bind": "bind",
    "backlog": "backlog",
    "workers": "workers",
    "timeout": "timeout",
    "graceful_timeout": "graceful_timeout",
    "keepalive": "keep_alive_timeout",
    "max_requests": "max_requests",
    "max_requests_jitter": "max_requests_jitter",
    "reload": "reload",
    "reuse_port": "reuse_port",
    "chdir": "chdir",
    "pidfile": "pid",
    "loglevel": "log_level",
    "logconfig": "log_config",
    "access_log_format": "access_log_format",
    "root_path": "root_path",
    "certfile": "ssl_certfile",
    "keyfile": "ssl_keyfile",
    "ca_certs": "ssl_ca_certs",
    "cert_reqs": "ssl_cert_reqs",
    "ciphers": "ssl_ciphers",
    "limit_request_fields": "max_headers",
    "asgi_loop": "loop",
    "asgi_lifespan": "lifespan",
    "http2_max_concurrent_streams": "h2_max_concurrent_streams",
    "http2_initial_window_size": "h2_initial_window_size",
    "http2_max_header_list_size": "h2_max_header_list_size",
}

# Hooks baton calls, at the moments baton.hooks describes.
HOOKS = ("on_starting", "on_reload", "when_ready", "pre_fork", "post_fork", "post_worker_init", "worker_abort",
         "pre_exec", "child_exit", "worker_exit", "nworkers_changed", "on_exit")
# Hooks of moments baton does not have: the core takes a worker's signals
# (worker_int), calls no Python around a request but the app (pre_request,
# post_request), and makes its own TLS context (ssl_context).
HOOKS_NOT_CALLED = ("worker_int", "pre_request", "post_request", "ssl_context", "on_dirty_starting",
                    "dirty_post_fork", "dirty_worker_init", "dirty_worker_exit")

ANY = object()  # a default no value equals: the setting is named whenever it is set
# gunicorn's settings baton has no counterpart for, with gunicorn's defaults:
# a file that restates a default is not warned about.
NOT_HAD = {
    "worker_connections": 1000, "spew": False, "check_config": False, "print_config": False,
    "reload_engine": "auto", "reload_extra_files": [], "sendfile": None, "worker_tmp_dir": None,
    "user": None, "group": None, "umask": 0, "initgroups": False, "tmp_upload_dir": None,
    "secure_scheme_headers": {"X-FORWARDED-PROTOCOL": "ssl", "X-FORWARDED-PROTO": "https", "X-FORWARDED-SSL": "on"},
    "proc_name": None, "default_proc_name": "gunicorn", "errorlog": "-", "capture_output": False,
    "logger_class": "gunicorn.glogging.Logger", "logconfig_dict": {}, "logconfig_json": None, "syslog_addr": ANY,
    "syslog": False, "syslog_prefix": None, "syslog_facility": "user", "enable_stdio_inheritance": False,
    "statsd_host": None, "dogstatsd_tags": "", "statsd_prefix": "", "enable_backlog_metric": False,
    "disable_redirect_access_to_syslog": False, "suppress_ragged_eofs": True, "do_handshake_on_connect": False,
    "limit_request_line": 4094, "limit_request_field_size": 8190, "paste": None, "raw_paste_global_conf": [],
    "protocol": "http", "uwsgi_allow_ips": "127.0.0.1,::1", "permit_obsolete_folding": False,
    "strip_header_spaces": False, "permit_unconventional_http_method": False,
    "permit_unconventional_http_version": False, "casefold_http_method": False,
    "forwarder_headers": "SCRIPT_NAME,PATH_INFO", "header_map": "drop", "asgi_disconnect_grace_period": 3,
    "http_parser": "auto", "http2_max_frame_size": 16384, "control_socket": ANY, "control_socket_mode": 0o600,
    "control_socket_disable": False, "dirty_apps": [], "dirty_workers": 0, "dirty_timeout": 300,
    "dirty_threads": 1, "dirty_graceful_timeout": 30, "preload_app": False, "pythonpath": None,
    # Deprecated and ignored by gunicorn itself: ignoring it changes nothing.
    "ssl_version": ANY,
}


def is_setting(name: str) -> bool:
    return name in MAPPED or name in NOT_HAD or name in _SPECIAL


def restates_default(name: str, value: Any) -> bool:
    default = NOT_HAD.get(name, ANY)
    return default is not ANY and (value == default or (value is None and default in ("", [], {})))


class Translation:
    """What one gunicorn setting says in baton's terms: options, the app, a note."""

    def __init__(self) -> None:
        self.options: list[tuple[str, Any]] = []
        self.app: str | None = None
        self.raw_env: dict[str, str] = {}
        self.note: str | None = None
        self.not_had = False


def translate(name: str, value: Any) -> Translation:
    """gunicorn's `name = value` as baton options; ConfigError for a value baton refuses."""
    done = Translation()
    special = _SPECIAL.get(name)
    if special is not None:
        special(value, done)
    elif name in MAPPED and MAPPED[name] in OPTION_NAMES:
        done.options.append((MAPPED[name], value))
    elif name in NOT_HAD and not restates_default(name, value):
        done.not_had = True
    return done


def _threads(value: Any, done: Translation) -> None:
    done.options.append(("blocking_threads", value))
    done.note = (f"threads = {value!r} taken as --blocking-threads {value}: gunicorn's threads are a worker's app "
                 "threads, which baton calls blocking threads (baton's --threads are event loops)")


def _accesslog(value: Any, done: Translation) -> None:
    if value is not None:
        done.options += [("access_log", True), ("access_logfile", value)]


def _forwarded_allow_ips(value: Any, done: Translation) -> None:
    done.options.append(("forwarded_allow_ips", ",".join(value) if isinstance(value, (list, tuple)) else value))


def _wsgi_app(value: Any, done: Translation) -> None:
    if value is not None:
        done.app = str(value)


def _raw_env(value: Any, done: Translation) -> None:
    for item in [value] if isinstance(value, str) else value or []:
        key, sep, text = str(item).partition("=")
        if not sep or not key:
            raise ConfigError(f"raw_env: expected KEY=VALUE, got {item!r}")
        done.raw_env[key] = text


def _daemon(value: Any, done: Translation) -> None:
    if value:
        raise ConfigError("daemon = True: baton does not daemonize itself; run it under a supervisor "
                          "(systemd, a container) that keeps it in the foreground")


def _worker_class(value: Any, done: Translation) -> None:
    done.note = (f"worker_class = {value!r} ignored: baton serves WSGI and ASGI apps itself "
                 "(--interface, --blocking-threads, --asgi-mode)")


def _http_protocols(value: Any, done: Translation) -> None:
    wanted = {part.strip() for part in str(value).split(",") if part.strip()}
    if wanted == {"h1"}:
        done.options.append(("http", "1"))
    elif wanted == {"h2"}:
        done.options.append(("http", "2"))
    elif wanted == {"h1", "h2"}:
        done.options.append(("http", "auto"))
    else:
        done.not_had = True


def _pythonpath(value: Any, done: Translation) -> None:
    paths = [part.strip() for part in str(value or "").split(",") if part.strip()]
    if len(paths) == 1:
        done.options.append(("app_dir", paths[0]))
    elif paths:
        done.not_had = True  # baton's --app-dir is one directory


def _preload_app(value: Any, done: Translation) -> None:
    if value:
        done.not_had = True
        done.note = ("preload_app = True: baton's master never imports the app, each worker does (baton.run() "
                     "given an app object is the way to load it once, before the fork)")


def _proxy_protocol(value: Any, done: Translation) -> None:
    # gunicorn's off, v1, v2 or auto (True in its older releases): baton tells
    # the two versions apart by themselves, so any of them turns it on.
    on = value is True or str(value).strip().lower() in ("v1", "v2", "auto", "true", "1", "on")
    done.options.append(("proxy_protocol", on))


def _proxy_allow_ips(value: Any, done: Translation) -> None:
    # The peers gunicorn believes a PROXY header from; baton asks the same
    # of --forwarded-allow-ips, which the file may give as well.
    _forwarded_allow_ips(value, done)
    done.note = ("proxy_allow_ips taken as --forwarded-allow-ips: baton trusts one list of peers for proxy "
                 "headers and PROXY headers alike")


def _errorlog(value: Any, done: Translation) -> None:
    if value not in (None, "-"):
        done.not_had = True  # baton's errors go to stderr, or where --log-config sends the 'baton' loggers


_SPECIAL: dict[str, Callable[[Any, Translation], None]] = {
    "threads": _threads, "accesslog": _accesslog, "forwarded_allow_ips": _forwarded_allow_ips,
    "wsgi_app": _wsgi_app, "raw_env": _raw_env, "daemon": _daemon, "worker_class": _worker_class,
    "http_protocols": _http_protocols, "pythonpath": _pythonpath, "preload_app": _preload_app,
    "errorlog": _errorlog, "proxy_protocol": _proxy_protocol, "proxy_allow_ips": _proxy_allow_ips,
    "config": lambda value, done: None, "ssl_version": lambda value, done: None,
}
