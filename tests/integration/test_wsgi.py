"""PEP 3333 behaviour, against the plain app and the same app under wsgiref's validator."""

import base64
import json
import socket

import httpx
import pytest

from tests.integration.apps.wsgi_apps import FILE_BYTES
from tests.integration.server import read_response


def get(server, path, **kwargs):
    return httpx.get(server.url + path, timeout=10, **kwargs)


def test_environ_carries_request_line_headers_and_client(wsgi_server):
    r = get(wsgi_server, "/echo?a=1&b=%20x", headers={"X-Custom": "v1", "Cookie": "a=1"})
    assert r.status_code == 200
    data = r.json()
    assert data["method"] == "GET"
    assert data["path"] == "/echo"
    assert data["query"] == "a=1&b=%20x"
    assert data["raw_uri"] == "/echo?a=1&b=%20x"
    assert data["protocol"] == "HTTP/1.1"
    assert data["script_name"] == ""
    assert data["remote_addr"] == "127.0.0.1"
    assert int(data["remote_port"]) > 0
    assert data["headers"]["HTTP_X_CUSTOM"] == "v1"
    assert data["headers"]["HTTP_COOKIE"] == "a=1"
    assert data["headers"]["HTTP_HOST"] == f"127.0.0.1:{wsgi_server.port}"


