"""Apps for the metrics tests (tests/integration/test_metrics.py): answers of
each status class, a slow view, one that keeps the memory it is asked for
(a worker growing past --max-worker-rss), a thread that holds the GIL
(the loop's wait for it), and an ASGI app: a WebSocket
echo and a view that awaits a while."""

import asyncio
import os
import threading
import time
from urllib.parse import parse_qs

_kept: list[bytes] = []


def _spin(until: float) -> None:
    while time.monotonic() < until:
        pass


def app(environ, start_response):
    path = environ["PATH_INFO"]
    q = {k: v[0] for k, v in parse_qs(environ.get("QUERY_STRING", "")).items()}
    status = "200 OK"
    if path == "/missing":
        status, body = "404 Not Found", b"not here"
    elif path == "/fail":
        raise RuntimeError("the view failed on purpose")
    elif path == "/slow":
        time.sleep(float(q.get("s", "1")))
        body = b"slow"
    elif path == "/grow":
        _kept.append(os.urandom(int(q.get("mb", "10")) << 20))  # random bytes: every page touched
        body = str(os.getpid()).encode()
    elif path == "/spin":
        # A thread of the app's own that runs pure Python for s seconds:
        # while it holds the GIL the loop thread waits to take it back.
        threading.Thread(target=_spin, args=(time.monotonic() + float(q.get("s", "2")),), daemon=True).start()
        body = b"spinning"
    elif path == "/pid":
        body = str(os.getpid()).encode()
    else:
        body = environ["wsgi.input"].read() or b"ok"
    start_response(status, [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": event.get("text"), "bytes": event.get("bytes")})
    if scope["path"] == "/slow":
        await asyncio.sleep(float(parse_qs(scope["query_string"].decode()).get("s", ["1"])[0]))
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})
