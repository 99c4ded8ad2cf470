"""Apps for the --threads suite (tests/freethreaded), run on a free-threaded
CPython: which loop thread answered and whether the GIL is on, a request
that waits until another request releases it (two loops serving at once),
slow and CPU-bound views, views that raise, lifespan counted per loop, a
WebSocket echo, and calls recorded in BATON_TEST_RECORD."""

import asyncio
import json
import os
import sys
import threading
import time
from urllib.parse import parse_qs

RECORD = os.environ.get("BATON_TEST_RECORD")
_record_lock = threading.Lock()
_gates: dict[str, threading.Event] = {}
_gates_lock = threading.Lock()


def record(line: str) -> None:
    if RECORD:
        with _record_lock, open(RECORD, "a") as f:
            f.write(line + "\n")


def gate(name: str) -> threading.Event:
    with _gates_lock:
        return _gates.setdefault(name, threading.Event())


def query(qs: str) -> dict:
    return {k: v[0] for k, v in parse_qs(qs).items()}


def whoami() -> bytes:
    return json.dumps({"thread": threading.current_thread().name, "gil": sys._is_gil_enabled(),
                       "pid": os.getpid()}).encode()


def busy(ms: float) -> None:
    """Pure Python work for about `ms` of this thread's CPU time."""
    end = time.thread_time() + ms / 1000
    x = 0
    while time.thread_time() < end:
        x += 1


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    q = query(environ.get("QUERY_STRING", ""))
    record(f"{path} {threading.current_thread().name}")
    status = "200 OK"
    if path == "/whoami":
        body = whoami()
    elif path == "/hold":
        # Waits (its loop thread inside the app) until /release opens the gate.
        record(f"holding {q['gate']}")
        opened = gate(q["gate"]).wait(float(q.get("timeout", "10")))
        body = json.dumps({"released": opened, "thread": threading.current_thread().name}).encode()
    elif path == "/release":
        gate(q["gate"]).set()
        body = whoami()
    elif path == "/sleep":
        time.sleep(float(q.get("s", "0.5")))
        body = b"slept"
    elif path == "/cpu":
        busy(float(q.get("ms", "5")))
        body = b"done"
    elif path == "/raise":
        raise RuntimeError("the view failed on purpose")
    elif path == "/echo":
        body = environ["wsgi.input"].read()
    else:
        status, body = "404 Not Found", b"not here"
    start_response(status, [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(body)))])
    return [body]


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                record(f"startup {threading.current_thread().name}")
                scope["state"]["loop_thread"] = threading.current_thread().name
                await send({"type": "lifespan.startup.complete"})
            else:
                record(f"shutdown {threading.current_thread().name}")
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
    path = scope["path"]
    q = query(scope["query_string"].decode())
    record(f"{path} {threading.current_thread().name}")
    if path == "/whoami":
        info = json.loads(whoami())
        info["state"] = scope.get("state", {}).get("loop_thread")
        body = json.dumps(info).encode()
    elif path == "/sleep":
        await asyncio.sleep(float(q.get("s", "0.5")))
        body = b"slept"
    elif path == "/cpu":
        busy(float(q.get("ms", "5")))
        body = b"done"
    elif path == "/raise":
        raise RuntimeError("the view failed on purpose")
    else:
        body = b"not here"
    await send({"type": "http.response.start", "status": 200 if body != b"not here" else 404,
                "headers": [(b"content-type", b"application/octet-stream")]})
    await send({"type": "http.response.body", "body": body})
