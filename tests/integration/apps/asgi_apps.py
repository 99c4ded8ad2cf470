"""ASGI apps the integration tests serve, one route per behaviour under test.

`app` speaks lifespan (its startup puts a value in the state every request
sees); `failing_startup` reports a failed startup; `no_lifespan` raises on
the lifespan scope, as apps without lifespan support do. Events the tests
need to see from outside go to the BATON_TEST_RECORD file.
"""

import asyncio
import hashlib
import json
import os
import tempfile
import time
from urllib.parse import parse_qs

RECORD = os.environ.get("BATON_TEST_RECORD")
FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-asgi-file-{os.getpid()}.bin")
FILE_BYTES = bytes(range(256)) * 2048  # 512 KiB
with open(FILE_PATH, "wb") as f:
    f.write(FILE_BYTES)


def record(line: str) -> None:
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


def query(scope) -> dict:
    return {k: v[0] for k, v in parse_qs(scope["query_string"].decode()).items()}


async def respond(send, status=200, body=b"", headers=None, content_type=b"text/plain"):
    hs = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": hs + (headers or [])})
    await send({"type": "http.response.body", "body": body})


async def read_body(receive) -> tuple[bytes, int]:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ConnectionError("disconnected while reading the body")
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks), len(chunks)


async def lifespan(scope, receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            scope["state"]["started"] = "yes"
            record("lifespan startup")
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            record("lifespan shutdown")
            await send({"type": "lifespan.shutdown.complete"})
            return


# /turn: how many requests' tasks take their first step in one turn of the
# event loop (the first of a turn queues the reset, which runs after them).
TURN = {"count": 0, "largest": 0, "reset_queued": False}


def turn_over() -> None:
    TURN["count"] = 0
    TURN["reset_queued"] = False


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        return await lifespan(scope, receive, send)
    path = scope["path"]
    q = query(scope)
    record(f"{scope['method']} {path}")

    if path == "/hello":
        return await respond(send, body=b"Hello, World!")
    if path == "/echo":
        body, chunks = await read_body(receive)
        info = {
            "keys": sorted(scope),
            "type": scope["type"], "asgi": scope["asgi"], "http_version": scope["http_version"],
            "method": scope["method"], "scheme": scope["scheme"], "path": scope["path"],
            "raw_path": scope["raw_path"].decode("latin-1"), "query_string": scope["query_string"].decode("latin-1"),
            "root_path": scope["root_path"],
            "headers": [[n.decode("latin-1"), v.decode("latin-1")] for n, v in scope["headers"]],
            "client": list(scope["client"]) if scope["client"] else None,
            "server": list(scope["server"]) if scope["server"] else None,
            "state": dict(scope.get("state", {})), "extensions": scope.get("extensions"),
            "body_length": len(body), "body_sha256": hashlib.sha256(body).hexdigest(), "chunks": chunks,
        }
        return await respond(send, body=json.dumps(info).encode(), content_type=b"application/json")
    if path == "/tagged":
        body, _ = await read_body(receive)
        return await respond(send, body=q.get("tag", "").encode() + b":" + body)
    if path == "/state-write":
        scope["state"]["written"] = q.get("value", "")
        return await respond(send, body=b"ok")
    if path == "/stream":
        count, size, delay = int(q.get("count", "5")), int(q.get("size", "10")), float(q.get("delay", "0"))
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        try:
            for i in range(count):
                if delay:
                    await asyncio.sleep(delay)
                await send({"type": "http.response.body", "body": bytes([65 + i % 26]) * size, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except BaseException as e:
            record(f"{q.get('tag', '')} stream send raised {type(e).__name__} OSError={isinstance(e, OSError)}")
            raise
        return
    if path == "/sse":
        # Sends an event every 20 ms until the client goes away, listening for
        # the disconnect in a second task as Starlette's StreamingResponse does.
        tag = q.get("tag", "sse")
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        gone = asyncio.Event()

        async def listen():
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    gone.set()
                    return

        listener = asyncio.create_task(listen())
        try:
            while not gone.is_set():
                try:
                    await send({"type": "http.response.body", "body": b"data: tick\n\n", "more_body": True})
                except OSError as error:
                    record(f"{tag} send raised {type(error).__name__} OSError={isinstance(error, OSError)}")
                    break
                await asyncio.sleep(0.02)
        finally:
            listener.cancel()
        record(f"{tag} ended")
        return
    if path == "/send-after-disconnect":
        # Waits for http.disconnect, then sends: what the send does is
        # recorded whatever it is (a return, or any exception).
        tag = q.get("tag", "sad")
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"first", "more_body": True})
        while (await receive())["type"] != "http.disconnect":
            pass
        try:
            await send({"type": "http.response.body", "body": b"late", "more_body": True})
            outcome = "returned"
        except BaseException as error:  # noqa: BLE001 - recorded, whatever it is
            outcome = f"raised {type(error).__name__} OSError={isinstance(error, OSError)}"
        record(f"{tag} send after the disconnect {outcome}")
        return
    if path == "/wait-disconnect":
        tag = q.get("tag", "wait")
        await read_body(receive)
        message = await receive()
        record(f"{tag} got {message['type']}")
        return
    if path == "/hog":
        time.sleep(float(q.get("ms", "100")) / 1000)  # holds the event loop, as a bad app does
        return await respond(send, body=b"hogged")
    if path == "/turn":
        TURN["count"] += 1
        TURN["largest"] = max(TURN["largest"], TURN["count"])
        if not TURN["reset_queued"]:
            TURN["reset_queued"] = True
            asyncio.get_running_loop().call_soon(turn_over)
        return await respond(send, body=str(TURN["largest"]).encode())
    if path == "/slow":
        await asyncio.sleep(float(q.get("ms", "100")) / 1000)
        return await respond(send, body=b"slow done")
    if path == "/fanout":
        async def one(i):
            await asyncio.sleep(0.001)
            return i
        results = await asyncio.gather(*(one(i) for i in range(50)))
        return await respond(send, body=str(sum(results)).encode())
    if path == "/pathsend":
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/octet-stream")]})
        await send({"type": "http.response.pathsend", "path": FILE_PATH})
        return
    if path == "/trailers":
        # Two trailer messages after a streamed body (more_trailers), as a
        # gRPC-style app sends its status once the body is done.
        headers = [(b"content-type", b"text/plain")]
        if "length" in q:
            headers.append((b"content-length", b"8"))
        await send({"type": "http.response.start", "status": 200, "trailers": True, "headers": headers})
        await send({"type": "http.response.body", "body": b"one ", "more_body": True})
        await send({"type": "http.response.body", "body": b"two "})
        await send({"type": "http.response.trailers", "headers": [(b"x-checksum", b"c1")], "more_trailers": True})
        await send({"type": "http.response.trailers", "headers": [(b"X-Status", b"0")]})
        record(f"/trailers sent length={'length' in q}")
        return
    if path in ("/trailers-empty", "/trailers-pathsend"):
        await send({"type": "http.response.start", "status": 200, "trailers": True, "headers": []})
        if path == "/trailers-empty":
            await send({"type": "http.response.body", "body": b""})
        else:
            await send({"type": "http.response.pathsend", "path": FILE_PATH})
        await send({"type": "http.response.trailers", "headers": [(b"x-after", path.encode())]})
        return
    if path == "/trailers-missing":
        await send({"type": "http.response.start", "status": 200, "trailers": True, "headers": []})
        await send({"type": "http.response.body", "body": b"no trailers follow"})
        return
    if path == "/raise-before-start":
        raise ValueError("the app failed before starting its response")
    if path == "/raise-after-start":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"partial", "more_body": True})
        raise ValueError("the app failed after starting its response")
    if path in ("/start-twice", "/body-after-end", "/bad-header", "/bad-header-value", "/trailers-undeclared",
                "/trailers-forbidden", "/trailers-early"):
        try:
            if path == "/start-twice":
                await send({"type": "http.response.start", "status": 200, "headers": []})
                await send({"type": "http.response.start", "status": 201, "headers": []})
            elif path == "/body-after-end":
                await respond(send, body=b"done")
                await send({"type": "http.response.body", "body": b"more"})
            elif path == "/trailers-undeclared":
                await respond(send, body=b"done")
                await send({"type": "http.response.trailers", "headers": [(b"x-late", b"1")]})
            elif path in ("/trailers-forbidden", "/trailers-early"):
                await send({"type": "http.response.start", "status": 200, "trailers": True, "headers": []})
                await send({"type": "http.response.body", "body": b"body",
                            "more_body": path == "/trailers-early"})
                await send({"type": "http.response.trailers", "headers": [(b"content-length", b"4")]})
            elif path == "/bad-header":
                await send({"type": "http.response.start", "status": 200, "headers": [(b"bad header", b"x")]})
            else:
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"x-evil", b"a\r\nset-cookie: owned=1")]})
        except Exception as error:
            record(f"{path} raised {type(error).__name__}")
            raise
        return
    if path == "/task":
        task = asyncio.current_task()
        return await respond(send, body=f"{type(task).__name__} {task.get_name()}".encode())
    if path == "/stack":
        task = asyncio.current_task()
        frames = [frame.f_code.co_name for frame in task.get_stack()]
        return await respond(send, body=json.dumps({"frames": frames, "repr": repr(task)}).encode())
    if path == "/cancelled":
        asyncio.get_running_loop().call_later(0.05, asyncio.current_task().cancel)
        await asyncio.sleep(10)
    if path == "/orphan":
        # Waits on a future nothing else holds: the task is garbage once
        # /collect runs the collector.
        await asyncio.get_running_loop().create_future()
    if path == "/collect":
        import gc
        gc.collect()
        return await respond(send, body=b"collected")
    if path == "/stats":
        tasks = len(asyncio.all_tasks())
        return await respond(send, body=json.dumps({"tasks": tasks}).encode(), content_type=b"application/json")
    await respond(send, status=404, body=b"not found")


