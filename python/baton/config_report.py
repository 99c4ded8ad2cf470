"""baton --print-config: every option's value as resolved, and where it came
from (default, file PATH, environment BATON_X, command line), one a line in
TOML's syntax, so that the lines with values can be copied into a .toml
configuration file."""

from __future__ import annotations

import json
from typing import Any

from baton.config import OPTIONS, Resolved


def shown(name: str, value: Any) -> str:
    if value is None:
        return "(not set)"
    if name == "uds_mode":
        return json.dumps(format(value, "04o"))  # octal, as --uds-mode takes it
    if isinstance(value, tuple):
        return json.dumps(list(value))
    return json.dumps(value)


def render(resolved: Resolved) -> str:
    config, sources = resolved.config, resolved.sources
    names = ["app", *(option.name for option in OPTIONS)]
    lines = []
    for name in names:
        value = getattr(config, name)
        text = f"{name} = {shown(name, value)}"
        if value is None:
            text = "# " + text
        lines.append(f"{text:<48}  # {sources.get(name, 'default')}")
    settings = resolved.file
    if settings is not None:
        if settings.hooks:
            lines.append(f"# server hooks from {settings.path}: {', '.join(sorted(settings.hooks))}")
        lines += [f"# note: {note}" for note in settings.notes]
        if settings.warning():
            lines.append(f"# warning: {settings.warning()}")
    return "\n".join(lines)
