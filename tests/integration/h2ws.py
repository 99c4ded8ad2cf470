"""A WebSocket client over one HTTP/2 stream (RFC 8441), for the tests: an
extended CONNECT on tests/integration/h2client.py's connection, then
WebSocket frames (ws_client_frames.py) as the stream's DATA.
"""

from __future__ import annotations

import time

from websockets.frames import Frame, Opcode

from tests.integration.h2client import H2Client, Response
from tests.integration.ws_client_frames import DEFLATE_OFFER, ENABLE_CONNECT_PROTOCOL, ClientFrames

__all__ = ["ENABLE_CONNECT_PROTOCOL", "H2WebSocket"]


class H2WebSocket(ClientFrames):
    def __init__(self, client: H2Client, path: str, *, deflate: bool = False, subprotocols=(), headers=(),
                 scheme: str = "http", version: str = "13", protocol: str = "websocket", timeout: float = 10.0):
        super().__init__()
        self.client = client
        fields = [(":method", "CONNECT"), (":protocol", protocol), (":scheme", scheme), (":path", path),
                  (":authority", "localhost"), ("sec-websocket-version", version), *headers]
        if deflate:
            fields.append(("sec-websocket-extensions", DEFLATE_OFFER))
        if subprotocols:
            fields.append(("sec-websocket-protocol", ", ".join(subprotocols)))
        self.sid = client.conn.get_next_available_stream_id()
        client.conn.send_headers(self.sid, fields, end_stream=False)
        client.responses[self.sid] = Response()
        client.flush()
        assert client.wait(lambda: client.responses[self.sid].status is not None or client.finished(self.sid),
                           timeout), f"no answer to the extended CONNECT on stream {self.sid}"
        self.response = client.responses[self.sid]
        self.status = self.response.status
        self.agree(self.response.header("sec-websocket-extensions"))

    def write(self, wire: bytes) -> None:
        self.client.send_body(self.sid, wire, end=False)  # as the frame size and windows allow

    def _feed(self) -> None:
        self.take(self.client.responses[self.sid].data)

    def recv_frame(self, timeout: float = 10.0) -> Frame:
        deadline = time.monotonic() + timeout
        while True:
            self._feed()
            if self.frames:
                return self.frames.pop(0)
            assert not self.client.finished(self.sid) or len(self.client.responses[self.sid].data) > self.taken, \
                f"stream {self.sid} ended with no frame (reset: {self.client.responses[self.sid].reset})"
            left = deadline - time.monotonic()
            assert left > 0, "no frame in time"
            self.client.wait(lambda: len(self.client.responses[self.sid].data) > self.taken
                             or self.client.finished(self.sid), left)

    def recv(self, timeout: float = 10.0) -> str | bytes:
        frame = self.recv_frame(timeout)
        assert frame.opcode in (Opcode.TEXT, Opcode.BINARY), frame
        return frame.data.decode() if frame.opcode == Opcode.TEXT else bytes(frame.data)

    def ended(self, timeout: float = 10.0) -> bool:
        """The server ended the stream (END_STREAM) after everything it sent."""
        self.client.wait(lambda: self.client.responses[self.sid].ended or self.client.finished(self.sid), timeout)
        return self.client.responses[self.sid].ended