async def request_object_reuse(scope, receive, send):
    """Forces one interleaving of the pump: a request whose notice is still
    queued when it ends, its request object taken at once by the next
    stream, and that stream's body arriving while the drain is still busy
    starting it. Both waits block the asyncio thread on purpose, so the loop
    thread can act in between: /hold while its client resets and the next
    request arrives; the task factory (called inside the drain, when the
    next stream starts) while that stream's body comes in."""
    if scope["type"] != "http":
        raise RuntimeError("no lifespan here")
    if scope["path"] == "/hold":
        record("holding")
        time.sleep(1.0)
        loop = asyncio.get_running_loop()

        def slow_factory(loop, coroutine, **kwargs):
            loop.set_task_factory(None)
            record("starting the next request")
            time.sleep(1.0)
            return asyncio.Task(coroutine, loop=loop, **kwargs)

        loop.set_task_factory(slow_factory)
        return
    body, _ = await read_body(receive)
    await respond(send, body=b"got %d" % len(body))


class FactoryTask(asyncio.Task):
    pass


async def task_factory(scope, receive, send):
    """Installs a task factory in lifespan startup, as an app may: the
    request tasks made after it must come from it."""
    if scope["type"] == "lifespan":
        message = await receive()
        asyncio.get_running_loop().set_task_factory(lambda loop, coro, **kwargs: FactoryTask(coro, loop=loop, **kwargs))
        await send({"type": "lifespan.startup.complete"})
        await receive()
        await send({"type": "lifespan.shutdown.complete"})
        return
    return await app(scope, receive, send)


