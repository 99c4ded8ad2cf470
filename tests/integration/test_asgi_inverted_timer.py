"""The inverted ASGI shape's timer for the native loop's next deadline keeps
working when uvloop hands back a plain Handle instead of a TimerHandle: its
call_at does so when the due time rounds to under a millisecond on its own
clock, which can tick between the shape's reading of the time and the call
(QUIC's one-millisecond timers met it under load, an AttributeError on
Handle.when() in a loop callback each time, and the deadline's pass lost).
The loop here is uvloop's, made to take that branch on every call_at; the
native server is a stand-in that asks for a 1 ms pass a number of times."""

import asyncio
import os

import pytest

uvloop = pytest.importorskip("uvloop")

from baton.asgi import InvertedPasses  # noqa: E402


class TickingLoop(uvloop.Loop):
    """uvloop, as when its millisecond clock ticks between the caller's
    time() and call_at: the callback is queued with call_soon."""

    def call_at(self, when, callback, *args, context=None):
        return self.call_soon(callback, *args, context=context)


class NativeStandIn:
    def __init__(self, passes: int):
        self.read_end, self.write_end = os.pipe()
        self.backend_fd = self.read_end
        self.stopped = False
        self.left = passes

    def posted_pass(self) -> int:
        self.left -= 1
        if self.left == 0:
            self.stopped = True
        return 1  # the next deadline: one millisecond

    def run_pass(self) -> int:
        return self.posted_pass()


def test_every_deadline_pass_runs_when_uvloop_returns_a_plain_handle():
    loop = TickingLoop()
    errors = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        stopped = loop.create_future()
        passes = InvertedPasses(loop, stopped)
        native = NativeStandIn(50)
        passes.start(native)
        loop.run_until_complete(asyncio.wait_for(stopped, 5))
        passes.stop()
    finally:
        loop.close()
        os.close(native.read_end)
        os.close(native.write_end)
    assert errors == []
    assert native.left == 0
