"""The baton command: parse options, prepare the process, then serve alone
or start a master that runs workers."""

from __future__ import annotations

import dataclasses
import os
import sys

from baton import binding, config_file, hooks, loading, logging_setup, metrics, switches
from baton import config as config_module
from baton.config import Config
from baton.config_file import FileSettings
from baton.stop_reason import StopReason
from baton.process import fail, load_app, remove_pid, serve_in_process, write_pid

# The directory baton was started from: a reload in place (SIGHUP) starts
# over from it, so relative paths in the command line mean what they meant.
START_DIRECTORY = os.getcwd()
REEXEC_MARK = "BATON_REEXEC"


def read_env_file(path: str) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped, 'export ' and matching quotes removed."""
    values: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("export "):
                line = line[len("export "):].lstrip()
            key, sep, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key.replace("_", "a").isalnum():
                raise ValueError(f"{path}:{number}: expected KEY=VALUE")
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            values[key] = value
    return values


def prepare(config: Config) -> None:
    """What must happen before the app is imported, in this order: --chdir,
    --env-file (not over variables already set), --app-dir."""
    if config.chdir:
        os.chdir(config.chdir)
    if config.env_file:
        if not os.path.isfile(config.env_file):
            raise config_module.UsageError(f"--env-file: no such file: {config.env_file!r}")
        for key, value in read_env_file(config.env_file).items():
            os.environ.setdefault(key, value)
    if config.app_dir:
        sys.path.insert(0, config.app_dir)
    if config.access_log and config.access_logfile not in ("", "-"):
        try:
            open(config.access_logfile, "a", encoding="utf-8").close()
        except OSError as error:
            raise OSError(f"cannot open the access log {config.access_logfile}: {error.strerror}") from None


def reload_in_place(kept: list[int], unix_paths: list[str], argv: list[str]) -> None:
    """Starts this program over in this process (same pid) on the same sockets,
    passed as systemd passes them (LISTEN_FDS from descriptor 3): `argv`
    is what runs again."""
    count = len(kept)
    # First out of the way of 3..3+count, then into place, inheritable.
    high = [os.dup(fd) for fd in kept]
    for fd in kept:
        os.close(fd)
    moved = []
    for fd in high:
        while fd < 3 + count:
            fd = os.dup(fd)
        moved.append(fd)
    for i, fd in enumerate(moved):
        os.dup2(fd, binding.SD_LISTEN_FDS_START + i, inheritable=True)
    os.environ["LISTEN_FDS"] = str(count)
    os.environ["LISTEN_PID"] = str(os.getpid())
    os.environ[REEXEC_MARK] = os.pathsep.join(unix_paths) or "-"
    os.chdir(START_DIRECTORY)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)


def command_argv() -> list[str]:
    """The baton command as it was started, for a reload in place."""
    return [sys.executable, "-m", "baton", *sys.argv[1:]]


def serve_alone(config: Config, argv: list[str]) -> int:
    """Serving in this process, its own one worker (hooks: baton.hooks)."""
    server = hooks.Server(config)
    worker = hooks.Worker(server, 1, os.getpid())
    hooks.call("nworkers_changed", server, 1, None)
    hooks.call("on_starting", server)
    hooks.call("post_fork", server, worker)
    try:
        app, interface = load_app(config)
    except loading.AppLoadError as error:
        return fail(str(error), error.detail)
    worker.wsgi, worker.booted = app, True
    hooks.call("post_worker_init", worker)
    reexec = os.environ.pop(REEXEC_MARK, None)
    try:
        listeners = binding.spread(binding.open_listeners(config), config)
    except binding.BindError as error:
        return fail(str(error))
    if reexec:
        # Unix sockets the first start created are still ours to remove.
        owned = set(reexec.split(os.pathsep))
        for listener in listeners:
            if listener.where.startswith("unix:") and listener.where[5:] in owned:
                listener.unix_path = listener.where[5:]
    try:
        region = metrics.start(config, 1)
    except binding.BindError as error:
        binding.close_listeners(listeners)
        return fail(str(error))
    write_pid(config)
    unix_paths = [listener.unix_path for listener in listeners if listener.unix_path]
    from baton.serve import WorkerContext

    context = WorkerContext()
    if region is not None:
        region.started(0, os.getpid(), False)
        context.metrics = (region, 0)
        logging_setup.logger.info("metrics at %s", metrics.shown(config))
    hooks.call("when_ready", server)
    status, reason, kept = serve_in_process(config, app, interface, listeners, context)
    worker.alive = False
    hooks.call("worker_exit", server, worker)
    if reason is StopReason.HANGUP and kept:
        logging_setup.logger.info("reloading: starting over on the same sockets")
        hooks.call("on_reload", server)
        hooks.call("pre_exec", server)
        reload_in_place(kept, unix_paths, argv)
    for path in unix_paths:
        binding.remove_socket_file(binding.Listener(None, "", "", 0, path))
    remove_pid(config)
    hooks.call("on_exit", server)
    logging_setup.logger.info("baton stopped")
    return status


def start(config: Config, settings: FileSettings | None = None, argv: list[str] | None = None) -> int:
    """Everything after the options are resolved, for the command and baton.run():
    the file's environment and hooks, the process prepared, logging, then
    serving alone or under a master. Raises UsageError for a bad path."""
    if settings is not None:
        config_file.apply_environment(settings)
    hooks.install(settings.hooks if settings is not None else {})
    try:
        prepare(config)
    except (OSError, ValueError) as error:
        return fail(str(error))
    try:
        logging_setup.configure(config.log_level, config.log_config)
    except Exception as error:  # noqa: BLE001 - a broken logging file is the user's, in one line
        return fail(f"--log-config {config.log_config}: {type(error).__name__}: {error}")
    if config.log_config:
        logging_setup.route_core_logs()
        if config.access_log and config.access_logfile in ("", "-"):
            routed = logging_setup.route_access_log(config.access_log_format == "json")
            config = dataclasses.replace(config, access_logfile=routed)
    former = switches.former_names_set()
    if former:
        logging_setup.logger.warning("ignored: %s; see README's \"Switches for benchmarks\"", ", ".join(former))
    if settings is not None:
        for note in settings.notes:
            logging_setup.logger.info("%s", note)
        if settings.warning():
            logging_setup.logger.warning("%s", settings.warning())
    if config.supervised:
        from baton import master

        return master.run(config)
    return serve_alone(config, argv or command_argv())


def main(argv: list[str] | None = None) -> int:
    resolved = config_module.load(argv)
    if resolved.print_config:
        from baton import config_report

        print(config_report.render(resolved))
        return 0
    try:
        return start(resolved.config, resolved.file)
    except config_module.UsageError as error:
        print(f"baton: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
