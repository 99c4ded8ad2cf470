"""The workloads: the same bytes from every server that can serve them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workload:
    name: str
    path: str
    status: int
    body: bytes | None  # expected response body (None: check the status only)
    wsgi: str | None = None  # module:attribute
    asgi: str | None = None
    method: str = "GET"
    request_body_size: int = 0


HELLO = Workload("hello", "/", 200, b"Hello, World!", wsgi="apps.hello.app:application")

WORKLOADS = {w.name: w for w in (HELLO,)}
