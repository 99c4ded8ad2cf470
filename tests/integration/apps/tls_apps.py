"""Apps for the TLS tests: what a request over TLS looks like from inside
(WSGI's url_scheme, ASGI's scheme and tls extension), bodies both ways, a
reader slow enough to fill the body window, and a file."""

import json
import os
import tempfile
import time

FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-tls-file-{os.getpid()}.bin")
FILE_BYTES = os.urandom(1 << 20) + b"the end"
with open(FILE_PATH, "wb") as f:
    f.write(FILE_BYTES)


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/info":
        body = json.dumps({"scheme": environ["wsgi.url_scheme"], "port": environ["SERVER_PORT"],
                           "protocol": environ["SERVER_PROTOCOL"]}).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    if path == "/echo":
        stream = environ["wsgi.input"]
        slow = "slow" in environ.get("QUERY_STRING", "")
        parts = []
        while True:
            part = stream.read(4096 if slow else 65536)
            if not part:
                break
            parts.append(part)
            if slow:
                time.sleep(0.002)
        body = b"".join(parts)
        start_response("200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(body)))])
        return [body]
    if path == "/file":
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return environ["wsgi.file_wrapper"](open(FILE_PATH, "rb"), 65536)
    start_response("404 Not Found", [("Content-Length", "0")])
    return []


def _tls_summary(scope):
    tls = scope["extensions"].get("tls")
    return None if tls is None else {key: tls[key] for key in sorted(tls)}


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    path = scope["path"]
    if path == "/info":
        body = json.dumps({"scheme": scope["scheme"], "tls": _tls_summary(scope)}).encode()
    elif path == "/echo":
        # Streams the body back as it comes.
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/octet-stream")]})
        while True:
            event = await receive()
            await send({"type": "http.response.body", "body": event.get("body", b""), "more_body": True})
            if not event.get("more_body"):
                break
        await send({"type": "http.response.body", "body": b""})
        return
    else:
        body = b"not here"
    await send({"type": "http.response.start", "status": 200 if path == "/info" else 404,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
