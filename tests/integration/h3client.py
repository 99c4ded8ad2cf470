"""An HTTP/3 client for the tests, on aioquic (from the project's PyPI
lock): requests sent at once over one QUIC connection, each on its own
stream, with a body and fields of the test's choosing; or a stream the
client abandons (RESET_STREAM) after part of its body."""

import asyncio
from dataclasses import dataclass, field


@dataclass
class Ask:
    method: str
    path: str
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)
    reset_after: int | None = None  # send this much of the body, then reset the stream


def _setup():
    from aioquic.asyncio.protocol import QuicConnectionProtocol
    from aioquic.h3.connection import H3Connection
    from aioquic.h3.events import DataReceived, HeadersReceived

    class Client(QuicConnectionProtocol):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.http = H3Connection(self._quic)
            self.responses: dict[int, dict] = {}
            self.waiting: dict[int, asyncio.Future] = {}

        def quic_event_received(self, event):
            from aioquic.quic.events import StreamReset
            if isinstance(event, StreamReset) and event.stream_id in self.waiting:
                r = self.responses.setdefault(event.stream_id, {"status": None, "headers": {}, "body": b"",
                                                                "trailers": {}})
                r["reset"] = event.error_code
                self.waiting.pop(event.stream_id).set_result(r)
                return
            for e in self.http.handle_event(event):
                if not isinstance(e, (HeadersReceived, DataReceived)):
                    continue
                r = self.responses.setdefault(e.stream_id, {"status": None, "headers": {}, "body": b"",
                                                            "trailers": {}})
                if isinstance(e, HeadersReceived):
                    fields = {k.decode(): v.decode() for k, v in e.headers}
                    if r["status"] is not None and r["status"] >= 200:
                        r["trailers"].update(fields)
                    else:
                        r["status"] = int(fields.pop(":status"))
                        r["headers"] = fields
                else:
                    r["body"] += e.data
                if e.stream_ended and e.stream_id in self.waiting:
                    self.waiting.pop(e.stream_id).set_result(r)

        def ask(self, port: int, a: Ask) -> asyncio.Future | None:
            stream_id = self._quic.get_next_available_stream_id()
            fields = [(b":method", a.method.encode()), (b":scheme", b"https"),
                      (b":authority", f"localhost:{port}".encode()), (b":path", a.path.encode())]
            fields += [(k.encode(), v.encode()) for k, v in a.headers]
            if a.reset_after is not None:
                self.http.send_headers(stream_id, fields, end_stream=False)
                self.http.send_data(stream_id, a.body[:a.reset_after], end_stream=False)
                self._quic.reset_stream(stream_id, 0x10C)  # H3_REQUEST_CANCELLED
                return None
            self.http.send_headers(stream_id, fields, end_stream=not a.body)
            if a.body:
                self.http.send_data(stream_id, a.body, end_stream=True)
            future = asyncio.get_running_loop().create_future()
            self.waiting[stream_id] = future
            return future

    return Client


def h3_exchange(port: int, ca: str, asks: list, timeout: float = 20, alpn=None) -> tuple[str, list[dict]]:
    """Sends `asks` (Ask, or (method, path) pairs) over one QUIC connection; returns the ALPN the handshake
    chose and each response ({"status", "headers", "body", "trailers"}, and "reset" for a stream the
    server reset) in order, leaving out the streams the client reset itself."""
    from aioquic.asyncio import connect
    from aioquic.h3.connection import H3_ALPN
    from aioquic.quic.configuration import QuicConfiguration

    client_class = _setup()
    asks = [a if isinstance(a, Ask) else Ask(*a) for a in asks]

    async def run():
        configuration = QuicConfiguration(is_client=True, alpn_protocols=alpn or H3_ALPN, server_name="localhost")
        configuration.load_verify_locations(ca)
        # A handshake nobody answers gives up after this, not aioquic's minute.
        configuration.idle_timeout = 3.0
        async with connect("127.0.0.1", port, configuration=configuration, create_protocol=client_class) as client:
            futures = [f for f in (client.ask(port, a) for a in asks) if f is not None]
            client.transmit()
            responses = await asyncio.wait_for(asyncio.gather(*futures), timeout)
            return client._quic.tls.alpn_negotiated, responses

    return asyncio.run(run())
