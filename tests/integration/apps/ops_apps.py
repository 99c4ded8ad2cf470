"""Apps for the operations tests: what the app was told (environ or scope) as
JSON, slow and hung views, an app that sets its own Date and Server, one
that fails."""

import asyncio
import json
import os
import time


def _query_seconds(query: str, default: float) -> float:
    try:
        return float(query)
    except ValueError:
        return default


def app(environ, start_response):
    path = environ["PATH_INFO"]
    headers = [("Content-Type", "application/json")]
    if path == "/slow":
        time.sleep(_query_seconds(environ["QUERY_STRING"], 2.0))
    elif path == "/hang":
        time.sleep(3600)
    elif path == "/fail":
        raise RuntimeError("the view failed on purpose")
    elif path == "/date":
        headers.append(("Date", "Tue, 01 Jan 2030 00:00:00 GMT"))
    elif path == "/server":
        headers.append(("Server", "app-server/1.0"))
    elif path == "/read":
        body = environ["wsgi.input"].read()
        data = json.dumps({"length": len(body)}).encode()
        start_response("200 OK", headers + [("Content-Length", str(len(data)))])
        return [data]
    keys = ("REMOTE_ADDR", "REMOTE_PORT", "wsgi.url_scheme", "SERVER_NAME", "SERVER_PORT", "SERVER_SOFTWARE",
            "wsgi.multiprocess", "HTTP_X_FORWARDED_FOR")
    data = json.dumps({**{k: environ.get(k) for k in keys}, "pid": os.getpid(),
                       "version": os.environ.get("OPS_APP_VERSION", "1")}).encode()
    start_response("200 OK", headers + [("Content-Length", str(len(data)))])
    return [data]


async def asgi_app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    path = scope["path"]
    if path == "/slow":
        await asyncio.sleep(_query_seconds(scope["query_string"].decode(), 2.0))
    elif path == "/hang":
        await asyncio.sleep(3600)
    elif path == "/block":
        time.sleep(3600)  # a blocking call inside an async view: the event loop stops
    client = list(scope["client"]) if scope.get("client") else None
    server = list(scope["server"]) if scope.get("server") else None
    data = json.dumps({"client": client, "scheme": scope["scheme"], "server": server, "pid": os.getpid()}).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
