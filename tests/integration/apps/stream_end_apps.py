"""Apps whose work goes on after their response is whole: a WSGI body whose
close() takes its time (or raises), an ASGI app that sends its response
and then runs a background task (or raises in it). Each notes in the file
BATON_TEST_MARKS when its after-work ended, so a test can tell whether the
client had its answer before that."""

import asyncio
import os
import time

BODY = b"whole before the app returns"


def mark(what: str) -> None:
    with open(os.environ["BATON_TEST_MARKS"], "a") as f:
        f.write(f"{what} {time.monotonic()}\n")


class SlowClose:
    def __init__(self, raises: bool):
        self.raises = raises

    def __iter__(self):
        yield BODY

    def close(self):
        time.sleep(0.8)
        mark("closed")
        if self.raises:
            raise RuntimeError("close() failed after the answer went")


def wsgi(environ, start_response):
    path = environ["PATH_INFO"]
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))])
    if path in ("/after", "/after-raises"):
        return SlowClose(raises=path == "/after-raises")
    if path == "/head-after":
        return SlowClose(raises=False)
    return [BODY]


async def asgi(scope, receive, send):
    if scope["type"] != "http":
        return
    path = scope["path"]
    headers = [(b"content-type", b"text/plain")]
    if path != "/unsized":
        headers.append((b"content-length", str(len(BODY)).encode()))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": BODY})
    if path in ("/after", "/after-raises", "/unsized"):
        await asyncio.sleep(0.8)  # a background task, after the answer
        mark("closed")
        if path == "/after-raises":
            raise RuntimeError("the background task failed after the answer went")
