"""A WSGI app whose requests are served by threads it starts itself: its
start_response's write() and its wsgi.input used from a thread other than
the one running the app, joined (within WSGI's contract) or left running
after the app returned (outside it).

/thread-writes?mib=N[&join=0]: a thread writes N MiB, a MiB a call, each
  MiB its index's byte; the app joins it (join=0: returns once the thread
  has been inside one write() for 50 ms, after the first MiB).
/thread-reads: a thread reads the whole body; the app joins it and answers
  with its length.
/thread-race?us=N: a thread writes b"x" over and over (5 000 times at
  most) until it is refused; the app sleeps up to N microseconds (at
  random), then returns [b"!"].
/hello: an answer of its own, for the requests around them.
"""

import random
import threading
import time
from urllib.parse import parse_qs

MIB = 1 << 20


def piece(i: int) -> bytes:
    return bytes([ord("a") + i % 26]) * MIB


def app(environ, start_response):
    path = environ["PATH_INFO"]
    q = {k: v[0] for k, v in parse_qs(environ.get("QUERY_STRING", "")).items()}
    if path == "/thread-writes":
        write = start_response("200 OK", [("Content-Type", "application/octet-stream")])
        first = threading.Event()
        inside = [None]  # the index of the write() the thread is inside, or None

        def writes():
            # Each failure is printed, and the thread goes on until one refuses it.
            for i in range(int(q.get("mib", "4"))):
                inside[0] = i
                try:
                    write(piece(i))
                except Exception as error:  # noqa: BLE001
                    print(f"thread-writes: {type(error).__name__}: {error}", flush=True)
                    if isinstance(error, RuntimeError):
                        return
                finally:
                    inside[0] = None
                first.set()

        thread = threading.Thread(target=writes, daemon=True)
        thread.start()
        if q.get("join", "1") == "1":
            thread.join()
        else:
            # Returns once the thread has been inside one write() for 50 ms:
            # waiting there for the client that does not read. (A fixed
            # sleep after the first write was not enough under
            # ThreadSanitizer: the thread was between two writes.)
            first.wait(10)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                was = inside[0]
                time.sleep(0.05)
                if was is not None and inside[0] == was:
                    break
        return []
    if path == "/thread-reads":
        stream = environ["wsgi.input"]
        got = []
        thread = threading.Thread(target=lambda: got.append(len(stream.read())), daemon=True)
        thread.start()
        thread.join()
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [str(got[0] if got else -1).encode()]
    if path == "/thread-race":
        write = start_response("200 OK", [("Content-Type", "text/plain")])

        def spin():
            try:
                for _ in range(5000):  # some milliseconds: the app mostly returns before
                    write(b"x")
            except (RuntimeError, OSError):
                pass  # refused once the app returned (or the client went)

        threading.Thread(target=spin, daemon=True).start()
        time.sleep(random.random() * int(q.get("us", "300")) / 1e6)
        return [b"!"]
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"Hello, World!"]
