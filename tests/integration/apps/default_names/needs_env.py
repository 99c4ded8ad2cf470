"""Fails at import like a settings module without its variable."""

import os

DATABASE_URL = os.environ["DATABASE_URL"]


def app(environ, start_response):
    body = DATABASE_URL.encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
