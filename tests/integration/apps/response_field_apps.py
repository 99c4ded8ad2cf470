"""Apps for tests/integration/test_response_fields.py: a WSGI and an ASGI
app that answer /field?del=N with a response field whose value has a DEL
byte (0x7f) at index N (no DEL when N is -1), and /hello with a plain
answer."""

from urllib.parse import parse_qs

# Twenty-one bytes: the server checks a value eight bytes at a time, the
# last eight overlapping the eight before them when the length is not a
# multiple of eight, so every index is in a word and the last one only in
# that overlapping word.
VALUE = "0123456789abcdefghijk"


def value_with_del(query: str) -> str:
    at = int(parse_qs(query)["del"][0])
    return VALUE if at < 0 else VALUE[:at] + "\x7f" + VALUE[at + 1:]


def wsgi(environ, start_response):
    if environ["PATH_INFO"] == "/field":
        value = value_with_del(environ["QUERY_STRING"])
        start_response("200 OK", [("Content-Type", "text/plain"), ("X-Field", value), ("Content-Length", "4")])
        return [b"sent"]
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "13")])
    return [b"Hello, World!"]


async def asgi(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["path"] == "/field":
        value = value_with_del(scope["query_string"].decode()).encode("latin-1")
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/plain"), (b"x-field", value), (b"content-length", b"4")]})
        await send({"type": "http.response.body", "body": b"sent"})
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", b"13")]})
    await send({"type": "http.response.body", "body": b"Hello, World!"})
