"""Static files and the health path, answered by the core without Python:
validators and 304, ranges and 206/416, content types, expiry, every way
out of the directory refused, still answered while every app thread is
busy; health 200, then 503 from the moment a drain begins while the
request in flight finishes."""

import os
import signal
import socket
import threading
import time

import httpx
import pytest

from tests.integration.server import Server, read_response

OPS = "tests.integration.apps.ops_apps:app"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    public = root / "public"
    (public / "css").mkdir(parents=True)
    (public / "css" / "site.css").write_text("body { color: red }\n")
    (public / "app.js").write_text("console.log(1)\n")
    (public / "index.html").write_text("<h1>hi</h1>\n")
    (public / "data.bin").write_bytes(bytes(range(256)) * 256)  # 64 KiB
    (public / "empty.txt").write_text("")
    (public / "noext").write_text("?")
    (public / "with space.txt").write_text("spaced\n")
    secret = root / "secret.txt"
    secret.write_text("outside the mount\n")
    os.symlink(secret, public / "leak.txt")                        # points out of the mount
    os.symlink("css/site.css", public / "alias.css")               # relative, stays inside
    os.symlink(public / "css" / "site.css", public / "absolute.css")  # absolute: not followed
    os.symlink(root, public / "up")                                # a directory link out
    unreadable = public / "locked.txt"
    unreadable.write_text("no")
    os.chmod(unreadable, 0)
    return root


# Every test runs with openat2 (RESOLVE_BENEATH) and again through the
# fallback walk a kernel without openat2 gets (BATON_X_STATIC_OPENAT2=0).
@pytest.fixture(scope="module", params=["openat2", "fallback"])
def static_server(request, tree):
    env = {"BATON_X_STATIC_OPENAT2": "0"} if request.param == "fallback" else {}
    server = Server(["--port", "0", "--blocking-threads", "1", "--static-path-route", "/static",
                     "--static-path-mount", str(tree / "public"), "--static-path-route", "/assets/",
                     "--static-path-mount", str(tree / "public" / "css"), "--static-path-expires", "3600",
                     "--health-path", "/healthz", OPS], env=env).start()
    server.open_walk = request.param
    yield server
    server.stop()


def raw(server, request: bytes):
    with server.connect() as sock:
        sock.sendall(request)
        return read_response(sock, head_only=request.startswith(b"HEAD"))


def get(server, path, **headers):
    return httpx.get(server.url + path, headers=headers)


def test_file_with_validators_type_and_expiry(static_server, tree):
    r = get(static_server, "/static/css/site.css")
    assert r.status_code == 200
    assert r.text == "body { color: red }\n"
    assert r.headers["content-type"] == "text/css; charset=utf-8"
    assert r.headers["content-length"] == "20"
    assert r.headers["cache-control"] == "public, max-age=3600"
    assert r.headers["accept-ranges"] == "bytes"
    assert r.headers["etag"].startswith('"') and r.headers["last-modified"].endswith(" GMT")
    assert r.headers["server"] == "baton"
    assert get(static_server, "/static/app.js").headers["content-type"] == "text/javascript; charset=utf-8"
    assert get(static_server, "/static/index.html").headers["content-type"] == "text/html; charset=utf-8"
    assert get(static_server, "/static/noext").headers["content-type"] == "application/octet-stream"
    assert get(static_server, "/static/with%20space.txt").text == "spaced\n"
    # A second mount, routed with a trailing slash.
    assert get(static_server, "/assets/site.css").text == "body { color: red }\n"


def test_large_file_whole(static_server, tree):
    r = get(static_server, "/static/data.bin")
    assert r.status_code == 200 and r.content == (tree / "public" / "data.bin").read_bytes()


def test_conditional_requests(static_server):
    first = get(static_server, "/static/css/site.css")
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    r = get(static_server, "/static/css/site.css", **{"If-None-Match": etag})
    assert r.status_code == 304 and r.content == b"" and r.headers["etag"] == etag
    assert get(static_server, "/static/css/site.css", **{"If-None-Match": f'"nope", W/{etag}'}).status_code == 304
    assert get(static_server, "/static/css/site.css", **{"If-None-Match": "*"}).status_code == 304
    assert get(static_server, "/static/css/site.css", **{"If-None-Match": '"other"'}).status_code == 200
    assert get(static_server, "/static/css/site.css", **{"If-Modified-Since": modified}).status_code == 304
    assert get(static_server, "/static/css/site.css",
               **{"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"}).status_code == 200
    # If-None-Match wins over If-Modified-Since.
    assert get(static_server, "/static/css/site.css",
               **{"If-None-Match": '"other"', "If-Modified-Since": modified}).status_code == 200


