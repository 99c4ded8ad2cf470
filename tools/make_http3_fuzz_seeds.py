"""Writes the seeds of tests/fuzz/corpus/http3/: inputs of http3_fuzz.cc
(a control byte, then records of op, two length bytes and the bytes for a
stream) that carry valid requests, WebSocket openings and frames, the
client's own control and QPACK streams, resets, and a few malformed
requests, so the fuzzer starts past QPACK's and HTTP/3's framing.

    python3 tools/make_http3_fuzz_seeds.py
"""

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "fuzz" / "corpus" / "http3"

# Control byte (http3_fuzz.cc): app mode in bits 0-1, then these.
ANSWER, READ, STREAM, LEAVE = 0, 1, 2, 3
SMALL, WEBSOCKETS, DRAIN, ABANDON, CLIENT_CLOSES, FAILS = 0x4, 0x8, 0x10, 0x20, 0x40, 0x80
# Record op: the stream in bits 0-2, then these.
CONTROL, ENCODER, DECODER, NONE = 4, 5, 6, 7
FIN, RESET, STOP, PASS = 0x8, 0x10, 0x20, 0x40


def varint(n: int) -> bytes:
    if n < 64:
        return bytes([n])
    if n < 16384:
        return bytes([0x40 | n >> 8, n & 0xFF])
    return bytes([0x80 | n >> 24, n >> 16 & 0xFF, n >> 8 & 0xFF, n & 0xFF])


def prefixed(n: int, bits: int, flags: int) -> bytes:
    """RFC 9204's (and HPACK's) integer with an N-bit prefix."""
    top = (1 << bits) - 1
    if n < top:
        return bytes([flags | n])
    out = bytearray([flags | top])
    n -= top
    while n >= 128:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def text(s: bytes) -> bytes:
    return prefixed(len(s), 7, 0) + s


def indexed(index: int) -> bytes:
    """A field from QPACK's static table, whole."""
    return prefixed(index, 6, 0xC0)


def named(index: int, value: bytes) -> bytes:
    """A static table name with a literal value."""
    return prefixed(index, 4, 0x50) + text(value)


def literal(name: bytes, value: bytes) -> bytes:
    return prefixed(len(name), 3, 0x20) + name + text(value)


GET, POST, CONNECT = indexed(17), indexed(20), indexed(15)
HTTPS, ROOT = indexed(23), indexed(1)
AUTHORITY = named(0, b"localhost")


def frame(kind: int, payload: bytes) -> bytes:
    return varint(kind) + varint(len(payload)) + payload


def headers(*fields: bytes) -> bytes:
    return frame(0x1, b"\x00\x00" + b"".join(fields))


def data(payload: bytes) -> bytes:
    return frame(0x0, payload)


def record(op: int, payload: bytes = b"") -> bytes:
    return bytes([op]) + len(payload).to_bytes(2, "big") + payload


def ws_frame(opcode: int, payload: bytes) -> bytes:
    """A client's (masked) WebSocket frame, short payloads only."""
    mask = b"\x11\x22\x33\x44"
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def path(p: bytes) -> bytes:
    return named(1, p)


WS_OPENING = headers(CONNECT, literal(b":protocol", b"websocket"), HTTPS, path(b"/chat"), AUTHORITY,
                     literal(b"sec-websocket-version", b"13"))

