"""The client's side of a WebSocket's frames on a stream, shared by the
tests' WebSockets over HTTP/2 (h2ws.py, RFC 8441) and HTTP/3 (h3ws.py,
RFC 9220): websockets' own codec, masked as a client masks them, with
permessage-deflate when the server agreed to it. A carrier says how the
frames' bytes go out (write) and hands on what came (take)."""

from __future__ import annotations

from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.headers import parse_extension
from websockets.streams import StreamReader

ENABLE_CONNECT_PROTOCOL = 0x8  # RFC 8441 section 3, and RFC 9220's for HTTP/3

DEFLATE_OFFER = "permessage-deflate; client_max_window_bits"


def _frames(reader: StreamReader, extensions: list, out: list):
    while True:
        frame = yield from Frame.parse(reader.read_exact, mask=False, max_size=None, extensions=extensions)
        out.append(frame)


class ClientFrames:
    def __init__(self):
        self.extensions: list = []
        self.reader = StreamReader()
        self.frames: list[Frame] = []
        self.parser = _frames(self.reader, self.extensions, self.frames)
        next(self.parser)
        self.taken = 0  # bytes of the stream's data fed to the parser

    def agree(self, agreed: str | None) -> None:
        """The server's Sec-WebSocket-Extensions: permessage-deflate, or nothing."""
        if not agreed:
            return
        factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
        for name, params in parse_extension(agreed):
            assert name == "permessage-deflate", agreed
            self.extensions.append(factory.process_response_params(params, []))

    def write(self, wire: bytes) -> None:
        raise NotImplementedError  # the carrier's

    def send_frame(self, opcode: Opcode, data: bytes, fin: bool = True) -> None:
        self.write(Frame(opcode, data, fin).serialize(mask=True, extensions=self.extensions))

    def send(self, message: str | bytes) -> None:
        if isinstance(message, str):
            self.send_frame(Opcode.TEXT, message.encode())
        else:
            self.send_frame(Opcode.BINARY, message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.send_frame(Opcode.CLOSE, code.to_bytes(2, "big") + reason.encode())

    def take(self, data: bytes | bytearray) -> None:
        """`data`: everything the stream has carried so far; the frames in what is new are parsed."""
        if len(data) > self.taken:
            self.reader.feed_data(bytes(data[self.taken:]))
            self.taken = len(data)
            next(self.parser)
