"""Serves a WSGI app with a server that has only a Python API, for the
arms that need one: `python -m bench.harness.serve_peer SERVER module:attribute PORT`
(from the project's root).

fastpysgi (libuv and llhttp, the successor of FastWSGI) and bjoern (libev
and http-parser) each run one process with one thread, the app on its
event loop, as baton's inline shape does.
"""

import importlib
import sys


def main() -> None:
    server, target, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    module, attribute = target.split(":")
    app = getattr(importlib.import_module(module), attribute)
    if server == "fastpysgi":
        import fastpysgi
        fastpysgi.run(wsgi_app=app, host="127.0.0.1", port=port, loglevel=0)
    elif server == "bjoern":
        import bjoern
        bjoern.run(app, "127.0.0.1", port)
    else:
        raise SystemExit(f"unknown server {server!r}")


if __name__ == "__main__":
    main()