SEEDS = {
    "get": bytes([ANSWER]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "post-body-read": bytes([READ]) + record(0, headers(POST, HTTPS, path(b"/upload"), AUTHORITY,
                                                        named(4, b"5"))) + record(0 | FIN | PASS, data(b"hello")),
    "post-body-chunks": bytes([READ]) + record(0 | PASS, headers(POST, HTTPS, path(b"/u"), AUTHORITY))
    + record(0 | PASS, data(b"one ")) + record(0 | PASS, data(b"two ")) + record(0 | FIN | PASS, data(b"three")),
    "stream-with-trailers": bytes([STREAM]) + record(0 | FIN | PASS, headers(GET, HTTPS, path(b"/s"), AUTHORITY)),
    "request-trailers": bytes([READ]) + record(0, headers(POST, HTTPS, ROOT, AUTHORITY))
    + record(0, data(b"body")) + record(0 | FIN | PASS, headers(literal(b"x-checksum", b"1"))),
    "leave-then-drain": bytes([LEAVE | DRAIN]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "leave-then-abandon": bytes([LEAVE | ABANDON]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "fails-after-head": bytes([STREAM | FAILS]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "client-closes": bytes([LEAVE | CLIENT_CLOSES]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "four-streams": bytes([ANSWER]) + b"".join(record(slot | FIN, headers(GET, HTTPS, path(b"/%d" % slot),
                                                                          AUTHORITY)) for slot in range(4))
    + record(NONE),
    "client-control-and-qpack-streams": bytes([ANSWER])
    + record(CONTROL, b"\x00" + frame(0x4, varint(0x1) + varint(0) + varint(0x7) + varint(0)))
    + record(ENCODER, b"\x02") + record(DECODER, b"\x03")
    + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "client-goaway": bytes([ANSWER]) + record(CONTROL, b"\x00" + frame(0x4, b"") + frame(0x7, varint(0)))
    + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "reset-mid-body": bytes([READ]) + record(0 | PASS, headers(POST, HTTPS, ROOT, AUTHORITY, named(4, b"100")))
    + record(0 | RESET | PASS, data(b"part")),
    "stop-sending": bytes([STREAM]) + record(0 | FIN | STOP | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
    "cookie-crumbs": bytes([ANSWER]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY,
                                                                      named(5, b"a=1"), named(5, b"b=2"))),
    "small-limits-fields": bytes([ANSWER | SMALL]) + record(0 | FIN | PASS, headers(
        GET, HTTPS, ROOT, AUTHORITY, *(literal(b"x-%d" % i, b"v") for i in range(12)))),
    "small-limits-body": bytes([READ | SMALL]) + record(0, headers(POST, HTTPS, ROOT, AUTHORITY))
    + record(0 | FIN | PASS, data(b"x" * 5000)),
    "content-length-short": bytes([READ]) + record(0, headers(POST, HTTPS, ROOT, AUTHORITY, named(4, b"10")))
    + record(0 | FIN | PASS, data(b"short")),
    "connection-field": bytes([ANSWER]) + record(0 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY,
                                                                         literal(b"connection", b"close"))),
    "protocol-on-get": bytes([ANSWER | WEBSOCKETS]) + record(0 | FIN | PASS, headers(
        GET, literal(b":protocol", b"websocket"), HTTPS, ROOT, AUTHORITY)),
    "websocket-echo-and-close": bytes([ANSWER | WEBSOCKETS]) + record(0 | PASS, WS_OPENING)
    + record(0 | PASS, data(ws_frame(0x1, b"hi"))) + record(0 | PASS, data(ws_frame(0x9, b"ping")))
    + record(0 | FIN | PASS, data(ws_frame(0x8, b"\x03\xe8"))),
    "websocket-reset": bytes([ANSWER | WEBSOCKETS]) + record(0 | PASS, WS_OPENING)
    + record(0 | RESET | PASS, data(ws_frame(0x2, b"\x00\x01"))),
    "websocket-drain": bytes([ANSWER | WEBSOCKETS | DRAIN]) + record(0 | PASS, WS_OPENING)
    + record(0 | PASS, data(ws_frame(0x1, b"before"))),
    "websocket-not-served": bytes([ANSWER]) + record(0 | PASS, WS_OPENING),
    "websocket-left-unanswered": bytes([LEAVE | WEBSOCKETS]) + record(0 | PASS, WS_OPENING)
    + record(1 | FIN | PASS, headers(GET, HTTPS, ROOT, AUTHORITY)),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, seed in SEEDS.items():
        (OUT / name).write_bytes(seed)
    print(f"{len(SEEDS)} seeds in {OUT}")


if __name__ == "__main__":
    main()
