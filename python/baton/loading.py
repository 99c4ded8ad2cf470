"""Finding the application: module:attribute, optional factory, interface."""

from __future__ import annotations

import importlib
import inspect
import sys


class AppLoadError(Exception):
    """The application could not be loaded; the message is one line for the user."""


def import_from_string(spec: str):
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise AppLoadError(f"APP must be module:attribute, got {spec!r}")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")  # the current directory, as other servers do
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and (module_name == error.name or module_name.startswith(error.name + ".")):
            raise AppLoadError(f"could not import module {module_name!r}: {error}") from None
        raise AppLoadError(f"importing {module_name!r} failed: {type(error).__name__}: {error}") from error
    except Exception as error:
        raise AppLoadError(f"importing {module_name!r} failed: {type(error).__name__}: {error}") from error
    target = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise AppLoadError(f"module {module_name!r} has no attribute {attribute!r}") from None
    return target


def is_asgi(app) -> bool:
    """An ASGI app is a coroutine function, or an object whose __call__ is one, of three parameters."""
    call = app if inspect.isroutine(app) else getattr(app, "__call__", None)
    if call is None or not inspect.iscoroutinefunction(call):
        return False
    try:
        parameters = inspect.signature(call).parameters
    except (TypeError, ValueError):
        return True
    return len(parameters) == 3


def load(spec: str, factory: bool, interface: str) -> tuple[object, str]:
    """The app and its interface ("wsgi" or "asgi")."""
    app = import_from_string(spec)
    if factory:
        try:
            app = app()
        except Exception as error:
            raise AppLoadError(f"the factory {spec!r} raised {type(error).__name__}: {error}") from error
    if not callable(app):
        raise AppLoadError(f"{spec!r} is not callable")
    if interface == "auto":
        interface = "asgi" if is_asgi(app) else "wsgi"
    return app, interface
