"""A WebSocket client over one HTTP/2 stream (RFC 8441), for the tests: an
extended CONNECT on tests/integration/h2client.py's connection, then
WebSocket frames (websockets' own codec, masked as a client masks them,
with permessage-deflate when the server agreed to it) as the stream's DATA.
"""

from __future__ import annotations

import time

from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.headers import parse_extension
from websockets.streams import StreamReader

from tests.integration.h2client import H2Client, Response

ENABLE_CONNECT_PROTOCOL = 0x8  # RFC 8441 section 3


def _frames(reader: StreamReader, extensions: list, out: list):
    while True:
        frame = yield from Frame.parse(reader.read_exact, mask=False, max_size=None, extensions=extensions)
        out.append(frame)


class H2WebSocket:
    def __init__(self, client: H2Client, path: str, *, deflate: bool = False, subprotocols=(), headers=(),
                 scheme: str = "http", version: str = "13", protocol: str = "websocket", timeout: float = 10.0):
        self.client = client
        fields = [(":method", "CONNECT"), (":protocol", protocol), (":scheme", scheme), (":path", path),
                  (":authority", "localhost"), ("sec-websocket-version", version), *headers]
        if deflate:
            fields.append(("sec-websocket-extensions", "permessage-deflate; client_max_window_bits"))
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
        self.extensions = []
        agreed = self.response.header("sec-websocket-extensions")
        if agreed:
            factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
            for name, params in parse_extension(agreed):
                assert name == "permessage-deflate", agreed
                self.extensions.append(factory.process_response_params(params, []))
        self.reader = StreamReader()
        self.frames: list[Frame] = []
        self.parser = _frames(self.reader, self.extensions, self.frames)
        next(self.parser)
        self.taken = 0  # bytes of the stream's DATA fed to the parser

    def send_frame(self, opcode: Opcode, data: bytes, fin: bool = True) -> None:
        wire = Frame(opcode, data, fin).serialize(mask=True, extensions=self.extensions)
        self.client.send_body(self.sid, wire, end=False)  # as the frame size and windows allow

    def send(self, message: str | bytes) -> None:
        if isinstance(message, str):
            self.send_frame(Opcode.TEXT, message.encode())
        else:
            self.send_frame(Opcode.BINARY, message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.send_frame(Opcode.CLOSE, code.to_bytes(2, "big") + reason.encode())

    def _feed(self) -> None:
        data = self.client.responses[self.sid].data
        if len(data) > self.taken:
            self.reader.feed_data(bytes(data[self.taken:]))
            self.taken = len(data)
            next(self.parser)

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

