"""Apps for tests/integration/test_early_hints.py: a WSGI app (`wsgi`) and an
ASGI app (`asgi`) that send 103 Early Hints the way each interface offers
(gunicorn's environ["wsgi.early_hints"], ASGI's http.response.early_hint),
with the same routes:

  /hints?n=N&delay=MS  N hints, one Link each (/style0.css, /style1.css,
                       ...), then MS milliseconds of work, then a 200
  /bad-link            a hint whose link holds a CR LF: the app records the
                       error its call raised and raises it again
  /keep, /call-kept    (WSGI) the first keeps its early_hints callable; the
                       second calls it and records what that did
  /page                Chromium's page: 100 ms of work, a hint preloading
                       /preload.css and /preload.js, 500 ms more, then the
                       HTML that uses both
  /preload.css, /preload.js, /done   what the page asks for

What the app sees (the errors its calls raised, when each request came and
when the page's final response went) goes to the BATON_TEST_RECORD file,
one line each: "<what> <time.monotonic()>" for times.

The ASGI app's routes for the message's place in the response:
/after-start (after http.response.start, before any body: still ahead of
the head), /after-body (after a first body: dropped) and /after-complete
(after the final body: out of order, raises).
"""

import asyncio
import os
import time
from urllib.parse import parse_qs

RECORD = os.environ.get("BATON_TEST_RECORD")

PAGE_LINKS = ["</preload.css>; rel=preload; as=style", "</preload.js>; rel=preload; as=script"]
PAGE = b"""<!doctype html><html><head><link rel="stylesheet" href="/preload.css">
<script src="/preload.js"></script></head><body>hinted</body></html>"""
# The page's hint comes this long after its request. Chromium 156 drops a
# 103 that reaches it within a few milliseconds of its request (its net
# log shows the HEADERS frame received and no early hints read): on
# loopback an app that hints at once can be that quick; over a network
# nothing is.
HINT_AFTER = 0.1
STYLE = b"body { color: green; }\n"
SCRIPT = b"fetch('/done');\n"
BAD_LINK = "</a.css>; rel=preload\r\nx-injected: 1"
kept = {}  # what /keep keeps for /call-kept


def record(line: str) -> None:
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


def hint_links(query: str) -> tuple[list[str], float]:
    """The links /hints sends, one hint each, and its delay in seconds."""
    args = parse_qs(query)
    n = int(args.get("n", ["1"])[0])
    delay = int(args.get("delay", ["0"])[0]) / 1000
    return [f"</style{i}.css>; rel=preload; as=style" for i in range(n)], delay


def asset(path: str) -> tuple[bytes, bytes] | None:
    """The page's assets: (content type, body), each request recorded."""
    if path in ("/preload.css", "/preload.js", "/done"):
        record(f"{path[1:]} {time.monotonic()}")
        return {"/preload.css": (b"text/css", STYLE), "/preload.js": (b"text/javascript", SCRIPT),
                "/done": (b"text/plain", b"ok")}[path]
    return None


# --- WSGI -------------------------------------------------------------------------


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    hints = environ["wsgi.early_hints"]
    found = asset(path)
    if found:
        start_response("200 OK", [("Content-Type", found[0].decode()), ("Cache-Control", "max-age=600")])
        return [found[1]]
    if path == "/hints":
        links, delay = hint_links(environ["QUERY_STRING"])
        for link in links:
            hints([("Link", link)])
        time.sleep(delay)
    elif path == "/page":
        time.sleep(HINT_AFTER)
        hints([("Link", link) for link in PAGE_LINKS])
        time.sleep(0.5)
        record(f"final {time.monotonic()}")
        start_response("200 OK", [("Content-Type", "text/html")])
        return [PAGE]
    elif path == "/bytes":
        hints([(b"Link", b"</bytes.css>; rel=preload")])
    elif path == "/after-write":
        # The head goes out with the first write: a hint after it is dropped.
        write = start_response("200 OK", [("Content-Type", "text/plain")])
        write(b"first ")
        hints([("Link", "</late.css>; rel=preload")])
        record("after-write returned")
        return [b"done"]
    elif path == "/keep":
        # Keeps this request's early_hints past its end, for /call-kept.
        kept["hints"] = hints
    elif path == "/call-kept":
        # Calls the early_hints a former request kept: it must raise, not hint this request.
        try:
            kept["hints"]([("Link", "</kept.css>; rel=preload")])
            record("call-kept returned")
        except Exception as error:
            record(f"call-kept raised {type(error).__name__}")
    elif path == "/bad-link":
        try:
            hints([("Link", BAD_LINK)])
        except Exception as error:
            record(f"bad-link raised {type(error).__name__}")
            raise
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"done"]


# --- ASGI -------------------------------------------------------------------------


async def lifespan(receive, send):
    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        else:
            await send({"type": "lifespan.shutdown.complete"})
            return


def hint(*links: str) -> dict:
    return {"type": "http.response.early_hint", "links": [link.encode() for link in links]}


START = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        await lifespan(receive, send)
        return
    path = scope["path"]
    found = asset(path)
    if found:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", found[0]), (b"cache-control", b"max-age=600")]})
        await send({"type": "http.response.body", "body": found[1]})
        return
    if path == "/extensions":
        await send(START)
        await send({"type": "http.response.body", "body": repr(sorted(scope["extensions"])).encode()})
        return
    if path == "/hints":
        links, delay = hint_links(scope["query_string"].decode())
        for link in links:
            await send(hint(link))
        await asyncio.sleep(delay)
    elif path == "/page":
        await asyncio.sleep(HINT_AFTER)
        await send(hint(*PAGE_LINKS))
        await asyncio.sleep(0.5)
        record(f"final {time.monotonic()}")
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
        await send({"type": "http.response.body", "body": PAGE})
        return
    elif path == "/after-start":
        await send(START)
        await send(hint("</after-start.css>; rel=preload"))
        await send({"type": "http.response.body", "body": b"done"})
        return
    elif path == "/after-body":
        await send(START)
        await send({"type": "http.response.body", "body": b"first ", "more_body": True})
        await send(hint("</late.css>; rel=preload"))
        record("after-body returned")
        await send({"type": "http.response.body", "body": b"done"})
        return
    elif path == "/after-complete":
        await send(START)
        await send({"type": "http.response.body", "body": b"done"})
        try:
            await send(hint("</late.css>; rel=preload"))
        except RuntimeError as error:
            record(f"after-complete raised {type(error).__name__}: {error}")
        return
    elif path == "/bad-link":
        try:
            await send(hint(BAD_LINK))
        except Exception as error:
            record(f"bad-link raised {type(error).__name__}")
            raise
    await send(START)
    await send({"type": "http.response.body", "body": b"done"})
