"""Apps for baton.run() and baton.serving(): a WSGI and an ASGI hello that
name the process that answered, and slow ones that say when they start."""

import asyncio
import os
import threading
import time

# Set by the slow apps once a request is inside them (serving() runs them in this process).
inside = threading.Event()


def hello(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [f"wsgi {os.getpid()}".encode()]


def slow(environ, start_response):
    inside.set()
    time.sleep(float(environ.get("QUERY_STRING") or "0.5"))
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"slow done"]


async def hello_asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": f"asgi {os.getpid()}".encode()})


async def slow_asgi(scope, receive, send):
    if scope["type"] != "http":
        raise RuntimeError("no lifespan here")
    inside.set()
    await asyncio.sleep(float(scope["query_string"] or b"0.5"))
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"slow done"})


async def failing_startup(scope, receive, send):
    assert scope["type"] == "lifespan"
    await receive()
    await send({"type": "lifespan.startup.failed", "message": "no database"})
