"""The pool-fairness probe's app: /busy?ms=N holds the GIL in a busy loop
for N milliseconds (a CPU-bound view), /hello answers at once."""

import time

HELLO = b"Hello, World!"


def application(environ, start_response):
    if environ["PATH_INFO"] == "/busy":
        ms = float(environ.get("QUERY_STRING", "ms=0.3").partition("=")[2] or "0.3")
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            pass
        body = b"busy"
    else:
        body = HELLO
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
