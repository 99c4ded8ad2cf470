"""The configuration file (-c FILE, or BATON_CONFIG): a gunicorn-style
Python file, or a TOML file of baton's option names. Its values are the
lowest layer, under the environment and the command line (config.load).

A Python file is run as gunicorn runs its gunicorn.conf.py: its module-level
names are settings, under gunicorn's names (baton.gunicorn_settings) or
baton's own, and its functions named after gunicorn's server hooks are
hooks (baton.hooks). Other names (imports, helpers) are the file's own
business and left alone, as gunicorn leaves them.

A TOML file holds baton's option names (dashes or underscores) at its top
level, and `app`; a name baton does not know is an error.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import importlib.util
import os
import traceback
import types
from typing import Any, Callable

from baton import gunicorn_settings
from baton.config import OPTION_NAMES, OPTIONS_BY_NAME, ConfigError, Layer, converted_value


@dataclasses.dataclass
class FileSettings:
    path: str
    layer: Layer = dataclasses.field(default_factory=Layer)
    app: str | None = None
    hooks: dict[str, Callable] = dataclasses.field(default_factory=dict)
    raw_env: dict[str, str] = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)  # one info line each
    not_had: list[str] = dataclasses.field(default_factory=list)  # gunicorn settings baton has nothing for
    module: types.ModuleType | None = None  # a Python file's, kept: its hooks' globals live in it

    @property
    def where(self) -> str:
        return f"file {self.path}"

    def warning(self) -> str | None:
        """The one line that names every setting of the file baton does not have."""
        if not self.not_had:
            return None
        return (f"{self.path}: baton has no setting for {', '.join(self.not_had)}; "
                f"{'it is' if len(self.not_had) == 1 else 'they are'} ignored")

    def put(self, name: str, value: Any, given_as: str) -> None:
        """baton's option `name` from the file's `given_as = value`."""
        if value is None:
            return  # gunicorn's way of leaving a setting at its default
        try:
            self.layer.put(name, converted_value(OPTIONS_BY_NAME[name], value), self.where)
        except ValueError as error:
            shown = given_as if given_as == name else f"{given_as} (--{name.replace('_', '-')})"
            raise ConfigError(f"{self.path}: {shown} = {value!r}: {error}") from None


def read(path: str) -> FileSettings:
    """PATH, file:PATH or python:MODULE, as gunicorn's -c takes them."""
    if path.startswith("python:"):
        return read_module(path[len("python:"):])
    path = path.removeprefix("file:")
    if not os.path.isfile(path):
        raise ConfigError(f"--config: no such file: {path!r}")
    if path.endswith(".toml"):
        return read_toml(path)
    return read_python(path)


def read_module(name: str) -> FileSettings:
    """python:MODULE: an importable module in gunicorn's form."""
    try:
        module = importlib.import_module(name)
    except Exception as error:  # noqa: BLE001 - any failure of the user's module is one line
        raise ConfigError(f"--config python:{name}: {type(error).__name__}: {error}") from None
    return settings_of(FileSettings(f"python:{name}", module=module))


def run_python_file(path: str) -> types.ModuleType:
    """The file run as a module (as gunicorn runs gunicorn.conf.py); an
    error in it is one line naming the file's line."""
    loader = importlib.machinery.SourceFileLoader("__config__", path)
    spec = importlib.util.spec_from_file_location("__config__", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    try:
        loader.exec_module(module)
    except BaseException as error:  # noqa: BLE001 - any failure of the user's file is one line
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
        line = f":{frames[-1].lineno}" if frames else (f":{error.lineno}" if getattr(error, "lineno", None) else "")
        raise ConfigError(f"{path}{line}: {type(error).__name__}: {error}") from None
    return module


def read_python(path: str) -> FileSettings:
    return settings_of(FileSettings(path, module=run_python_file(path)))


def settings_of(settings: FileSettings) -> FileSettings:
    """A gunicorn-style module's settings and hooks."""
    for name, value in vars(settings.module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if name in gunicorn_settings.HOOKS or name in gunicorn_settings.HOOKS_NOT_CALLED:
            take_hook(settings, name, value)
        elif gunicorn_settings.is_setting(name):
            take_gunicorn_setting(settings, name, value)
        elif name == "app" and isinstance(value, str):
            settings.app = value
        elif name in OPTION_NAMES and not callable(value):
            settings.put(name, value, name)
    return settings


def take_hook(settings: FileSettings, name: str, value: Any) -> None:
    if not callable(value):
        raise ConfigError(f"{settings.path}: {name} must be a function (a gunicorn server hook), got {value!r}")
    if name in gunicorn_settings.HOOKS:
        settings.hooks[name] = value
    else:
        settings.not_had.append(name)


def take_gunicorn_setting(settings: FileSettings, name: str, value: Any) -> None:
    try:
        done = gunicorn_settings.translate(name, value)
    except ConfigError as error:
        raise ConfigError(f"{settings.path}: {error}") from None
    for option, option_value in done.options:
        settings.put(option, option_value, name)
    if done.app is not None:
        settings.app = done.app
    settings.raw_env.update(done.raw_env)
    if done.note:
        settings.notes.append(f"{settings.path}: {done.note}")
    if done.not_had:
        settings.not_had.append(name)


def load_toml(path: str) -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise ConfigError(f"{path}: reading TOML needs Python 3.11 or later, or `pip install tomli`") from None
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None


def read_toml(path: str) -> FileSettings:
    settings = FileSettings(path)
    unknown = []
    for key, value in load_toml(path).items():
        name = key.replace("-", "_")
        if name == "app":
            if not isinstance(value, str):
                raise ConfigError(f"{path}: app = {value!r}: expected module:attribute")
            settings.app = value
        elif name in OPTION_NAMES:
            settings.put(name, value, key)
        else:
            unknown.append(key)
    if unknown:
        raise ConfigError(f"{path}: unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                          "(a TOML file takes baton's option names, as `baton --help` lists them)")
    return settings


def apply_environment(settings: FileSettings) -> None:
    """raw_env: set in this process (the master's, so every worker has them),
    over what is already set, as gunicorn sets them."""
    for key, value in settings.raw_env.items():
        os.environ[key] = value
