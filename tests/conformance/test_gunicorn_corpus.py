"""gunicorn's request-parser corpus replayed over real sockets against an echo app.

Every `accept` case must reach the app exactly as recorded; every `reject`
case must get a 4xx/5xx, a closed connection, and reach no app. Where baton
follows RFC 9112 more strictly than gunicorn (or gunicorn needed a
non-default setting), the case is listed in DEVIATIONS with the rule.

HTTP/1.1 requests in `accept` cases that carry no Host get one added
("Host: corpus.test") before sending: RFC 9112 section 3.2 requires a 400
for them, which test_http1_request_without_host_is_400 checks on its own, and
adding it keeps the rest of each case under test.
"""

import base64
import json
import re
import socket
from pathlib import Path

import pytest

from tests.conftest import ASGI_SHAPES, SHAPES, tls_args
from tests.integration.server import Server

DATA = Path(__file__).parent / "data" / "gunicorn-requests.json"
CASES = json.loads(DATA.read_text())["cases"]
INJECTED_HOST = b"corpus.test"

# name -> (what baton does instead, the rule). "reject" means: 4xx/5xx,
# closed, app never called. "accept" means: served as the corpus records it.
DEVIATIONS = {
    "valid/005": ("reject", "RFC 9112 3.2: a request-target has no fragment; '#posts-17408' is rejected (400), "
                            "not dropped"),
    "valid/009": ("reject", "RFC 9112 3.2: a request-target has no fragment ('#hey', 400); also RFC 9112 6.1: "
                            "Transfer-Encoding with Content-Length is rejected (400), and 'identity' is not a "
                            "transfer coding"),
    "valid/025": ("reject", "RFC 9112 6.1: gzip is a coding baton does not implement (501)"),
    "valid/025_line": ("reject", "RFC 9112 6.1: gzip is a coding baton does not implement (501)"),
    "valid/027": ("reject", "RFC 9112 3.2 / RFC 3986: raw non-ASCII octets are not allowed in a request-target "
                            "(400)"),
    "valid/028": ("reject", "RFC 9112 5.1: no whitespace between field name and colon (400); gunicorn needed "
                            "strip_header_spaces"),
    "valid/029": ("reject", "RFC 9112 6.1: 'identity' is not a transfer coding baton implements (501)"),
    "valid/030": ("reject", "RFC 9112 6.1: 'identity' is not a transfer coding baton implements (501)"),
    "valid/031compat": ("accept", "RFC 9110 9.1: methods are case-sensitive; baton does not fold '-blargh' to "
                                  "upper case as gunicorn's casefold_http_method does"),
    "valid/031compat2": ("accept", "RFC 9110 9.1: a method is any token; baton passes unconventional ones through"),
    "valid/040_compat": ("accept", "baton always drops header names with '_' (gunicorn's default), so the "
                                   "'dangerous' mapping setting does not apply"),
    "valid/compat_obs_fold": ("reject", "RFC 9112 5.2: obs-fold is rejected (400); gunicorn needed "
                                        "permit_obsolete_folding"),
    "valid/compat_obs_fold_huge": ("reject", "RFC 9112 5.2: obs-fold is rejected (400)"),
    "valid/pp_01": ("reject", "PROXY protocol is not enabled in baton; the PROXY line is not HTTP (400)"),
    "valid/pp_02": ("reject", "PROXY protocol is not enabled in baton; the PROXY line is not HTTP (400)"),
    "valid/pp_04": ("reject", "PROXY protocol v2 is not enabled in baton; its binary preamble is not HTTP (400)"),
    "valid/pp_05": ("reject", "PROXY protocol v2 is not enabled in baton; its binary preamble is not HTTP (400)"),
    "valid/rfc9112_smuggle_gzip_chunked_01": ("reject", "RFC 9112 6.1: gzip is not implemented (501)"),
    "valid/rfc9112_target_absolute_userinfo_01": ("reject", "RFC 9110 4.2.4: userinfo in an http(s) "
                                                            "request-target is treated as an error (400)"),
    "valid/rfc9112_target_authority_connect_01": ("reject", "RFC 9110 9.3.6: baton is not a proxy; CONNECT is "
                                                            "answered in the core (501) and never reaches the app"),
    "valid/rfc9112_target_authority_ipv6_01": ("reject", "RFC 9110 9.3.6: baton is not a proxy; CONNECT is "
                                                         "answered in the core (501) and never reaches the app"),
    "valid/rfc9112_smuggle_te_identity_chunked_01": ("reject", "RFC 9112 6.1: 'identity' is not a transfer "
                                                               "coding (501)"),

    "valid/099": ("reject", "RFC 9112 8: the client closed before sending the Content-Length's 17914 bytes "
                            "(8599 arrived), an incomplete message; the app's read fails and it answers 400"),
    "invalid/006": ("accept", "the request-line is 4112 bytes: over gunicorn's 4094 default, under baton's 8192 "
                              "(nginx's default too)"),
    "invalid/007": ("accept", "an 8203-byte field: baton bounds the whole head (--max-header-size, 32 KiB), "
                              "not each field at gunicorn's 8190"),
    "invalid/008": ("accept", "an 8203-byte field: baton bounds the whole head, not each field at 8190"),
    "invalid/limit_header_default_01": ("accept", "an 8190+-byte field: baton bounds the whole head, not each "
                                                  "field"),
    "invalid/011": ("accept", "gunicorn's case sets a small field limit in its own config, which the corpus does "
                              "not carry; under baton's defaults the request is ordinary"),
    "invalid/012": ("accept", "gunicorn's case sets a small field limit in its own config, which the corpus does "
                              "not carry; under baton's defaults the request is ordinary"),
    "invalid/040": ("accept", "the underscore field is dropped, as by gunicorn's default; the case rejects only "
                              "under header_map='refuse'"),
}

