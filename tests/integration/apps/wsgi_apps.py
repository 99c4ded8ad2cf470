"""WSGI apps the integration tests serve, one route per behaviour under test.

`app` is the plain app; `validated` is the same app wrapped in
wsgiref.validate.validator, served with warnings turned into errors, so any
PEP 3333 violation by the server fails the request.
"""

import base64
import json
import os
import sys
import tempfile
import time
from urllib.parse import parse_qs
from wsgiref.validate import validator

RECORD = os.environ.get("BATON_TEST_RECORD")
FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-test-file-{os.getpid()}.bin")
FILE_BYTES = bytes(range(256)) * 4096  # 1 MiB
with open(FILE_PATH, "wb") as f:
    f.write(FILE_BYTES)

closed = {"count": 0}
kept = {}  # what /keep-input keeps for /read-kept


def record(line):
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line + "\n")


class ClosingIterable:
    """A response body that counts close() calls."""

    def __init__(self, chunks, fail_at=None):
        self.chunks = chunks
        self.fail_at = fail_at

    def __iter__(self):
        for i, chunk in enumerate(self.chunks):
            if self.fail_at is not None and i == self.fail_at:
                raise RuntimeError("failing mid-body on purpose")
            yield chunk

    def close(self):
        closed["count"] += 1
        record("closed")


def read_all(stream):
    """Reads the whole body with read(size) calls, the form PEP 3333 guarantees."""
    parts = []
    while True:
        part = stream.read(65536)
        if not part:
            return b"".join(parts)
        parts.append(part)


def query(environ):
    return {k: v[0] for k, v in parse_qs(environ.get("QUERY_STRING", "")).items()}


def json_response(start_response, obj, status="200 OK"):
    body = json.dumps(obj).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


# Status lines and fields the same str objects answer with at every request,
# as an app's constants do: the server may remember that it found one
# valid, but only as what it was found valid as.
A_VALUE_NOT_A_NAME = "two words"  # a valid field value; not a name (a space), not a status line
A_NAME = "X-Known"
A_STATUS = "201 Created"  # a valid status line; not a field name


