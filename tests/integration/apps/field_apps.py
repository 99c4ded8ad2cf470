"""Apps for the request-field tests (tests/integration/test_http2_fields.py):
what a request's fields look like from inside, in WSGI and ASGI alike, and
a body read to its end. Every call is recorded (one line, its method and
path) in BATON_TEST_RECORD when that is set, so a test can tell what
reached the app and what did not."""

import json
import os

RECORD = os.environ.get("BATON_TEST_RECORD")


def record(line):
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    record(f"{environ['REQUEST_METHOD']} {path}")
    if path == "/seen":
        # What the app sees of the fields: HTTP_HOST and HTTP_COOKIE as lists
        # (one entry each, as WSGI has them), and how many fields there are.
        seen = {"host": [environ["HTTP_HOST"]] if "HTTP_HOST" in environ else [],
                "cookie": [environ["HTTP_COOKIE"]] if "HTTP_COOKIE" in environ else [],
                "fields": sum(1 for key in environ if key.startswith("HTTP_"))}
        body = json.dumps(seen).encode()
    elif path == "/read-all":
        # read() with no size reads to the body's end: where the client ends it.
        stream = environ["wsgi.input"]
        first = stream.read(int(environ["CONTENT_LENGTH"]))
        record(f"read {len(first)}")
        rest = stream.read()
        body = json.dumps({"first": len(first), "rest": len(rest)}).encode()
    else:
        body = b"here"
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    path = scope["path"]
    record(f"{scope['method']} {path}")
    if path == "/seen":
        headers = scope["headers"]
        seen = {"host": [v.decode() for n, v in headers if n == b"host"],
                "cookie": [v.decode() for n, v in headers if n == b"cookie"],
                "fields": len(headers)}
        body = json.dumps(seen).encode()
    elif path == "/read-all":
        # The whole body before any answer, as Starlette's request.body():
        # nothing is sent while the body comes in.
        received = 0
        while True:
            event = await receive()
            received += len(event.get("body", b""))
            if not event.get("more_body"):
                break
        body = json.dumps({"first": received, "rest": 0}).encode()
    else:
        body = b"here"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


def _starlette_app():
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def cookies(request):
        return JSONResponse(request.cookies)

    return Starlette(routes=[Route("/cookies", cookies)])


starlette = _starlette_app()