# Where baton serves a case differently but correctly, what the app sees instead.
OVERRIDES = {
    "valid/031compat": {"method": "-blargh"},
}

REQUEST_LINE = re.compile(rb"(?m)^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP/1\.[01]\r\n")


# Every WSGI shape with the WSGI echo app, and both ASGI shapes with the ASGI
# echo app (which reports the request in the same environ-style shape); then
# a WSGI and an ASGI shape again over TLS (the client half-closes with
# close_notify, as it half-closes TCP in the others).
WSGI_ECHO = "tests.conformance.echo_app:application"
ASGI_ECHO = "tests.conformance.asgi_echo_app:application"
SERVED = {**{name: (args, WSGI_ECHO, False) for name, args in SHAPES.items()},
          "asgi-pump": (ASGI_SHAPES["pump-uvloop"], ASGI_ECHO, False),
          "asgi-inverted": (ASGI_SHAPES["inverted-asyncio"], ASGI_ECHO, False),
          "tls-pool-4": (SHAPES["pool-4"], WSGI_ECHO, True),
          "tls-asgi-inverted": (ASGI_SHAPES["inverted-uvloop"], ASGI_ECHO, True)}


@pytest.fixture(scope="module", params=list(SERVED))
def echo(request, tmp_path_factory):
    args, app, tls = SERVED[request.param]
    if tls:
        args = [*args, *tls_args(request.getfixturevalue("tls_certificates"))]
    record = tmp_path_factory.mktemp("corpus") / "calls.log"
    record.touch()
    server = Server(["--port", "0", *args, "--header-read-timeout", "2", "--max-body-size", "1000000", app],
                    env={"BATON_TEST_RECORD": str(record)}).start()
    assert server.scheme == ("https" if tls else "http")
    server.record = record
    server.asgi = app.startswith("tests.conformance.asgi")
    yield server
    server.stop()


def target_as_seen(uri: str, asgi: bool) -> str:
    """ASGI has no raw request-target: an absolute-form one reaches the app as its path and query."""
    if asgi and re.match(r"(?i)https?://", uri):
        rest = uri.split("://", 1)[1]
        cut = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
        return rest[cut:] if rest[cut:].startswith("/") else "/" + rest[cut:]
    return uri


