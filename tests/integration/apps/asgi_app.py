"""The smallest ASGI app: the command line must detect it and serve it as ASGI."""


async def app(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"asgi"})
