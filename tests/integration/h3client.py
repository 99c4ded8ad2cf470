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
            self.goaway = False  # the server's GOAWAY came: a client takes its next request elsewhere
            self.ended = False
            self.unidirectional: dict[int, bytes] = {}
            self.datagrams = 0  # received
            self.answering: set[int] = set()  # which of them brought data of a request's stream

        def datagram_received(self, data, addr):
            self.datagrams += 1
            super().datagram_received(data, addr)

        def quic_event_received(self, event):
            from aioquic.quic.events import ConnectionTerminated, StreamDataReceived, StreamReset
            if isinstance(event, StreamDataReceived) and event.stream_id % 4 == 0 and event.data:
                self.answering.add(self.datagrams)
            if isinstance(event, StreamDataReceived) and event.stream_id % 4 == 3:
                self.watch_control(event.stream_id, event.data)
            if isinstance(event, ConnectionTerminated):
                self.ended = True
                for future in self.waiting.values():
                    if not future.done():
                        future.set_exception(ConnectionError(f"connection closed: {event.error_code:#x}"))
                self.waiting.clear()
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

        def watch_control(self, stream_id: int, data: bytes) -> None:
            # The server's unidirectional streams: aioquic reads the control
            # stream's frames but does nothing on GOAWAY, so the test looks for it.
            from aioquic.buffer import Buffer, BufferReadError
            self.unidirectional[stream_id] = self.unidirectional.get(stream_id, b"") + data
            buffer = Buffer(data=self.unidirectional[stream_id])
            try:
                if buffer.pull_uint_var() != 0:  # not the control stream
                    return
                while not buffer.eof():
                    kind, length = buffer.pull_uint_var(), buffer.pull_uint_var()
                    buffer.pull_bytes(length)
                    self.goaway = self.goaway or kind == 0x7
            except BufferReadError:
                pass

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


def h3_exchange(port: int, ca: str, asks: list, timeout: float = 20, alpn=None, token: bytes = b"",
                tokens: list | None = None, stream_window: int | None = None,
                answering: list | None = None) -> tuple[str, list[dict]]:
    """Sends `asks` (Ask, or (method, path) pairs) over one QUIC connection; returns the ALPN the handshake
    chose and each response ({"status", "headers", "body", "trailers"}, and "reset" for a stream the
    server reset) in order, leaving out the streams the client reset itself. The connection's first
    Initial carries `token` (one a NEW_TOKEN frame gave); those the server gives go into `tokens`.
    With `stream_window`, each stream's flow-control window is that many bytes (aioquic moves it on
    as the stream's data comes) and the connection's is 64 MiB. Into `answering` goes the number of
    datagrams that brought the responses (any of their streams' data)."""
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
        configuration.token = token
        if stream_window is not None:
            configuration.max_stream_data = stream_window
            configuration.max_data = 64 << 20
        async with connect("127.0.0.1", port, configuration=configuration, create_protocol=client_class,
                           token_handler=tokens.append if tokens is not None else None) as client:
            futures = [f for f in (client.ask(port, a) for a in asks) if f is not None]
            client.transmit()
            responses = await asyncio.wait_for(asyncio.gather(*futures), timeout)
            if answering is not None:
                answering.append(len(client.answering))
            return client._quic.tls.alpn_negotiated, responses

    return asyncio.run(run())


async def converse(port: int, ca: str, rounds: list[list], rebind: bool = False, timeout: float = 20,
                   between: asyncio.Event | None = None) -> list[list[dict]]:
    """One QUIC connection that sends each round's asks at once and waits for their answers before the
    next. With `rebind`, it moves to a new local port between rounds: the server sees a NAT rebinding
    (the same connection IDs from a new address), and the old socket closes, so nothing of the
    connection can come back through it. After the server's GOAWAY (a drain), the next round goes
    on a new connection, as a client that honours it does. With `between`, each round after the first
    waits for it to be set. The answers, round by round."""
    from aioquic.h3.connection import H3_ALPN
    from aioquic.quic.configuration import QuicConfiguration

    client_class = _setup()
    configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    configuration.load_verify_locations(ca)
    configuration.idle_timeout = 5.0
    moved = []
    answers: list[list[dict]] = []
    try:
        while len(answers) < len(rounds):
            more = await _rounds_on_one_connection(port, configuration, client_class, rounds[len(answers):],
                                                   rebind, timeout, moved, between, first=not answers)
            if not more:
                raise ConnectionError("a new connection was told GOAWAY before its first request")
            answers += more
        return answers
    finally:
        for transport in moved:
            transport.close()


