"""WSGI apps that hand their request's write() and wsgi.input to threads of
their own, in each shape: a thread the app joins may wait as the app's own
thread would (for a client that reads slowly, for body bytes still to
come); a thread still inside one when the app returns is waited for before
the app's result is sent, and its later calls raise, never reaching
another request. A pool thread's wait let go of the GIL through the pool's
own per-thread state, which a thread of the app does not have: the server
crashed (a null pointer) on the first such wait; and a thread left writing
wrote through the finished request's memory (a crash, or bytes on another
request's connection)."""

import concurrent.futures
import http.client
import re
import socket
import threading
import time

import pytest

from tests.integration.apps.thread_apps import piece
from tests.integration.server import Server, read_response

APP = "tests.integration.apps.thread_apps:app"


@pytest.fixture(scope="module")
def server(shape):
    """One server for the module, in each WSGI shape."""
    s = Server(["--port", "0", *shape, APP]).start()
    yield s
    s.stop()


def small_window_connection(server) -> socket.socket:
    """A connection whose receive buffer is small, so the server's output waits for the client's reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 10)
    s.settimeout(10)
    s.connect(("127.0.0.1", server.port))
    return s


def hello(server) -> bytes:
    with server.connect() as s:
        s.sendall(b"GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        return read_response(s)[2]


def test_a_thread_the_app_joins_writes_past_the_output_window(server):
    s = small_window_connection(server)
    s.sendall(b"GET /thread-writes?mib=4 HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.3)  # the thread's writes fill the window and wait
    status, _, body, _ = read_response(s)
    assert status == 200
    assert body == b"".join(piece(i) for i in range(4))
    s.close()
    assert hello(server) == b"Hello, World!"
    assert server.proc.poll() is None, server.log


def test_a_thread_the_app_joins_reads_a_body_that_comes_late(server):
    with server.connect() as s:
        s.sendall(b"POST /thread-reads HTTP/1.1\r\nHost: t\r\nContent-Length: 200000\r\n\r\n")
        time.sleep(0.3)  # the thread's read waits for the body
        s.sendall(b"b" * 200000)
        status, _, body, _ = read_response(s)
    assert (status, body) == (200, b"200000")
    assert server.proc.poll() is None, server.log


def test_a_thread_left_writing_when_the_app_returned_ends_with_its_request(server):
    # The app returns while its thread is inside write(), waiting for a
    # client that does not read. The server waits for that write before it
    # sends the app's result; the client goes; the write fails, and the
    # thread's next one is refused. Every other request gets its own answer.
    mark = server.log_mark()
    s = small_window_connection(server)
    s.sendall(b"GET /thread-writes?mib=8&join=0 HTTP/1.1\r\nHost: t\r\n\r\n")
    answers = []
    others = threading.Thread(target=lambda: answers.extend(hello(server) for _ in range(10)))
    others.start()
    time.sleep(0.5)
    received = s.recv(1 << 16)
    assert received.startswith(b"HTTP/1.1 200 OK"), received[:200]
    s.close()
    others.join(20)
    assert answers == [b"Hello, World!"] * 10
    logged = "the application returned while a thread of its own was still inside the request's"
    assert server.wait_for_log(logged, since=mark), server.log_since(mark)
    assert "(GET /thread-writes?mib=8&join=0 from 127.0.0.1:" in server.log_since(mark)
    # Refused as the app has returned, or (if the request has ended by then) as it has ended.
    assert server.wait_for_log("thread-writes: RuntimeError: start_response used ", since=mark)
    assert re.search(r"thread-writes: RuntimeError: start_response used "
                     r"(by another thread after the application returned|after its request ended)",
                     server.log_since(mark)), server.log_since(mark)
    assert hello(server) == b"Hello, World!"
    assert server.proc.poll() is None, server.log


def race_writes_against_the_return(server, count: int) -> None:
    """A thread of the app writes b"x" as fast as it can while the app
    sleeps a random while and returns [b"!"]: the server marks the call
    returned, waits for a write in progress, then sends the "!" and ends
    the response; the thread's next write is refused. Every answer is some
    x's, then the "!", and nothing after it."""
    def one(_):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            connection.request("GET", "/thread-race?us=300", headers={"Connection": "close"})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, range(count)))
    shapes = [status == 200 and re.fullmatch(rb"x*!", body) is not None for status, body in answers]
    assert all(shapes), [(status, body[-20:]) for (status, body), ok in zip(answers, shapes) if not ok][:3]
    assert sum(len(body) > 1 for _, body in answers) > count // 10  # the thread wrote before the return, often
    assert server.proc.poll() is None, server.log


def test_a_thread_writing_as_the_app_returns_never_writes_past_its_result(server):
    race_writes_against_the_return(server, 300)
