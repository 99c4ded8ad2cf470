"""The pool-fairness probe's app: /busy?ms=N holds the GIL in a busy loop
for N milliseconds (a CPU-bound view), /sleep?ms=N sleeps N milliseconds
with the GIL let go (a view waiting on a query), /hello answers at once."""

import time

HELLO = b"Hello, World!"


def application(environ, start_response):
    if environ["PATH_INFO"] == "/busy":
        ms = float(environ.get("QUERY_STRING", "ms=0.3").partition("=")[2] or "0.3")
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            pass
        body = b"busy"
    elif environ["PATH_INFO"] == "/sleep":
        time.sleep(float(environ.get("QUERY_STRING", "ms=100").partition("=")[2] or "100") / 1000)
        body = b"slept"
    else:
        body = HELLO
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
