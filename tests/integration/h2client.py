"""An HTTP/2 client for the tests, on the h2 library (Debian's python3-h2):
it can do what a well-behaved client does (several streams at once, each
read to its end) and what an attacker does (raw frames, windows kept shut,
resets, floods), over a plain socket (h2c) or TLS (tests/integration/tls.py).
"""

from __future__ import annotations

import socket
import struct
import time
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings

from tests.integration.tls import TlsConnection, client_context


@dataclass
class Response:
    status: int | None = None
    headers: list[tuple[str, str]] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)
    trailers: list[tuple[str, str]] = field(default_factory=list)
    # The interim (1xx) responses before the final one, each its fields, and
    # when each came (time.monotonic()).
    interim: list[list[tuple[str, str]]] = field(default_factory=list)
    interim_times: list[float] = field(default_factory=list)
    final_time: float | None = None
    ended: bool = False
    end_time: float | None = None
    # The frame that ended the stream was a DATA frame with payload (not an
    # empty DATA frame, nor trailers, sent after the last payload).
    ended_with_payload: bool = False
    reset: int | None = None  # the error code of a RST_STREAM from the server

    def header(self, name: str) -> str | None:
        return next((v for n, v in self.headers if n == name), None)


class H2Client:
    def __init__(self, server, tls: bool = False, window: int | None = None, auto_ack: bool = True,
                 settings: dict | None = None, timeout: float = 10.0):
        sock = socket.create_connection((server.host, server.port), timeout=timeout)
        self.sock = TlsConnection(sock, client_context(alpn=["h2"])) if tls else sock
        if tls:
            assert self.sock.selected_alpn_protocol() == "h2"
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8", validate_inbound_headers=False)
        self.conn = h2.connection.H2Connection(config=config)
        local = dict(settings or {})
        if window is not None:
            local[h2.settings.SettingCodes.INITIAL_WINDOW_SIZE] = window
        self.conn.initiate_connection()
        if local:
            self.conn.update_settings(local)
        self.auto_ack = auto_ack  # give window back for every DATA frame read
        self.responses: dict[int, Response] = {}
        self.goaway: h2.events.ConnectionTerminated | None = None
        self.closed = False
        self.server_settings: dict = {}
        self.ping_acks: list[bytes] = []  # the payloads of the PING ACKs read, in order
        self.flush()

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def request(self, path: str, method: str = "GET", body: bytes = b"", headers=(), end: bool = True) -> int:
        sid = self.conn.get_next_available_stream_id()
        fields = [(":method", method), (":path", path), (":scheme", "http"), (":authority", "localhost"),
                  *headers]
        if body:
            fields.append(("content-length", str(len(body))))
        self.conn.send_headers(sid, fields, end_stream=end and not body)
        self.responses[sid] = Response()
        if body:
            self.send_body(sid, body, end=end)
        self.flush()
        return sid

    def send_body(self, sid: int, body: bytes, end: bool = True) -> None:
        """Sends as much of `body` as the windows allow, reading meanwhile (for WINDOW_UPDATE)."""
        view = memoryview(body)
        while view:
            room = min(self.conn.local_flow_control_window(sid), self.conn.max_outbound_frame_size)
            if room <= 0:
                self.flush()
                self.read_once()
                continue
            chunk = view[:room]
            self.conn.send_data(sid, bytes(chunk))
            view = view[room:]
            self.flush()
        if end:
            self.conn.end_stream(sid)
            self.flush()

    def read_once(self, timeout: float | None = None) -> bool:
        """Reads what comes in one recv; False when the connection closed."""
        if timeout is not None:
            self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            data = b""
        if not data:
            self.closed = True
            return False
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.closed = True
            return False
        for event in events:
            self.on_event(event)
        self.flush()
        return True

    def on_event(self, event) -> None:
        if isinstance(event, h2.events.ResponseReceived):
            r = self.responses.setdefault(event.stream_id, Response())
            r.headers = list(event.headers)
            r.status = int(dict(event.headers)[":status"])
            r.final_time = time.monotonic()
        elif isinstance(event, h2.events.InformationalResponseReceived):
            r = self.responses.setdefault(event.stream_id, Response())
            r.interim.append(list(event.headers))
            r.interim_times.append(time.monotonic())
        elif isinstance(event, h2.events.DataReceived):
            r = self.responses.setdefault(event.stream_id, Response())
            r.data += event.data
            if event.stream_ended is not None and event.data:
                r.ended_with_payload = True
            if self.auto_ack and event.flow_controlled_length:
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.TrailersReceived):
            self.responses.setdefault(event.stream_id, Response()).trailers = list(event.headers)
        elif isinstance(event, h2.events.StreamEnded):
            r = self.responses.setdefault(event.stream_id, Response())
            r.ended = True
            r.end_time = time.monotonic()
        elif isinstance(event, h2.events.StreamReset):
            self.responses.setdefault(event.stream_id, Response()).reset = event.error_code
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = event
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            self.server_settings.update({k: v.new_value for k, v in event.changed_settings.items()})
        elif isinstance(event, h2.events.PingAckReceived):
            self.ping_acks.append(event.ping_data)

    def wait(self, predicate, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                if not self.read_once(timeout=left):
                    return predicate()
            except socket.timeout:
                return predicate()
        return True

    def finished(self, sid: int) -> bool:
        r = self.responses.get(sid)
        return r is not None and (r.ended or r.reset is not None)

    def get(self, path: str, timeout: float = 10.0, **options) -> Response:
        sid = self.request(path, **options)
        assert self.wait(lambda: self.finished(sid), timeout), f"no answer on stream {sid} for {path}"
        return self.responses[sid]

    def round_trip(self, payload: bytes = b"baton-rt", timeout: float = 10.0) -> None:
        """A PING and its ACK: the server read and processed every frame sent before it
        (RFC 9113 has frames processed in order on a connection)."""
        self.conn.ping(payload)
        self.flush()
        assert self.wait(lambda: payload in self.ping_acks, timeout), "no PING ACK"
        self.ping_acks.remove(payload)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def read_frames(sock, timeout: float = 10.0) -> tuple[list[tuple[int, int, int, bytes]], bool]:
    """Frames as they come, (type, flags, stream id, payload), until the peer closes (True) or
    `timeout` passes (False). Below the h2 library, which stops at a GOAWAY: RFC 9113 6.8 has
    the streams under its last id go on, and the drain test reads their answers after it."""
    deadline = time.monotonic() + timeout
    data = bytearray()
    frames = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return frames, False
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return frames, True
        except socket.timeout:
            return frames, False
        if not chunk:
            return frames, True
        data += chunk
        while len(data) >= 9:
            length = int.from_bytes(data[:3], "big")
            if len(data) < 9 + length:
                break
            sid = struct.unpack(">I", data[5:9])[0] & 0x7FFFFFFF
            frames.append((data[3], data[4], sid, bytes(data[9:9 + length])))
            del data[:9 + length]


def frame(kind: int, flags: int, stream_id: int, payload: bytes = b"") -> bytes:
    """One HTTP/2 frame as bytes (RFC 9113 4.1), for what the h2 library will not send."""
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream_id) + payload


DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