def app(environ, start_response):
    path = environ["PATH_INFO"]
    q = query(environ)
    record(f"{environ['REQUEST_METHOD']} {environ.get('RAW_URI', path)}")
    stream = environ["wsgi.input"]

    if path == "/hello":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"Hello, World!"]
    if path == "/echo":
        body = read_all(stream)
        return json_response(start_response, {
            "method": environ["REQUEST_METHOD"],
            "path": path,
            "query": environ["QUERY_STRING"],
            "raw_uri": environ.get("RAW_URI"),
            "protocol": environ["SERVER_PROTOCOL"],
            "script_name": environ["SCRIPT_NAME"],
            "remote_addr": environ["REMOTE_ADDR"],
            "remote_port": environ["REMOTE_PORT"],
            "content_type": environ.get("CONTENT_TYPE"),
            "content_length": environ.get("CONTENT_LENGTH"),
            "headers": {k: v for k, v in environ.items() if k.startswith("HTTP_")},
            "body_b64": base64.b64encode(body).decode(),
            "body_length": len(body),
        })
    if path == "/read-outcome":
        # Records what the body read gave: its length, or the error it raised.
        try:
            body = read_all(stream)
        except OSError as error:
            record(f"read error: {error}")
            raise
        record(f"read {len(body)} bytes")
        return json_response(start_response, {"body_length": len(body)})
    if path == "/read-sized":
        n = int(q.get("n", "7"))
        parts = []
        while True:
            part = stream.read(n)
            if not part:
                break
            assert len(part) <= n
            parts.append(part)
        return json_response(start_response, {"sizes": [len(p) for p in parts], "body": b"".join(parts).decode()})
    if path == "/readline":
        first = stream.readline()
        limited = stream.readline(3)
        rest = stream.readlines()
        return json_response(start_response, {"first": first.decode(), "limited": limited.decode(),
                                              "rest": [line.decode() for line in rest]})
    if path == "/iterate":
        lines = [line.decode() for line in stream]
        return json_response(start_response, {"lines": lines})
    if path == "/no-read":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"did not read the body"]
    if path == "/stream":
        count = int(q.get("count", "5"))
        size = int(q.get("size", "10"))
        delay = float(q.get("delay", "0"))
        start_response("200 OK", [("Content-Type", "application/octet-stream")])

        def generate():
            for i in range(count):
                if delay:
                    time.sleep(delay)
                yield bytes([65 + i % 26]) * size
        return ClosingIterable(generate())
    if path == "/write":
        write = start_response("200 OK", [("Content-Type", "text/plain")])
        write(b"written ")
        write(b"directly, ")
        return [b"then returned"]
    if path == "/file":
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        f = open(FILE_PATH, "rb")
        if "offset" in q:
            f.seek(int(q["offset"]))
        return environ["wsgi.file_wrapper"](f, 65536)
    if path == "/empty":
        start_response("204 No Content", [])
        return []
    if path == "/raise":
        raise ValueError("the app failed on purpose")
    if path == "/raise-mid-body":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return ClosingIterable([b"first chunk", b"never"], fail_at=1)
    if path == "/non-bytes":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return ["a str is not bytes"]
    if path == "/start-twice":
        start_response("200 OK", [("Content-Type", "text/plain")])
        start_response("201 Created", [("Content-Type", "text/plain")])
        return [b"unreachable"]
    if path == "/exc-info":
        try:
            raise KeyError("before the body")
        except KeyError:
            start_response("200 OK", [("Content-Type", "text/plain")])
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")], sys.exc_info())
        return [b"replaced by exc_info"]
    if path == "/same-texts":
        start_response(A_STATUS, [(A_NAME, A_VALUE_NOT_A_NAME)])
        return [b"constants"]
    if path == "/same-texts-value-as-name":
        start_response("200 OK", [(A_VALUE_NOT_A_NAME, A_VALUE_NOT_A_NAME)])
        return [b"must not be sent"]
    if path == "/same-texts-value-as-status":
        start_response(A_VALUE_NOT_A_NAME, [])
        return [b"must not be sent"]
    if path == "/same-texts-status-as-name":
        start_response("200 OK", [(A_STATUS, A_VALUE_NOT_A_NAME)])
        return [b"must not be sent"]
    if path == "/same-texts-from-a-thread":
        import threading

        started = threading.Thread(target=start_response, args=(A_STATUS, [(A_NAME, A_VALUE_NOT_A_NAME)]))
        started.start()
        started.join()
        return [b"from a thread"]
    if path == "/header-injection":
        start_response("200 OK", [("Content-Type", "text/plain"), ("X-Evil", "a\r\nSet-Cookie: owned=1")])
        return [b"must not be sent"]
    if path == "/bad-status":
        start_response("OK", [])
        return [b"no code"]
    if path == "/no-start":
        return [b"body without start_response"]
    if path == "/closed-count":
        return json_response(start_response, {"closed": closed["count"]})
    if path == "/slow":
        time.sleep(float(q.get("ms", "100")) / 1000)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"slow done"]
    if path == "/short-length":
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "100")])
        return [b"only this"]
    if path == "/environ-types":
        types = {k: type(v).__name__ for k, v in environ.items()}
        return json_response(start_response, {"types": types, "version": list(environ["wsgi.version"])})
    if path == "/write-then-read":
        # PEP 3333 allows reading the body after the head is committed.
        write = start_response("200 OK", [("Content-Type", "text/plain")])
        write(b"echo:")
        for line in stream:
            write(line.upper())
        return []
    if path == "/write-in-close":
        write = start_response("200 OK", [("Content-Type", "text/plain")])

        class WritesInClose:
            def __iter__(self):
                yield b"body"

            def close(self):
                try:
                    write(b"AFTER-THE-END")
                except OSError:
                    record("write after end refused")
        return WritesInClose()
    if path == "/conflicting-length":
        start_response("200 OK", [("Content-Length", "5"), ("Content-Length", "50")])
        return [b"hello"]
    if path == "/repeated-length":
        start_response("200 OK", [("Content-Length", "5"), ("Content-Length", "5")])
        return [b"hello"]
    if path == "/exc-info-without-exception":
        write = start_response("200 OK", [("Content-Type", "text/plain")])
        write(b"committed")
        start_response("500 Oops", [], (None, None, None))
        return [b"unreachable"]
    if path == "/interim-status":
        start_response("103 Early Hints", [("Link", "</a.css>; rel=preload")])
        return [b"an interim status cannot end a response"]
    if path == "/file-wrapper-none":
        class Unreadable:
            def read(self, size):
                return None
        start_response("200 OK", [("Content-Type", "text/plain")])
        return environ["wsgi.file_wrapper"](Unreadable())
    if path == "/multithread":
        return json_response(start_response, {"multithread": environ["wsgi.multithread"],
                                              "multiprocess": environ["wsgi.multiprocess"]})
    if path == "/tagged":
        # Answers with the tag and the body it was sent: a reply proves which request it answers.
        body = read_all(stream)
        start_response("200 OK", [("Content-Type", "application/octet-stream"),
                                  ("Content-Length", str(len(body) + len(q.get("tag", "")) + 1))])
        return [q.get("tag", "").encode() + b":" + body]
    if path == "/keep-input":
        # Keeps this request's wsgi.input past its end, for /read-kept.
        kept["input"] = stream
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"kept"]
    if path == "/read-kept":
        # Reads the input a former request kept: it must raise, not read this request's body.
        try:
            outcome = "read " + kept["input"].read(100).decode("latin-1")
        except Exception as error:
            outcome = f"raised {type(error).__name__}"
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [outcome.encode() + b" / own " + read_all(stream)]
    if path == "/connection-close":
        start_response("200 OK", [("Content-Type", "text/plain"), ("Connection", "close")])
        return [b"bye"]
    start_response("404 Not Found", [("Content-Type", "text/plain")])
    return [b"not found"]


validated = validator(app)
