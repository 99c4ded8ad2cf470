"""A bare ASGI app with WebSocket routes for the WebSocket tests: each path
is one behaviour a test looks at from outside. What the app itself sees
(its disconnect events, the errors its sends raise) goes to the
BATON_TEST_RECORD file, one line each."""

import asyncio
import json
import os
import sys

RECORD = os.environ.get("BATON_TEST_RECORD")
LIVE = 0  # echo handlers running now (GET /stats)


def record(line: str) -> None:
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


def scope_summary(scope) -> dict:
    """The scope as JSON can carry it (bytes as latin-1 text)."""
    out = {}
    for key, value in scope.items():
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        elif key == "headers":
            value = [[n.decode("latin-1"), v.decode("latin-1")] for n, v in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


async def echo(scope, receive, send):
    """Echoes every message; records the disconnect."""
    global LIVE
    LIVE += 1
    try:
        await send({"type": "websocket.accept", "subprotocol": "chat" if "chat" in scope["subprotocols"] else None})
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                if "quiet" not in scope["query_string"].decode():
                    record(f"disconnect {event['code']} {event.get('reason', '')!r}")
                return
            if event.get("text") == "close please":
                await send({"type": "websocket.close", "code": 4321, "reason": "as asked"})
                continue
            await send({"type": "websocket.send", "bytes": event.get("bytes"), "text": event.get("text")})
    finally:
        LIVE -= 1


async def scope_route(scope, receive, send):
    await send({"type": "websocket.accept", "headers": [(b"x-accepted", b"yes")]})
    await send({"type": "websocket.send", "text": json.dumps(scope_summary(scope))})
    await receive()


async def close_before_accept(scope, receive, send):
    await send({"type": "websocket.close"})


async def deny(scope, receive, send):
    await send({"type": "websocket.http.response.start", "status": 401,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", b"7")]})
    await send({"type": "websocket.http.response.body", "body": b"go away"})


async def raise_before_accept(scope, receive, send):
    raise RuntimeError("refused by raising")


async def raise_after_accept(scope, receive, send):
    await send({"type": "websocket.accept"})
    await receive()
    raise RuntimeError("broken after accept")


async def return_after_accept(scope, receive, send):
    await send({"type": "websocket.accept"})


async def never_accept(scope, receive, send):
    await asyncio.sleep(3600)


async def send_after_disconnect(scope, receive, send):
    """Waits for the client to go, then sends: the error is recorded, whatever it is."""
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass
    try:
        await send({"type": "websocket.send", "text": "too late"})
        record("send after disconnect: no error")
    except Exception as error:  # noqa: BLE001 (the test asserts which it was)
        record(f"send after disconnect: {type(error).__name__} oserror={isinstance(error, OSError)}")


async def slow_reader(scope, receive, send):
    """Takes no message for a while, then counts them all."""
    await send({"type": "websocket.accept"})
    await asyncio.sleep(float(scope["query_string"].decode() or "2"))
    count = 0
    while True:
        event = await receive()
        if event["type"] == "websocket.disconnect":
            record(f"slow reader got {count}")
            return
        count += 1
        if event.get("text") == "done":
            await send({"type": "websocket.send", "text": f"got {count}"})


async def flood(scope, receive, send):
    """Sends as fast as send() lets it to a client that does not read."""
    await send({"type": "websocket.accept"})
    sent = 0
    chunk = b"f" * 65536
    try:
        while sent < 512:
            await send({"type": "websocket.send", "bytes": chunk})
            sent += 1
            record(f"flood sent {sent}")
    except OSError:
        record(f"flood stopped at {sent}")


async def in_place(scope, receive, send):
    """Sends a large bytes and a large str (sent where they are, not copied)
    and reports the references the server held on each right after its
    send(), and after the client's answer (by then both were written)."""
    await send({"type": "websocket.accept"})
    payload = b"p" * 100_000
    text = "\u00e9\u2713" * 20_000  # its UTF-8 is kept in the object
    base = (sys.getrefcount(payload), sys.getrefcount(text))
    await send({"type": "websocket.send", "bytes": payload})
    held = [sys.getrefcount(payload) - base[0]]
    await send({"type": "websocket.send", "text": text})
    held.append(sys.getrefcount(text) - base[1])
    await receive()
    after = [sys.getrefcount(payload) - base[0], sys.getrefcount(text) - base[1]]
    await send({"type": "websocket.send", "text": json.dumps({"held": held, "after": after})})
    await receive()


# A payload the /send-and-return route sends, then returns: larger than
# the output window and the kernel's buffers, so to a client that reads
# slowly the app returns (its send() done once half the window is left)
# with part of it still queued. The server holds it until it is written.
KEPT = b"k" * 5_000_000


def kept_references() -> int:
    return sys.getrefcount(KEPT)


KEPT_BASE = kept_references()


async def send_and_return(scope, receive, send):
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "bytes": KEPT})


async def wait_for_disconnect(scope, receive, send):
    await send({"type": "websocket.accept"})
    event = await receive()
    record(f"disconnect {event.get('code')} {event.get('reason', '')!r}")


async def report(scope, receive, send):
    """Records what a browser page reports (its text messages)."""
    await send({"type": "websocket.accept"})
    while (event := await receive())["type"] != "websocket.disconnect":
        report = json.loads(event.get("text") or "{}")
        report["scheme"] = scope["scheme"]
        record("report " + json.dumps(report))


# A page whose script exchanges messages with /echo (compressed, when the
# browser offers it, as Chromium does) and reports what it saw to /report.
BROWSER_PAGE = b"""<!doctype html><html><body>running<script>
const sent = ["hello from the browser", "x".repeat(20000), "\u00fcn\u00efc\u00f6d\u00e9 \u2713"];
const got = [];
const echo = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/echo`);
echo.binaryType = "arraybuffer";
echo.onopen = () => { for (const m of sent) echo.send(m); echo.send(new Uint8Array([1, 2, 3, 250])); };
echo.onmessage = (e) => {
  got.push(typeof e.data === "string" ? e.data : Array.from(new Uint8Array(e.data)).join(","));
  if (got.length < 4) return;
  const result = {same: sent.every((m, i) => got[i] === m), binary: got[3], extensions: echo.extensions};
  echo.close(1000, "browser done");
  const out = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/report`);
  out.onopen = () => { out.send(JSON.stringify(result)); out.close(); };
};
</script></body></html>"""


ROUTES = {
    "/echo": echo,
    "/scope": scope_route,
    "/close-before-accept": close_before_accept,
    "/deny": deny,
    "/raise-before-accept": raise_before_accept,
    "/raise-after-accept": raise_after_accept,
    "/return-after-accept": return_after_accept,
    "/never-accept": never_accept,
    "/send-after-disconnect": send_after_disconnect,
    "/slow-reader": slow_reader,
    "/flood": flood,
    "/wait": wait_for_disconnect,
    "/in-place": in_place,
    "/send-and-return": send_and_return,
    "/report": report,
}


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http" and scope["path"] == "/browser":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
        await send({"type": "http.response.body", "body": BROWSER_PAGE})
        return
    if scope["type"] == "http" and scope["path"] == "/kept":
        body = str(kept_references() - KEPT_BASE).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": body})
        return
    if scope["type"] == "http" and scope["path"] == "/stats":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        import gc
        import sys
        gc.collect()
        stats = {"live": LIVE, "blocks": sys.getallocatedblocks(), "objects": len(gc.get_objects())}
        await send({"type": "http.response.body", "body": json.dumps(stats).encode()})
        return
    if scope["type"] == "http":
        body = json.dumps({"path": scope["path"], "upgrade": dict(scope["headers"]).get(b"upgrade", b"").decode()})
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body.encode()})
        return
    event = await receive()
    assert event["type"] == "websocket.connect", event
    handler = ROUTES.get(scope["path"])
    if handler is None:
        await send({"type": "websocket.close", "code": 1008})
        return
    await handler(scope, receive, send)
