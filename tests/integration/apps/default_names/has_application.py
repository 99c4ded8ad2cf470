"""A module whose app is called `application` (Django's wsgi.py)."""


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "11")])
    return [b"application"]


def app(environ, start_response):  # found only when named
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "3")])
    return [b"app"]
