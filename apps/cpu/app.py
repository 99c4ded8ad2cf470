"""A CPU-bound WSGI view: /cpu?n=N runs a fixed amount of pure Python (N
steps of an integer recurrence, about 2.5 ms at n=40000 on 3.13t here) and
answers its result, the same bytes from every server and every interpreter.
Unlike the pool-fairness probe's timed spin, the work per request is fixed:
two threads sharing a GIL do it one at a time, two without one at once."""


def work(n: int) -> int:
    total = 0
    for i in range(n):
        total = (total * 31 + i) % 1_000_003
    return total


def application(environ, start_response):
    query = environ.get("QUERY_STRING", "")
    n = int(query.partition("n=")[2] or "20000") if query.startswith("n=") else 40000
    body = b"%d" % work(n)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
