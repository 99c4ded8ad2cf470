"""The baton command: parse options, load the app, bind, serve."""

from __future__ import annotations

import sys

from baton import config as config_module
from baton import loading, logging_setup


def fail(message: str) -> int:
    print(f"baton: error: {message}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    config = config_module.resolve(argv)
    logging_setup.configure(config.log_level)
    app, interface = None, "wsgi"
    if not config.native_hello:
        try:
            app, interface = loading.load(config.app, config.factory, config.interface)
        except loading.AppLoadError as error:
            return fail(str(error))
    from baton import serve  # imports the extension; kept out of --help's path

    try:
        sock = serve.bind(config)
    except OSError as error:
        return fail(f"cannot listen on {config.bind_description}: {error.strerror or error}")
    if interface == "asgi":
        from baton import asgi

        status = asgi.run(config, app, sock, serve.describe(config, sock))
        serve.remove_socket_file(config)
        logging_setup.logger.info("baton stopped")
        return status
    serve.run(config, app, sock)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