def test_ranges(static_server, tree):
    data = (tree / "public" / "data.bin").read_bytes()
    r = get(static_server, "/static/data.bin", Range="bytes=10-19")
    assert r.status_code == 206 and r.content == data[10:20]
    assert r.headers["content-range"] == f"bytes 10-19/{len(data)}"
    r = get(static_server, "/static/data.bin", Range="bytes=65500-")
    assert r.status_code == 206 and r.content == data[65500:]
    r = get(static_server, "/static/data.bin", Range="bytes=-5")
    assert r.status_code == 206 and r.content == data[-5:]
    r = get(static_server, "/static/data.bin", Range="bytes=100-999999")
    assert r.status_code == 206 and r.content == data[100:]
    r = get(static_server, "/static/data.bin", Range="bytes=70000-")
    assert r.status_code == 416 and r.headers["content-range"] == f"bytes */{len(data)}"
    # Several ranges, or a malformed one: the whole file.
    assert get(static_server, "/static/data.bin", Range="bytes=0-1,5-6").status_code == 200
    assert get(static_server, "/static/data.bin", Range="bytes=9-2").status_code == 200
    # If-Range with a stale validator: the whole file.
    etag = get(static_server, "/static/data.bin").headers["etag"]
    assert get(static_server, "/static/data.bin", Range="bytes=0-0", **{"If-Range": etag}).status_code == 206
    assert get(static_server, "/static/data.bin", Range="bytes=0-0", **{"If-Range": '"old"'}).status_code == 200


def test_head_and_methods(static_server):
    status, headers, body, _ = raw(static_server, b"HEAD /static/css/site.css HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200 and headers["content-length"] == "20" and body == b""
    r = httpx.post(static_server.url + "/static/css/site.css", content=b"x")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert get(static_server, "/static/empty.txt").content == b""


def test_keep_alive_across_static_and_app(static_server):
    with static_server.connect() as sock:
        for path in (b"/static/css/site.css", b"/", b"/static/app.js", b"/healthz"):
            sock.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            status, headers, _, _ = read_response(sock)
            assert status == 200 and headers.get("connection") != "close"


@pytest.mark.parametrize("path", [
    "/static/../secret.txt",
    "/static/css/../../secret.txt",
    "/static/%2e%2e/secret.txt",
    "/static/%2E%2E/secret.txt",
    "/static/css/..%2f..%2fsecret.txt",
    "/static/css%2f..%2f..%2fsecret.txt",
    "/static/..%5csecret.txt",
    "/static/leak.txt",
    "/static/absolute.css",
    "/static/up/secret.txt",
    "/static/css/%00site.css",
    "/static/%zz",
    "/static/css",
    "/static/",
    "/static",
    "/static/missing.txt",
])
def test_no_way_out_and_no_listing(static_server, path):
    with static_server.connect() as sock:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _, body, _ = read_response(sock)
    assert status in (400, 404), (path, status)
    assert b"outside the mount" not in body


def test_relative_symlink_inside_the_mount_is_served_by_openat2_and_refused_by_the_fallback(static_server):
    r = get(static_server, "/static/alias.css")
    if static_server.open_walk == "openat2":
        assert r.status_code == 200 and r.text == "body { color: red }\n"
    else:
        assert r.status_code == 404  # the fallback follows no symbolic link at all


# The 403 of an unreadable file: root reads any file, so the unit test
# (local_routes_test.cc) checks it in a child that has become nobody.


def test_served_while_every_app_thread_is_busy(static_server):
    # One app thread, held by a slow view: static files and health still answer at once.
    results = {}

    def slow():
        results["slow"] = httpx.get(static_server.url + "/slow?2", timeout=10).status_code

    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(0.3)
    started = time.monotonic()
    assert get(static_server, "/static/css/site.css").status_code == 200
    assert get(static_server, "/healthz").status_code == 200
    assert time.monotonic() - started < 1.0
    thread.join()
    assert results["slow"] == 200


def test_health(static_server):
    r = get(static_server, "/healthz")
    assert r.status_code == 200 and r.text == "OK\n" and r.headers["cache-control"] == "no-store"
    assert httpx.post(static_server.url + "/healthz").status_code == 405
    assert get(static_server, "/healthz?probe=1").status_code == 200


# Not the inline shape: its loop thread is inside the slow view, so nothing
# on that worker answers until the view returns (the README says so).
@pytest.mark.parametrize("shape", [["--blocking-threads", "2"],
                                   ["--interface", "asgi", "tests.integration.apps.ops_apps:asgi_app"]],
                         ids=["pool", "asgi"])
def test_health_turns_503_when_a_drain_begins_while_in_flight_finishes(shape):
    app = [] if "asgi" in shape else [OPS]
    server = Server(["--port", "0", "--health-path", "/healthz", "--graceful-timeout", "10", *shape, *app]).start()
    try:
        assert get(server, "/healthz").status_code == 200
        slow = server.connect()
        slow.sendall(b"GET /slow?1.5 HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.3)
        server.signal(signal.SIGTERM)
        time.sleep(0.3)
        # New connections are still accepted through the drain, to be told.
        r = get(server, "/healthz")
        assert r.status_code == 503 and r.headers["connection"] == "close"
        assert get(server, "/").status_code == 503
        status, _, _, _ = read_response(slow)
        assert status == 200
        slow.close()
        assert server.wait(10) == 0
    finally:
        server.stop()
