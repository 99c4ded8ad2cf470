"""The workloads: the same bytes from every server that can serve them.

A workload names a WSGI app, an ASGI app, or both; each arm serves it
through the interface it speaks. `body` is the exact expected answer where
it is fixed; where a framework formats it, the first arm to answer sets the
reference and every later arm must match it byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.payload.app import BLOB


@dataclass(frozen=True)
class Workload:
    name: str
    path: str
    status: int
    body: bytes | None
    wsgi: str | None = None  # module:attribute
    asgi: str | None = None
    method: str = "GET"
    request_body_size: int = 0
    # Requests kept in flight beside the measured load (the mixed workload's
    # slow view); how many is the suite's `background` level.
    background_path: str | None = None
    # A file served by the servers' static file handlers (under STATIC_DIR).
    static: str | None = None
    # The load generator: "wrk", or "bulk" (bench/bulk.c) for large bodies,
    # where wrk's 8 KiB reads make the client the bound instead of the server,
    # or "wsload" (bench/wsload.c) for WebSocket rows, or "h2load" (Debian's
    # nghttp2-client) for HTTP/2 rows and, for HTTP/3 rows, the h2load built
    # with ngtcp2 and nghttp3 (tools/h2load_h3.py).
    client: str = "wrk"
    # WebSocket rows: the message size, permessage-deflate offered (and the
    # client's messages compressed), and fan-out (one sender, every
    # connection receives) instead of echo.
    message_size: int = 0
    deflate: bool = False
    broadcast: bool = False
    # How the requests travel: "http1" (plain HTTP/1.1), "https" (HTTP/1.1
    # over TLS, loaded by wrk), "h2" (HTTP/2 over TLS, ALPN) or "h2c" (HTTP/2
    # with prior knowledge), both loaded by h2load with `streams` requests in
    # flight per connection, or "h3" (HTTP/3 over QUIC, on UDP at the same
    # port). `fresh`: every request on a new connection (wrk
    # sends Connection: close), so the row counts TLS handshakes per second.
    wire: str = "http1"
    streams: int = 1
    fresh: bool = False

    def expected_body(self) -> bytes | None:
        if self.request_body_size:
            return b"x" * self.request_body_size
        return self.body


WORKLOADS = {w.name: w for w in (
    Workload("hello", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application", asgi="apps.hello.asgi:app"),
    Workload("flask-json", "/json", 200, None, wsgi="apps.flask_json.app:app"),
    Workload("starlette-json", "/json", 200, None, asgi="apps.starlette_json.app:app"),
    Workload("fastapi-json", "/json", 200, None, asgi="apps.fastapi_json.app:app"),
    Workload("django", "/hello", 200, b"Hello, World!", wsgi="apps.django_wsgi.app:application",
             asgi="apps.django_wsgi.app:asgi_application"),
    Workload("64k", "/64k", 200, BLOB, wsgi="apps.payload.app:application", asgi="apps.payload.asgi:app"),
    Workload("post-1m", "/echo", 200, None, wsgi="apps.payload.app:application", asgi="apps.payload.asgi:app",
             method="POST", request_body_size=1024 * 1024, client="bulk"),
    Workload("busy", "/busy?ms=0.3", 200, b"busy", wsgi="apps.probe.app:application"),
    Workload("cpu", "/cpu?n=20000", 200, b"667472", wsgi="apps.cpu.app:application"),
    Workload("cpu-local", "/cpu-local?n=20000", 200, b"667472", wsgi="apps.cpu.app:application"),
    Workload("static-64k", "/static/64k.bin", 200, BLOB, wsgi="apps.hello.app:application", static="64k.bin"),
    Workload("django-mixed", "/hello", 200, b"Hello, World!", wsgi="apps.django_wsgi.app:application",
             background_path="/slow?ms=200"),
    *(Workload(f"ws-echo-{label}{'-deflate' if deflate else ''}", "/", 101, None, asgi="apps.ws_echo.asgi:app",
               client="wsload", message_size=size, deflate=deflate)
      for label, size in (("32", 32), ("512", 512), ("16k", 16384)) for deflate in (False, True)),
    Workload("ws-broadcast", "/broadcast", 101, None, asgi="apps.ws_echo.broadcast:app", client="wsload",
             message_size=64, broadcast=True),
    # TLS and HTTP/2 (the same apps and bytes as the plain rows).
    Workload("hello-https", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application",
             asgi="apps.hello.asgi:app", wire="https"),
    Workload("handshake-https", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application",
             asgi="apps.hello.asgi:app", wire="https", fresh=True),
    *(Workload(f"hello-h2-m{streams}", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application",
               asgi="apps.hello.asgi:app", client="h2load", wire="h2", streams=streams) for streams in (1, 10, 100)),
    Workload("hello-h2c-m10", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application",
             asgi="apps.hello.asgi:app", client="h2load", wire="h2c", streams=10),
    Workload("static-64k-h2", "/static/64k.bin", 200, BLOB, wsgi="apps.hello.app:application", static="64k.bin",
             client="h2load", wire="h2", streams=10),
    Workload("flask-json-h2", "/json", 200, None, wsgi="apps.flask_json.app:app", client="h2load", wire="h2",
             streams=10),
    Workload("starlette-json-h2", "/json", 200, None, asgi="apps.starlette_json.app:app", client="h2load",
             wire="h2", streams=10),
    # HTTP/3: the same rows over QUIC.
    *(Workload(f"hello-h3-m{streams}", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application",
               asgi="apps.hello.asgi:app", client="h2load", wire="h3", streams=streams) for streams in (1, 10, 100)),
    Workload("static-64k-h3", "/static/64k.bin", 200, BLOB, wsgi="apps.hello.app:application", static="64k.bin",
             client="h2load", wire="h3", streams=10),
    Workload("starlette-json-h3", "/json", 200, None, asgi="apps.starlette_json.app:app", client="h2load",
             wire="h3", streams=10),
    # A 1 MiB upload echoed back, one stream a connection: what the server
    # reads is a run of full datagrams from each client (GRO's case).
    *(Workload(f"post-1m-{wire}", "/echo", 200, None, wsgi="apps.payload.app:application", method="POST",
               request_body_size=1024 * 1024, client="h2load", wire=wire, streams=1) for wire in ("h3", "h2")),
)}
