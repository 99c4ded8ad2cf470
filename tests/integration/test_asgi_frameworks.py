"""Starlette, FastAPI and a Django ASGI view, from Debian's packages, in every ASGI shape."""

import hashlib

import httpx
import pytest

from tests.conftest import ASGI_SHAPES
from tests.integration.server import Server

APPS = {
    "starlette": "tests.integration.apps.frameworks_asgi:starlette_app",
    "fastapi": "tests.integration.apps.frameworks_asgi:fastapi_app",
    "django": "tests.integration.apps.django_app:asgi_application",
}


@pytest.fixture(scope="module", params=[(s, a) for s in ASGI_SHAPES for a in APPS], ids=lambda p: f"{p[1]}-{p[0]}")
def framework(request):
    shape, name = request.param
    server = Server(["--port", "0", *ASGI_SHAPES[shape], "--max-body-size", "50000000", APPS[name]]).start()
    server.name = name
    yield server
    server.stop()


@pytest.fixture
def client(framework):
    with httpx.Client(base_url=framework.url, timeout=30) as c:
        yield c


def test_a_page(client, framework):
    if framework.name == "starlette":
        assert client.get("/hello?name=baton").text == "starlette says hello to baton"
    elif framework.name == "fastapi":
        assert client.get("/items/5?q=x").json() == {"item_id": 5, "q": "x"}
        assert client.get("/items/not-a-number").status_code == 422
    else:
        r = client.get("/")
        assert r.status_code == 200 and "django on baton" in r.text


def test_an_upload(client, framework):
    body = bytes(range(256)) * 4096  # 1 MiB
    if framework.name == "django":
        r = client.post("/upload", files={"file": ("blob.bin", body, "application/octet-stream")})
        assert r.status_code == 200
        assert r.json() == {"name": "blob.bin", "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        return
    r = client.post("/upload", content=body)
    assert r.json() == {"length": len(body), "sum": sum(body) % 65521}


def test_a_streamed_response(client, framework):
    r = client.get("/stream")
    assert r.status_code == 200
    if framework.name in ("starlette", "fastapi"):
        assert r.text == "".join(f"{i}\n" for i in range(5))
    else:
        assert r.text == "".join(f"part {i}\n" for i in range(50))
