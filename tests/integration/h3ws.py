"""A WebSocket client over one HTTP/3 stream (RFC 9220), for the tests: an
extended CONNECT on an aioquic connection (tests/integration/h3client.py's
client, which also sends ordinary requests beside it and sees the server's
GOAWAY), then WebSocket frames (ws_client_frames.py) as the stream's DATA.
Async: each test runs its conversation in asyncio.run."""

from __future__ import annotations

import asyncio
import contextlib

from websockets.frames import Frame, Opcode

from tests.integration.h3client import _setup
from tests.integration.ws_client_frames import DEFLATE_OFFER, ENABLE_CONNECT_PROTOCOL, ClientFrames

__all__ = ["ENABLE_CONNECT_PROTOCOL", "H3WebSocket", "connection"]


def _client_class():
    from aioquic.h3.events import DataReceived, HeadersReceived
    from aioquic.quic.events import StopSendingReceived, StreamReset

    class WebSocketClient(_setup()):
        """h3client's client, with the streams of its WebSockets read as they come."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.sockets: dict[int, H3WebSocket] = {}
            self.changed = asyncio.Event()

        def quic_event_received(self, event):
            ws = self.sockets.get(getattr(event, "stream_id", None))
            if ws is None:
                super().quic_event_received(event)
            elif isinstance(event, StreamReset):
                ws.reset = event.error_code
            elif isinstance(event, StopSendingReceived):
                ws.stopped = event.error_code  # aioquic resets its side at once
            else:
                for e in self.http.handle_event(event):
                    if isinstance(e, HeadersReceived):
                        fields = {k.decode(): v.decode() for k, v in e.headers}
                        ws.status = int(fields.pop(":status"))
                        ws.headers = fields
                    elif isinstance(e, DataReceived):
                        ws.data += e.data
                    if getattr(e, "stream_ended", False):
                        ws.ended = True
            self.changed.set()

        async def until(self, predicate, timeout: float = 10.0) -> bool:
            """Waits for `predicate()` to hold; False when it did not in time."""
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while not predicate():
                left = deadline - loop.time()
                if left <= 0:
                    return False
                self.changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), left)
            return True

    return WebSocketClient


@contextlib.asynccontextmanager
async def connection(port: int, ca: str, idle_timeout: float = 10.0):
    """An HTTP/3 connection to the server on `port` that WebSockets can open on."""
    from aioquic.asyncio import connect
    from aioquic.h3.connection import H3_ALPN
    from aioquic.quic.configuration import QuicConfiguration

    configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    configuration.load_verify_locations(ca)
    configuration.idle_timeout = idle_timeout
    async with connect("127.0.0.1", port, configuration=configuration, create_protocol=_client_class()) as client:
        yield client


class H3WebSocket(ClientFrames):
    def __init__(self, client, sid: int):
        super().__init__()
        self.client = client
        self.sid = sid
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.data = bytearray()
        self.ended = False  # the server's FIN came
        self.reset: int | None = None  # the server reset its side, with this code
        self.stopped: int | None = None  # the server asked the client to stop sending

    @classmethod
    async def open(cls, client, port: int, path: str, *, deflate: bool = False, subprotocols=(), headers=(),
                   version: str = "13", protocol: str = "websocket", timeout: float = 10.0) -> H3WebSocket:
        fields = [(":method", "CONNECT"), (":protocol", protocol), (":scheme", "https"), (":path", path),
                  (":authority", f"localhost:{port}"), ("sec-websocket-version", version), *headers]
        if deflate:
            fields.append(("sec-websocket-extensions", DEFLATE_OFFER))
        if subprotocols:
            fields.append(("sec-websocket-protocol", ", ".join(subprotocols)))
        ws = cls(client, client._quic.get_next_available_stream_id())
        client.sockets[ws.sid] = ws
        client.http.send_headers(ws.sid, [(k.encode(), v.encode()) for k, v in fields], end_stream=False)
        client.transmit()
        assert await client.until(lambda: ws.status is not None or ws.reset is not None, timeout), \
            f"no answer to the extended CONNECT on stream {ws.sid}"
        ws.agree(ws.headers.get("sec-websocket-extensions"))
        return ws

    def write(self, wire: bytes) -> None:
        self.client.http.send_data(self.sid, wire, end_stream=False)  # aioquic sends as the credit allows
        self.client.transmit()

    def quic_stream(self):
        """aioquic's record of the stream: its credit from the server (max_stream_data_remote) and the
        bytes sent on it (sender.highest_offset)."""
        return self.client._quic._streams[self.sid]

    async def recv_frame(self, timeout: float = 10.0) -> Frame:
        def ready():
            self.take(self.data)
            return bool(self.frames) or self.ended or self.reset is not None

        assert await self.client.until(ready, timeout), "no frame in time"
        assert self.frames, f"stream {self.sid} ended with no frame (reset: {self.reset})"
        return self.frames.pop(0)

    async def recv(self, timeout: float = 10.0) -> str | bytes:
        frame = await self.recv_frame(timeout)
        assert frame.opcode in (Opcode.TEXT, Opcode.BINARY), frame
        return frame.data.decode() if frame.opcode == Opcode.TEXT else bytes(frame.data)

    async def wait_ended(self, timeout: float = 10.0) -> bool:
        """The server ended the stream (its FIN) after everything it sent."""
        await self.client.until(lambda: self.ended or self.reset is not None, timeout)
        return self.ended
