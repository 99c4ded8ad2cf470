"""Apps for the ASGI send/receive contract (test_asgi_send_contract.py):
receive and send are awaitable callables, so what goes wrong is raised by
the await, not the call, and what they return is taken by asyncio and
anyio wherever a coroutine is. Each app records, in BATON_TEST_RECORD, one
line per step: whether the call returned and what the await raised."""

import asyncio
import os

import anyio

RECORD = os.environ.get("BATON_TEST_RECORD")


def record(line):
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


def outcome(error):
    return f"{type(error).__name__} oserror={isinstance(error, OSError)}"


async def deferred(name, make_awaitable):
    """Calls (in ensure_future) and awaits apart, recording each."""
    try:
        future = asyncio.ensure_future(make_awaitable())
    except Exception as error:  # noqa: BLE001 - what the call raised is the record
        record(f"{name} call raised {outcome(error)}")
        return
    record(f"{name} call returned")
    try:
        await future
        record(f"{name} await returned")
    except Exception as error:  # noqa: BLE001
        record(f"{name} await raised {outcome(error)}")


async def in_task_groups(name, send, message):
    """send(message) as a task of asyncio's task group and of anyio's."""
    if hasattr(asyncio, "TaskGroup"):
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(send(message))
            record(f"{name} asyncio group returned")
        except Exception as error:  # noqa: BLE001
            inner = error.exceptions[0] if isinstance(error, BaseExceptionGroup) else error
            record(f"{name} asyncio group raised {outcome(inner)}")
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(send, message)
        record(f"{name} anyio group returned")
    except Exception as error:  # noqa: BLE001
        inner = error.exceptions[0] if hasattr(error, "exceptions") else error
        record(f"{name} anyio group raised {outcome(inner)}")


async def websocket(scope, receive, send):
    path = scope["path"]
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    if path == "/after-own-close":
        await send({"type": "websocket.close", "code": 1000})
        late = {"type": "websocket.send", "text": "late"}
        await deferred("ensure_future", lambda: send(late))
        try:
            results = await asyncio.gather(send(late), send(late), return_exceptions=True)
            record("gather " + " ".join(outcome(r) if isinstance(r, BaseException) else repr(r) for r in results))
        except Exception as error:  # noqa: BLE001
            record(f"gather call raised {outcome(error)}")
        await in_task_groups("group", send, late)
    elif path == "/bad-message":
        await deferred("bad", lambda: send({"type": "websocket.bogus"}))
        await send({"type": "websocket.close", "code": 1000})


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] == "websocket":
        await websocket(scope, receive, send)
        return
    path = scope["path"]
    if path == "/receive-twice":
        # The body is not there yet (a large one: the app is called before
        # it comes): the first receive waits; a second one while it does is
        # the app's error, raised by the second's await.
        first = receive()
        second = receive()
        record("second call returned")
        try:
            await second
            record("second await returned")
        except Exception as error:  # noqa: BLE001
            record(f"second await raised {outcome(error)}")
        event = await first
        record(f"first got {event['type']}")
        while event.get("more_body"):
            event = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})
    elif path == "/after-disconnect":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"first", "more_body": True})
        while (await receive())["type"] != "http.disconnect":
            pass
        await deferred("body", lambda: send({"type": "http.response.body", "body": b"late", "more_body": True}))
        await in_task_groups("group", send, {"type": "http.response.body", "body": b"late", "more_body": True})
    elif path == "/not-a-dict":
        await deferred("not-a-dict", lambda: send(["http.response.start"]))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _starlette_app():
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def echo_then_late(ws):
        await ws.accept()
        await ws.send_text(await ws.receive_text())
        try:
            await ws.receive_text()  # the client closes
        except Exception as error:  # noqa: BLE001
            record(f"starlette receive raised {type(error).__name__}")
        future = asyncio.ensure_future(ws.send_text("late"))
        record("starlette call returned")
        try:
            await future
            record("starlette await returned")
        except Exception as error:  # noqa: BLE001
            record(f"starlette await raised {type(error).__name__}")

    return Starlette(routes=[WebSocketRoute("/ws", echo_then_late)])


starlette = _starlette_app()