def add_missing_hosts(raw: bytes, requests: list) -> bytes:
    """Adds a Host field after each HTTP/1.1 request-line whose request has none."""
    needs = [r["version"] == [1, 1] and not any(n == "HOST" for n, _ in r["headers"]) for r in requests]
    out, pos, index = b"", 0, 0
    for m in REQUEST_LINE.finditer(raw):
        if index >= len(needs):
            break
        if m.start() < pos:
            continue
        if m.group(2).decode("latin-1") != requests[index]["uri"]:
            continue
        out += raw[pos:m.end()]
        if needs[index]:
            out += b"Host: " + INJECTED_HOST + b"\r\n"
        pos = m.end()
        index += 1
    return out + raw[pos:]


def exchange(server, raw: bytes) -> tuple[list[tuple[int, dict, bytes]], bool]:
    """Sends raw, half-closes, reads every response until the server closes."""
    s = server.connect(timeout=10)
    s.sendall(raw)
    try:
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    data = b""
    closed = False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            data += chunk
    except ConnectionResetError:
        closed = True
    except socket.timeout:
        pass
    s.close()
    responses = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            break
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode()] = value.strip().decode("latin-1")
        length = int(headers.get("content-length", "0"))
        responses.append((status, headers, rest[:length]))
        data = rest[length:]
    return responses, closed


def expected_fields(request: dict, host_added: bool) -> dict:
    fields: dict[str, str] = {}
    headers = list(request["headers"])
    if host_added:
        headers.insert(0, ["HOST", INJECTED_HOST.decode()])
    for name, value in headers:
        if "_" in name:
            continue  # dropped, as gunicorn does by default
        key = name.replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        sep = "; " if key == "HTTP_COOKIE" else ", "
        fields[key] = f"{fields[key]}{sep}{value}" if key in fields else value
    return fields


def calls(server) -> int:
    return len(server.record.read_text().splitlines())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_corpus_case(echo, case):
    name = case["name"]
    verdict, _rule = DEVIATIONS.get(name, (case["verdict"], None))
    raw = base64.b64decode(case["request_b64"])
    if verdict == "accept" and case["verdict"] == "accept":
        raw = add_missing_hosts(raw, case["requests"])
    before = calls(echo)
    responses, closed = exchange(echo, raw)
    if verdict == "reject":
        assert responses, f"{name}: no response at all"
        assert 400 <= responses[-1][0] < 600, f"{name}: got {[r[0] for r in responses]}"
        assert responses[-1][1].get("connection") == "close"
        assert closed, f"{name}: connection left open"
        # Nothing reached the app (pipelined requests after a rejected one included).
        assert calls(echo) == before + len(responses) - 1
        return
    if case["verdict"] != "accept":
        # gunicorn rejects it; baton serves it: the app sees the request-line as sent.
        method, target = raw.split(b"\r\n", 1)[0].split(b" ")[:2]
        assert [r[0] for r in responses] == [200], f"{name}: {responses}"
        got = json.loads(responses[0][2])
        assert (got["method"], got["uri"]) == (method.decode(), target_as_seen(target.decode(), echo.asgi))
        assert calls(echo) == before + 1
        return
    expected = [dict(r, **OVERRIDES.get(name, {})) for r in case["requests"]]
    assert [r[0] for r in responses] == [200] * len(expected), f"{name}: {responses}"
    for request, (_, _, body) in zip(expected, responses):
        got = json.loads(body)
        host_added = request["version"] == [1, 1] and not any(n == "HOST" for n, _ in request["headers"])
        assert got["method"] == request["method"]
        assert got["uri"] == target_as_seen(request["uri"], echo.asgi)
        assert got["protocol"] == "HTTP/%d.%d" % tuple(request["version"])
        assert got["fields"] == expected_fields(request, host_added)
        assert base64.b64decode(got["body_b64"]) == base64.b64decode(request["body_b64"])
    assert calls(echo) == before + len(expected)


def test_http1_request_without_host_is_400(echo):
    responses, closed = exchange(echo, b"GET /no-host HTTP/1.1\r\n\r\n")
    assert responses[0][0] == 400 and closed


def test_every_deviation_names_a_real_case():
    names = {c["name"] for c in CASES}
    assert set(DEVIATIONS) <= names
