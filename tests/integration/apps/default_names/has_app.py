"""A module whose app is called `app` (Flask's habit)."""


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "3")])
    return [b"app"]
