"""The bare WSGI hello every benchmark arm serves: the same bytes everywhere."""

BODY = b"Hello, World!"
HEADERS = [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))]


def application(environ, start_response):
    start_response("200 OK", HEADERS)
    return [BODY]
