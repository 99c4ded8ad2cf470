"""A CPU-bound WSGI view: /cpu?n=N runs a fixed amount of pure Python (N
steps of an integer recurrence, about 2.5 ms at n=40000 on 3.13t here) and
answers its result, the same bytes from every server and every interpreter.
Unlike the pool-fairness probe's timed spin, the work per request is fixed:
two threads sharing a GIL do it one at a time, two without one at once.

/cpu-local?n=N does the same steps with the recurrence's two numbers made
by the calling thread instead of read from the code object's constants.
On the free-threaded 3.13 a constant belongs to the thread that imported
the module, and every other thread that uses it counts its references
atomically on one shared field: two threads running /cpu bounce that
cache line at every step (each step costs them 1.3x to 2.5x its time
alone), while /cpu-local's numbers are each thread's own."""


def work(n: int) -> int:
    total = 0
    for i in range(n):
        total = (total * 31 + i) % 1_000_003
    return total


def work_local(n: int) -> int:
    factor, modulus = int("31"), int("1000003")
    total = 0
    for i in range(n):
        total = (total * factor + i) % modulus
    return total


def application(environ, start_response):
    query = environ.get("QUERY_STRING", "")
    n = int(query.partition("n=")[2] or "20000") if query.startswith("n=") else 40000
    steps = work_local if environ.get("PATH_INFO", "") == "/cpu-local" else work
    body = b"%d" % steps(n)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
