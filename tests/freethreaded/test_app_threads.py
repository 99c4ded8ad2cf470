"""A WSGI app's own threads using its request's write() and wsgi.input
(tests/integration/test_wsgi_app_threads.py), on the free-threaded build:
there the app's thread truly runs beside the one running the app, so the
app's return and a write() in progress (or parked for a slow client) meet
without a GIL between them (and, under `make tsan-freethreaded`, under
ThreadSanitizer)."""

import pytest

from tests.integration import test_wsgi_app_threads as app_threads

SHAPES = {
    "pool-4": ["--blocking-threads", "4"],
    "threads-2-inline": ["--threads", "2", "--blocking-threads", "0"],
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_apps_threads_use_their_requests_callables(serve, shape):
    server = serve(*SHAPES[shape], app_threads.APP)
    app_threads.test_a_thread_the_app_joins_writes_past_the_output_window(server)
    app_threads.test_a_thread_the_app_joins_reads_a_body_that_comes_late(server)
    app_threads.test_a_thread_left_writing_when_the_app_returned_ends_with_its_request(server)


def test_a_thread_writing_as_the_app_returns_never_writes_past_its_result(serve):
    # Here the thread and the app's return truly race: a thousand times.
    server = serve("--blocking-threads", "4", app_threads.APP)
    app_threads.race_writes_against_the_return(server, 1000)
