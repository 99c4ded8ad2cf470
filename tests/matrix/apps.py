"""The apps the matrix smoke suite serves. They import only the standard
library and what tools/locks/matrix.txt installs (Starlette, anyio, uvloop):
the venv they run in is a plain one, with baton's wheel alone beside those."""

import asyncio
import gc
import inspect
import os
import sys

import anyio
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route


def allocated_blocks() -> int:
    """Memory blocks Python's allocator holds after a full collection: a
    reference the bridge leaks per request shows as growth here."""
    gc.collect()
    return sys.getallocatedblocks()


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/raise":
        raise RuntimeError("the matrix app raised on purpose")
    if path == "/blocks":
        body = str(allocated_blocks()).encode()
    elif path == "/gil":
        body = f"gil={getattr(sys, '_is_gil_enabled', lambda: True)()}".encode()
    elif path == "/echo":
        body = environ["wsgi.input"].read()
    else:
        body = f"wsgi {sys.version_info.major}.{sys.version_info.minor}".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


async def asgi(scope, receive, send):
    """A bare ASGI app with lifespan (startup puts a value in the state, shutdown writes a file) and a WebSocket echo."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                scope["state"]["started"] = f"{sys.version_info.major}.{sys.version_info.minor}"
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                marker = os.environ.get("MATRIX_SHUTDOWN_FILE")
                if marker:
                    with open(marker, "w") as f:
                        f.write("shut down")
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "websocket":
        # An echo: each message back as it came, text as text, bytes as bytes.
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
            elif message["type"] == "websocket.receive":
                await send({"type": "websocket.send", "text": message.get("text"), "bytes": message.get("bytes")})
            else:
                return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    path = scope["path"]
    if path == "/blocks":
        answer = str(allocated_blocks()).encode()
    elif path == "/echo":
        answer = body
    elif path == "/state":
        answer = scope["state"]["started"].encode()
    elif path == "/stack":
        # The Python functions under the app's first step: with eager task
        # starts the step runs inside the drain that made the task.
        answer = " ".join(frame.function for frame in inspect.stack()).encode()
    else:
        answer = f"asgi {sys.version_info.major}.{sys.version_info.minor}".encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(answer)).encode())]})
    await send({"type": "http.response.body", "body": answer})


async def json_route(request):
    return JSONResponse({"hello": "world", "task": asyncio.current_task().get_name()})


async def cancel_scope_route(request):
    # anyio's cancel scopes find their task through asyncio.current_task().
    with anyio.move_on_after(0.05) as scope:
        await anyio.sleep(5)
    async with anyio.create_task_group() as group:
        group.start_soon(anyio.sleep, 0.01)
    return PlainTextResponse(f"cancelled={scope.cancelled_caught}")


async def stream_route(request):
    async def pieces():
        for i in range(5):
            yield f"piece {i}\n".encode()
            await anyio.sleep(0.001)
    return StreamingResponse(pieces(), media_type="text/plain")


starlette = Starlette(routes=[Route("/json", json_route), Route("/cancel-scope", cancel_scope_route),
                              Route("/stream", stream_route)])