# cancel_early: its task factory cancels the next N request tasks it makes
# before their first step (N set by /arm?n=N), so their coroutines end
# without ever calling the app.
EARLY_CANCELS = [0]


def cancelling_factory(loop, coro, **kwargs):
    task = asyncio.Task(coro, loop=loop, **kwargs)
    if EARLY_CANCELS[0] > 0:
        EARLY_CANCELS[0] -= 1
        task.cancel()
    return task


async def cancel_early(scope, receive, send):
    if scope["type"] == "lifespan":
        await receive()
        asyncio.get_running_loop().set_task_factory(cancelling_factory)
        await send({"type": "lifespan.startup.complete"})
        await receive()
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["path"] == "/arm":
        EARLY_CANCELS[0] = int(query(scope)["n"])
        return await respond(send, body=b"armed")
    return await app(scope, receive, send)


class AwaitableApp:
    """An app that is a plain callable returning an awaitable (no async def)."""

    def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            raise RuntimeError("no lifespan here")
        if scope["path"] == "/not-awaitable":
            return 42
        return Response(send)


class Response:
    def __init__(self, send):
        self.send = send

    def __await__(self):
        return respond(self.send, body=b"awaited").__await__()


awaitable_app = AwaitableApp()


async def failing_startup(scope, receive, send):
    if scope["type"] == "lifespan":
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.failed", "message": "the database is not there"})
        return
    await respond(send, body=b"never")


async def no_lifespan(scope, receive, send):
    if scope["type"] != "http":
        raise RuntimeError(f"unsupported scope type {scope['type']}")
    await respond(send, body=b"served without lifespan")