def test_each_request_of_a_connection_sees_its_own_method_query_protocol_and_port(wsgi_server):
    # The server keeps the last request's values to copy the next one's
    # environ from: a value that changed must not be the one kept.
    first, second = wsgi_server.connect(), wsgi_server.connect()
    requests = [(first, b"GET /echo?a=1 HTTP/1.1\r\nHost: t\r\n\r\n"),
                (first, b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi"),
                (second, b"GET /echo HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\n\r\n"),
                (first, b"GET /echo HTTP/1.1\r\nHost: t\r\n\r\n"),
                (second, b"DELETE /echo?b=2 HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\n\r\n")]
    seen = []
    for sock, request in requests:
        sock.sendall(request)
        status, _, body, _ = read_response(sock)
        assert status == 200
        data = json.loads(body)
        assert data["remote_port"] == str(sock.getsockname()[1])
        seen.append((data["method"], data["query"], data["protocol"]))
    first.close()
    second.close()
    assert seen == [("GET", "a=1", "HTTP/1.1"), ("POST", "", "HTTP/1.1"), ("GET", "", "HTTP/1.0"),
                    ("GET", "", "HTTP/1.1"), ("DELETE", "b=2", "HTTP/1.0")]


def test_a_kept_wsgi_input_raises_and_never_reads_a_later_request_body(wsgi_server):
    # wsgi.input is reused by the next request only when the app let go of it.
    s = wsgi_server.connect()
    replies = []
    for path, body in (("/keep-input", b"first"), ("/read-kept", b"second"), ("/read-kept", b"third")):
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        status, _, reply, _ = read_response(s)
        assert status == 200
        replies.append(reply)
    s.close()
    assert replies == [b"kept", b"raised ValueError / own second", b"raised ValueError / own third"]


# Under the validator wsgi.input is its wrapper, a list body becomes an
# iterator and a file_wrapper an ordinary iterable, so the server-side
# details below are checked against the plain app only.


def test_environ_values_have_pep3333_types(server):
    data = get(server, "/environ-types").json()
    types = data["types"]
    assert data["version"] == [1, 0]
    for key in ("REQUEST_METHOD", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "SERVER_NAME", "SERVER_PORT",
                "SERVER_PROTOCOL", "wsgi.url_scheme"):
        assert types[key] == "str", key
    assert types["wsgi.multithread"] == "bool"
    assert types["wsgi.multiprocess"] == "bool"
    assert types["wsgi.run_once"] == "bool"
    assert types["wsgi.input"] == "Input"


def test_path_info_is_percent_decoded_as_latin1(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"GET /echo%C3%A9%2Fx HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    # /echo%C3%A9... is not the /echo route: 404 proves decoding reached the router.
    assert status == 404
    s.sendall(b"GET /ech%6F HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert status == 200 and json.loads(body)["path"] == "/echo"


def test_repeated_request_headers_are_joined_with_commas(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"GET /echo HTTP/1.1\r\nHost: t\r\nX-Multi: a\r\nX-Multi: b\r\nCookie: c=1\r\nCookie: d=2\r\n\r\n")
    _, _, body, _ = read_response(s)
    headers = json.loads(body)["headers"]
    assert headers["HTTP_X_MULTI"] == "a, b"
    assert headers["HTTP_COOKIE"] == "c=1; d=2"


def test_a_very_long_header_name_reaches_the_environ(wsgi_server):
    name = "X-" + "Long" * 100
    s = wsgi_server.connect()
    s.sendall(f"GET /echo HTTP/1.1\r\nHost: t\r\n{name}: yes\r\n\r\n".encode())
    _, _, body, _ = read_response(s)
    assert json.loads(body)["headers"]["HTTP_" + name.upper().replace("-", "_")] == "yes"


def test_header_names_with_underscores_are_dropped(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"GET /echo HTTP/1.1\r\nHost: t\r\nX_Forwarded_For: 6.6.6.6\r\nX-Forwarded-For: 1.2.3.4\r\n\r\n")
    _, _, body, _ = read_response(s)
    assert json.loads(body)["headers"]["HTTP_X_FORWARDED_FOR"] == "1.2.3.4"


def test_post_body_is_read_whole(wsgi_server):
    payload = bytes(range(256)) * 100
    r = httpx.post(wsgi_server.url + "/echo", content=payload, timeout=10,
                   headers={"Content-Type": "application/octet-stream"})
    data = r.json()
    assert base64.b64decode(data["body_b64"]) == payload
    assert data["content_length"] == str(len(payload))
    assert data["content_type"] == "application/octet-stream"


def test_input_read_n_never_returns_more_than_n(wsgi_server):
    r = httpx.post(wsgi_server.url + "/read-sized?n=7", content=b"abcdefghijklmnopqrstuvwxyz", timeout=10)
    data = r.json()
    assert data["body"] == "abcdefghijklmnopqrstuvwxyz"
    assert data["sizes"] == [7, 7, 7, 5]


def test_input_readline_readlines_and_size_limit(wsgi_server):
    r = httpx.post(wsgi_server.url + "/readline", content=b"line one\nabcdef\nx\ny", timeout=10)
    assert r.json() == {"first": "line one\n", "limited": "abc", "rest": ["def\n", "x\n", "y"]}


def test_input_iterates_by_line(wsgi_server):
    r = httpx.post(wsgi_server.url + "/iterate", content=b"a\nbb\nccc", timeout=10)
    assert r.json() == {"lines": ["a\n", "bb\n", "ccc"]}


def test_chunked_request_body_is_decoded_for_the_app(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert status == 200
    assert base64.b64decode(json.loads(body)["body_b64"]) == b"hello world"


def test_chunked_body_read_by_lines(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"POST /iterate HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"3\r\na\nb\r\n4\r\nb\ncc\r\n0\r\n\r\n")
    _, _, body, _ = read_response(s)
    assert json.loads(body) == {"lines": ["a\n", "bb\n", "cc"]}


def test_generator_response_is_streamed_chunked(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"GET /stream?count=4&size=3 HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert status == 200
    assert headers["transfer-encoding"] == "chunked"
    assert body == b"AAABBBCCCDDD"


def test_streamed_chunks_reach_the_client_before_the_response_ends(wsgi_server):
    s = wsgi_server.connect()
    s.settimeout(5)
    s.sendall(b"GET /stream?count=3&size=4&delay=0.4 HTTP/1.1\r\nHost: t\r\n\r\n")
    received = b""
    while b"AAAA" not in received:
        received += s.recv(4096)
    # The first chunk arrived while the app was still sleeping before the second.
    assert b"BBBB" not in received


def test_body_read_after_the_head_is_committed_is_complete(server):
    # Buffered whole before the app runs, and read only after write() sent the head.
    s = server.connect()
    s.sendall(b"POST /write-then-read HTTP/1.1\r\nHost: t\r\nContent-Length: 12\r\n\r\nab\ncd\nef\ngh\n")
    status, _, body, _ = read_response(s)
    assert status == 200 and body == b"echo:AB\nCD\nEF\nGH\n"
    s.sendall(b"POST /write-then-read HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"3\r\nab\n\r\n3\r\ncd\n\r\n0\r\n\r\n")
    status, _, body, _ = read_response(s)
    assert status == 200 and body == b"echo:AB\nCD\n"


def test_write_callable_output_precedes_returned_body(wsgi_server):
    r = get(wsgi_server, "/write")
    assert r.text == "written directly, then returned"


def test_file_wrapper_sends_the_whole_file(server):
    r = get(server, "/file")
    assert r.status_code == 200
    assert r.headers["content-length"] == str(len(FILE_BYTES))
    assert r.content == FILE_BYTES


def test_file_wrapper_starts_at_the_files_position(server):
    r = get(server, "/file?offset=1000")
    assert r.content == FILE_BYTES[1000:]


def test_list_response_gets_a_content_length(server):
    r = get(server, "/hello")
    assert r.headers["content-length"] == "13"
    assert "transfer-encoding" not in r.headers


def test_head_response_has_headers_and_no_body(server):
    s = server.connect()
    s.sendall(b"HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s, head_only=True)
    assert status == 200 and headers["content-length"] == "13" and body == b""
    # The next response starts right after the HEAD response's head: no body bytes in between.
    status, _, body, _ = read_response(s)
    assert status == 200 and body == b"Hello, World!"


def test_204_has_no_body_and_no_framing_headers(wsgi_server):
    r = get(wsgi_server, "/empty")
    assert r.status_code == 204
    assert "transfer-encoding" not in r.headers
    assert "content-length" not in r.headers
    assert r.content == b""


def test_app_connection_close_closes_after_the_response(wsgi_server):
    s = wsgi_server.connect()
    s.sendall(b"GET /connection-close HTTP/1.1\r\nHost: t\r\n\r\n")
    status, headers, body, _ = read_response(s)
    assert body == b"bye" and headers["connection"] == "close"
    assert s.recv(10) == b""
