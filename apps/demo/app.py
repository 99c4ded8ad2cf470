"""The demo app `make serve` runs: a page, a JSON route, a form echo.

Plain WSGI, no framework, so it runs on a fresh machine with nothing but
baton installed.
"""

import html
import json
import platform
import time
from urllib.parse import parse_qs

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>baton demo</title></head>
<body>
<h1>Served by baton</h1>
<p>This page came from a WSGI app through baton's C++ request path.</p>
<ul>
<li><a href="/api/status">/api/status</a> &mdash; a JSON route</li>
<li><a href="/stream">/stream</a> &mdash; a streamed response</li>
</ul>
<form method="post" action="/echo"><input name="message" value="hello">
<button>POST /echo</button></form>
</body></html>
"""

STARTED = time.time()


def application(environ, start_response):
    path = environ.get("PATH_INFO", "/")
    method = environ["REQUEST_METHOD"]
    if path == "/" and method in ("GET", "HEAD"):
        body = PAGE.encode()
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [body]
    if path == "/api/status":
        body = json.dumps({
            "server": "baton",
            "python": platform.python_version(),
            "uptime_seconds": round(time.time() - STARTED, 3),
            "remote_addr": environ.get("REMOTE_ADDR"),
        }).encode()
        start_response("200 OK", [("Content-Type", "application/json")])
        return [body]
    if path == "/echo" and method == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        fields = parse_qs(environ["wsgi.input"].read(length).decode("utf-8", "replace"))
        message = fields.get("message", [""])[0]
        body = f"<p>You said: {html.escape(message)}</p><p><a href='/'>back</a></p>".encode()
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [body]
    if path == "/stream":
        start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8")])
        return (f"line {i}\n".encode() for i in range(5))
    start_response("404 Not Found", [("Content-Type", "text/plain")])
    return [b"not found\n"]
