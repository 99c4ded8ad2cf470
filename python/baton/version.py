"""What `baton --version` prints: baton's version on the first line, and on
the second the TLS library the extension carries (the OpenSSL linked, as it
names itself) and QUIC's libraries, or why QUIC is not built in. The
extension is loaded only when the option is given: the master, which parses
the command line, never needs it otherwise."""

from __future__ import annotations

import argparse

from baton import __version__


def version_text() -> str:
    try:
        from baton import _baton
    except ImportError as error:
        return f"baton {__version__}\n(the native extension does not load: {error})"
    quic = f"QUIC: {_baton.QUIC_LIBRARIES}" if _baton.HAS_QUIC else f"no QUIC: {_baton.QUIC_ABSENT_REASON}"
    return f"baton {__version__}\n{_baton.OPENSSL_VERSION}; {quic}"


class VersionAction(argparse.Action):
    """argparse's "version" action, with the text made only when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help=help or "print baton's version and its TLS library's, then exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(version_text())
        parser.exit()
