"""Apps for the TLS and HTTP/2 tests: what a request looks like from inside
(WSGI's url_scheme and SERVER_PROTOCOL, ASGI's scheme, http_version and tls
extension), bodies both ways, a reader slow enough to fill the body window,
a reader that consumes an exact count when the test lets it, slow and large
answers, trailers, a file, and answers held until a count of requests has
come (then all given in one turn of the app's loop). Every call is recorded (one line, its path)
in BATON_TEST_RECORD when that is set, so a test can tell what reached the
app."""

import asyncio
import json
import os
import tempfile
import time
from urllib.parse import parse_qs

RECORD = os.environ.get("BATON_TEST_RECORD")


def record(path):
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(path + "\n")


def pattern(n):
    """n bytes counting 0..250 over and over (made at C speed: an answer's size is no app cost)."""
    return (bytes(range(251)) * (n // 251 + 1))[:n]


def query(qs):
    return {k: v[0] for k, v in parse_qs(qs).items()}

FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-tls-file-{os.getpid()}.bin")
FILE_BYTES = os.urandom(1 << 20) + b"the end"
with open(FILE_PATH, "wb") as f:
    f.write(FILE_BYTES)


# /together?n=N: the requests wait here until N have come.
_together: dict[int, tuple[asyncio.Event, list]] = {}


async def together(n):
    event, arrived = _together.setdefault(n, (asyncio.Event(), []))
    arrived.append(1)
    if len(arrived) == n:
        del _together[n]  # the next N wait on an event of their own
        event.set()
    await event.wait()


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    q = query(environ.get("QUERY_STRING", ""))
    record(path)
    if path == "/slow":
        time.sleep(float(q.get("ms", "100")) / 1000)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"slow done"]
    if path == "/big":
        n = int(q.get("n", "1000000"))
        start_response("200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(n))])
        return [pattern(n)]
    if path == "/info":
        body = json.dumps({"scheme": environ["wsgi.url_scheme"], "port": environ["SERVER_PORT"],
                           "protocol": environ["SERVER_PROTOCOL"]}).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    if path == "/echo":
        stream = environ["wsgi.input"]
        slow = "slow" in environ.get("QUERY_STRING", "")
        time.sleep(float(q.get("wait", "0")) / 1000)  # reads nothing meanwhile: the body's window shuts
        parts = [stream.read()] if "whole" in q else []  # one read of it all, as Django's request.body does
        while "whole" not in q:
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
    if path == "/gated-read":
        return gated_read(environ, start_response, q)
    start_response("404 Not Found", [("Content-Length", "0")])
    return []


def gated_read(environ, start_response, q):
    """Reads exactly `n` body bytes, answers how many, then the rest, each step waiting for a
    byte on the FIFO `gate`: the test decides when the app consumes, and knows how much it has
    (the first answer chunk says so) while it waits for the second byte. A byte that never comes
    (the test closed its end: EOF) lets the app go on, so a failed test leaves no thread stuck."""
    stream = environ["wsgi.input"]
    with open(q["gate"], "rb", buffering=0) as gate:
        gate.read(1)
        first = stream.read(int(q["n"]))
        start_response("200 OK", [("Content-Type", "text/plain")])
        yield f"read {len(first)}\n".encode()
        gate.read(1)
    rest = stream.read()
    yield f"then {len(rest)}\n".encode()


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
    q = query(scope["query_string"].decode())
    record(path)
    if path == "/slow":
        await asyncio.sleep(float(q.get("ms", "100")) / 1000)
        body = b"slow done"
    elif path == "/together":
        await together(int(q["n"]))
        body = b"together"
    elif path == "/big":
        n = int(q.get("n", "1000000"))
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/octet-stream")]})
        data = pattern(n)
        for i in range(0, n, 65536):
            await send({"type": "http.response.body", "body": data[i:i + 65536], "more_body": True})
        await send({"type": "http.response.body", "body": b""})
        return
    elif path == "/trailers":
        await send({"type": "http.response.start", "status": 200, "trailers": True,
                    "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"with trailers", "more_body": False})
        await send({"type": "http.response.trailers", "headers": [(b"x-checksum", b"abc123")], "more_trailers": False})
        return
    elif path == "/info":
        body = json.dumps({"scheme": scope["scheme"], "tls": _tls_summary(scope),
                           "http_version": scope["http_version"]}).encode()
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
    await send({"type": "http.response.start", "status": 404 if body == b"not here" else 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
