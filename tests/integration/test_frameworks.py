"""Flask and Django, from Debian's packages, served by baton over real sockets."""

import hashlib
import os
import tempfile

import httpx
import pytest

from tests.integration.server import Server

APPS = {
    "flask": "tests.integration.apps.flask_app:app",
    "django": "tests.integration.apps.django_app:application",
}


@pytest.fixture(scope="module", params=sorted(APPS))
def framework(request, shape):
    server = Server(["--port", "0", *shape, "--max-body-size", "50000000", APPS[request.param]]).start()
    server.name = request.param
    yield server
    server.stop()


@pytest.fixture
def client(framework):
    with httpx.Client(base_url=framework.url, timeout=30) as c:
        yield c


def test_page(client, framework):
    r = client.get("/")
    assert r.status_code == 200
    assert f"{framework.name} on baton" in r.text
    assert r.headers["content-type"].startswith("text/html")


def test_form_post(client):
    r = client.post("/form", data={"name": "ada", "tag": ["a", "b"]})
    assert r.status_code == 200
    assert r.json()["name"] == "ada" and r.json()["tags"] == ["a", "b"]


def test_json_post(client):
    r = client.post("/json", json={"n": 21, "s": "ü"})
    assert r.status_code == 200
    assert r.json()["received"] == {"n": 21, "s": "ü"}


def test_ten_megabyte_multipart_upload(client):
    content = os.urandom(10 * 1024 * 1024)
    r = client.post("/upload", files={"file": ("big.bin", content, "application/octet-stream")})
    assert r.status_code == 200
    data = r.json()
    assert data["size"] == len(content)
    assert data["sha256"] == hashlib.sha256(content).hexdigest()


def test_chunked_upload(client):
    pieces = [os.urandom(10_000 + i) for i in range(50)]
    r = client.post("/raw", content=iter(pieces))  # an iterator body goes out chunked
    assert r.status_code == 200
    whole = b"".join(pieces)
    assert r.json() == {"size": len(whole), "sha256": hashlib.sha256(whole).hexdigest()}


def test_streamed_response(client, framework):
    r = client.get("/stream")
    assert r.status_code == 200
    assert r.headers.get("transfer-encoding") == "chunked"
    word = "row" if framework.name == "flask" else "part"
    lines = r.text.splitlines()
    assert lines[0] == f"{word} 0" and len(lines) == (100 if framework.name == "flask" else 50)


def test_file_response(client, framework):
    r = client.get("/file")
    assert r.status_code == 200
    suffix = ".txt" if framework.name == "flask" else ".bin"
    path = os.path.join(tempfile.gettempdir(), f"baton-{framework.name}-{framework.proc.pid}{suffix}")
    with open(path, "rb") as f:
        assert r.content == f.read()
    assert r.headers["content-length"] == str(len(r.content))


def test_cookies_round_trip(client, framework):
    path = "/set-cookie" if framework.name == "flask" else "/cookies"
    r = client.get(path)
    assert r.status_code == 200
    assert "set-cookie" in r.headers
    r2 = client.get("/read-cookie" if framework.name == "flask" else "/cookies")
    seen = r2.json() if framework.name == "flask" else r2.json()["seen"]
    expected = {"session": "abc123", "theme": "dark"} if framework.name == "flask" else {"visited": "yes"}
    assert seen == expected


def test_redirect(client):
    r = client.get("/redirect")
    assert r.status_code == 302
    assert r.headers["location"] == "/"
    assert client.get("/redirect", follow_redirects=True).status_code == 200


def test_framework_error_page_keeps_server_up(client, framework):
    if framework.name == "flask":
        assert client.get("/boom").status_code == 500
    else:
        assert client.post("/protected").status_code == 403  # CSRF middleware ran
    assert client.get("/").status_code == 200