async def _rounds_on_one_connection(port, configuration, client_class, rounds, rebind, timeout, moved, between,
                                    first) -> list:
    import socket

    from aioquic.asyncio import connect

    loop = asyncio.get_running_loop()
    async with connect("127.0.0.1", port, configuration=configuration, create_protocol=client_class) as client:
        answers = []
        for number, asks in enumerate(rounds):
            if between is not None and (number > 0 or not first):
                await between.wait()
            if client.goaway or client.ended:
                break
            if rebind and number > 0:
                sock = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                sock.bind(("::", 0))
                left = client._transport
                transport, _ = await loop.create_datagram_endpoint(lambda: client, sock=sock)  # noqa: B023
                moved.append(transport)
                left.close()
            futures = [client.ask(port, a if isinstance(a, Ask) else Ask(*a)) for a in asks]
            client.transmit()
            answers.append(await asyncio.wait_for(asyncio.gather(*futures), timeout))
        return answers


class _OneGet:
    """A GET of `path` on a sans-IO aioquic connection, sent once its handshake completes; events()
    turns what the connection has received since into HTTP/3 events."""

    def __init__(self, quic, port: int, path: str):
        self.quic, self.port, self.path = quic, port, path
        self.http = None

    def events(self) -> list:
        from aioquic.h3.connection import H3Connection
        from aioquic.quic.events import HandshakeCompleted

        found = []
        while (event := self.quic.next_event()) is not None:
            if isinstance(event, HandshakeCompleted):
                self.http = H3Connection(self.quic)
                stream = self.quic.get_next_available_stream_id()
                self.http.send_headers(stream, [(b":method", b"GET"), (b":scheme", b"https"),
                                                (b":authority", f"localhost:{self.port}".encode()),
                                                (b":path", self.path.encode())], end_stream=True)
            elif self.http is not None:
                found += self.http.handle_event(event)
        return found


@dataclass
class MarkedExchange:
    status: int | None = None
    server_marks: list[int] = field(default_factory=list)  # the ECN codepoint of each datagram the server sent
    ecn_counts: tuple[int, int, int] | None = None  # ECT(0), ECT(1), CE: the last the server's ACKs reported


def marked_exchange(port: int, ca: str, path: str, tos: int, timeout: float = 10) -> MarkedExchange:
    """One GET over HTTP/3 from a plain UDP socket whose datagrams carry the IP TOS byte `tos` (its two
    low bits the ECN codepoint), driving aioquic's connection by hand: what comes back is read with
    its TOS byte, and the ECN counts the server's ACK frames carry (ACK_ECN, which aioquic parses and
    drops) are kept."""
    import select
    import socket
    import time

    from aioquic.h3.connection import H3_ALPN
    from aioquic.h3.events import HeadersReceived
    from aioquic.quic.configuration import QuicConfiguration
    from aioquic.quic.connection import QuicConnection
    from aioquic.quic.packet import pull_ack_frame

    found = MarkedExchange()

    class Counting(QuicConnection):
        def _handle_ack_frame(self, context, frame_type, buf):
            start = buf.tell()
            super()._handle_ack_frame(context, frame_type, buf)
            if frame_type == 0x03:  # ACK_ECN
                end = buf.tell()
                buf.seek(start)
                pull_ack_frame(buf)
                found.ecn_counts = (buf.pull_uint_var(), buf.pull_uint_var(), buf.pull_uint_var())
                buf.seek(end)

    configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    configuration.load_verify_locations(ca)
    quic = Counting(configuration=configuration)
    get = _OneGet(quic, port, path)
    address = ("127.0.0.1", port)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
        udp.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
        udp.setblocking(False)
        quic.connect(address, now=time.monotonic())
        deadline = time.monotonic() + timeout
        while found.status is None and time.monotonic() < deadline:
            for data, to in quic.datagrams_to_send(now=time.monotonic()):
                udp.sendto(data, to)
            timer = quic.get_timer()
            wait = max(0.0, min(deadline, timer or deadline) - time.monotonic())
            if select.select([udp], [], [], wait)[0]:
                data, ancillary, _, sender = udp.recvmsg(65536, socket.CMSG_SPACE(4))
                tos_byte = next((d[0] for level, kind, d in ancillary
                                 if level == socket.IPPROTO_IP and kind == socket.IP_TOS), 0)
                found.server_marks.append(tos_byte & 3)
                quic.receive_datagram(data, sender, now=time.monotonic())
            elif timer is not None and timer <= time.monotonic():
                quic.handle_timer(now=time.monotonic())
            for e in get.events():
                if isinstance(e, HeadersReceived):
                    found.status = int(dict(e.headers)[b":status"])
        # The last ACKs (those of the request's own packets) before leaving.
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            for data, to in quic.datagrams_to_send(now=time.monotonic()):
                udp.sendto(data, to)
            if select.select([udp], [], [], 0.05)[0]:
                data, sender = udp.recvfrom(65536)
                quic.receive_datagram(data, sender, now=time.monotonic())
        quic.close()
        for data, to in quic.datagrams_to_send(now=time.monotonic()):
            udp.sendto(data, to)
    return found


