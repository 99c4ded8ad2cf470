"""The bare ASGI hello: the same bytes as apps/hello/app.py."""

BODY = b"Hello, World!"
START = {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", b"text/plain"), (b"content-length", b"13")]}
MESSAGE = {"type": "http.response.body", "body": BODY}


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send(START)
    await send(MESSAGE)
