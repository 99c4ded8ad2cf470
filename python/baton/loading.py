"""Finding the application: module:attribute, optional factory, interface."""

from __future__ import annotations

import importlib
import inspect
import sys
import traceback

# What a module given without an attribute is searched for, in order.
DEFAULT_ATTRIBUTES = ("application", "app")


class AppLoadError(Exception):
    """The application could not be loaded. The message is one line for the
    user; `detail` is the traceback of the app's own error, when there is one."""

    def __init__(self, message: str, detail: str = ""):
        super().__init__(message)
        self.detail = detail


def _failure(message: str, error: BaseException) -> AppLoadError:
    detail = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return AppLoadError(f"{message}: {type(error).__name__}: {error}", detail)


def import_from_string(spec: str):
    module_name, sep, attribute = spec.partition(":")
    if not module_name or (sep and not attribute):
        raise AppLoadError(f"APP must be module:attribute or a module, got {spec!r}")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")  # the current directory, as other servers do
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and (module_name == error.name or module_name.startswith(error.name + ".")):
            raise AppLoadError(f"could not import module {module_name!r}: {error}") from None
        raise _failure(f"importing {module_name!r} failed", error) from error
    except Exception as error:
        raise _failure(f"importing {module_name!r} failed", error) from error
    if not attribute:
        for name in DEFAULT_ATTRIBUTES:
            if hasattr(module, name):
                attribute = name
                break
        else:
            raise AppLoadError(f"module {module_name!r} has no attribute {' or '.join(map(repr, DEFAULT_ATTRIBUTES))}; "
                               f"name the app as {module_name}:ATTRIBUTE")
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
    return prepare(import_from_string(spec), spec, factory, interface)


def named(app) -> str:
    """An app object's name for the logs, as module:attribute would name it."""
    module = getattr(app, "__module__", None) or type(app).__module__
    name = getattr(app, "__qualname__", None) or type(app).__qualname__
    return f"{module}:{name}"


def prepare(app, spec: str, factory: bool, interface: str) -> tuple[object, str]:
    """An app found (or given as an object): its factory called, and its interface."""
    if factory:
        try:
            app = app()
        except Exception as error:
            raise _failure(f"the factory {spec!r} raised", error) from error
    if not callable(app):
        raise AppLoadError(f"{spec!r} is not callable")
    if interface == "auto":
        interface = "asgi" if is_asgi(app) else "wsgi"
    return app, interface
