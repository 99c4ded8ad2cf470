"""Payload workloads, ASGI: the same bytes as apps/payload/app.py."""

from apps.payload.app import BLOB


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/echo":
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/octet-stream"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"application/octet-stream"), (b"content-length", str(len(BLOB)).encode())]})
    await send({"type": "http.response.body", "body": BLOB})