def delayed_download(port: int, ca: str, path: str, delay: float, timeout: float = 20) -> tuple[int, list]:
    """One GET over HTTP/3 by a client that takes in each datagram `delay` seconds after it arrived (a
    round trip of that much, as the server sees it, on loopback), and acknowledges what it took in
    at once (one ACK for a batch, as a receiver that coalesces does): the bytes of body received, and
    each of the server's datagrams as (the kernel's arrival time in seconds, its size)."""
    import select
    import socket
    import time

    from aioquic.h3.connection import H3_ALPN
    from aioquic.h3.events import DataReceived
    from aioquic.quic.configuration import QuicConfiguration
    from aioquic.quic.connection import QuicConnection

    configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    configuration.load_verify_locations(ca)
    configuration.max_data = configuration.max_stream_data = 16 << 20  # the window is not what limits it
    quic = QuicConnection(configuration=configuration)
    get = _OneGet(quic, port, path)
    body = 0
    ended = False
    arrivals = []
    held = []  # (when to take it in, datagram, sender)
    timestamps = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux's; its control message has its number
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.setsockopt(socket.SOL_SOCKET, timestamps, 1)
        udp.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        udp.setblocking(False)
        quic.connect(("127.0.0.1", port), now=time.monotonic())
        deadline = time.monotonic() + timeout
        while not ended and time.monotonic() < deadline:
            for data, to in quic.datagrams_to_send(now=time.monotonic()):
                udp.sendto(data, to)
            due = [t for t in (quic.get_timer(), held[0][0] if held else None) if t is not None]
            wait = max(0.0, min([deadline, *due]) - time.monotonic())
            if select.select([udp], [], [], wait)[0]:
                while True:
                    try:
                        data, ancillary, _, sender = udp.recvmsg(65536, socket.CMSG_SPACE(16))
                    except BlockingIOError:
                        break
                    stamp = next((int.from_bytes(d[:8], "little") + int.from_bytes(d[8:16], "little") / 1e9
                                  for level, kind, d in ancillary
                                  if level == socket.SOL_SOCKET and kind == timestamps), 0.0)
                    arrivals.append((stamp, len(data)))
                    held.append((time.monotonic() + delay, data, sender))
            now = time.monotonic()
            while held and held[0][0] <= now:
                _, data, sender = held.pop(0)
                quic.receive_datagram(data, sender, now=now)
            timer = quic.get_timer()
            if timer is not None and timer <= now:
                quic.handle_timer(now=now)
            for e in get.events():
                if isinstance(e, DataReceived):
                    body += len(e.data)
                    ended = ended or e.stream_ended
        quic.close()
        for data, to in quic.datagrams_to_send(now=time.monotonic()):
            udp.sendto(data, to)
    return body, arrivals


class SansIoClient:
    """An aioquic connection driven by hand over a plain UDP socket, for tests that send a packet
    when and as they choose: pump() exchanges datagrams for a while, hold() takes what the connection
    would send next without sending it, and replay() sends such a datagram again later."""

    def __init__(self, port: int, ca: str):
        import socket
        import time

        from aioquic.h3.connection import H3_ALPN
        from aioquic.quic.configuration import QuicConfiguration
        from aioquic.quic.connection import QuicConnection

        configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
        configuration.load_verify_locations(ca)
        self.quic = QuicConnection(configuration=configuration)
        self.address = ("127.0.0.1", port)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.setblocking(False)
        self.quic.connect(self.address, now=time.monotonic())
        self.http = None
        self.pump(5, until=lambda: self.http is not None)
        if self.http is None:
            raise ConnectionError("no handshake")
        self.pump(0.3)  # SETTINGS and the acknowledgements settle

    def pump(self, seconds: float, until=None) -> list[bytes]:
        """Sends what the connection has, takes in what comes, for `seconds` or until `until()`: the
        datagrams received."""
        import select
        import time

        from aioquic.h3.connection import H3Connection
        from aioquic.quic.events import HandshakeCompleted

        got = []
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until()):
            for data, to in self.quic.datagrams_to_send(now=time.monotonic()):
                self.udp.sendto(data, to)
            if select.select([self.udp], [], [], 0.02)[0]:
                data = self.udp.recv(65536)
                got.append(data)
                self.quic.receive_datagram(data, self.address, now=time.monotonic())
            timer = self.quic.get_timer()
            if timer is not None and timer <= time.monotonic():
                self.quic.handle_timer(now=time.monotonic())
            while (event := self.quic.next_event()) is not None:
                if isinstance(event, HandshakeCompleted):
                    self.http = H3Connection(self.quic)
                elif self.http is not None:
                    self.http.handle_event(event)
        return got

    def hold(self) -> list[bytes]:
        import time
        return [data for data, _ in self.quic.datagrams_to_send(now=time.monotonic())]

    def replay(self, datagrams: list[bytes], seconds: float = 0.3) -> list[bytes]:
        """Sends `datagrams` as they are, at once; the datagrams that come back within `seconds` (not
        taken in)."""
        import select
        import time

        for datagram in datagrams:
            self.udp.sendto(datagram, self.address)
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if select.select([self.udp], [], [], left)[0]:
                got.append(self.udp.recv(65536))
        return got

    def close(self) -> None:
        self.udp.close()
