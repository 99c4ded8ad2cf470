"""Baton: an application server for Python web apps whose request path is C++.

baton.run(app, **options) serves as the command does; baton.serving(app,
**options) serves on a thread of this process, for tests. Both are imported
on first use, so that `import baton` stays light for the command's --help.
"""

__version__ = "0.1.0"
__all__ = ["run", "serving", "__version__"]


def __getattr__(name: str):
    if name == "run":
        from baton.api import run

        return run
    if name == "serving":
        from baton.background import serving

        return serving
    raise AttributeError(f"module 'baton' has no attribute {name!r}")
