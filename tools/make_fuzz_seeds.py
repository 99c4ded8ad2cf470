"""Writes the seed corpora the fuzz targets start from (tests/fuzz/corpus/).

parser/: request heads from the gunicorn corpus (tests/conformance/corpus.txt,
written by tools/corpus_to_text.py) and hand-written ones for the host,
target and transfer-coding rules. chunked/: the bodies of the corpus's
chunked requests and hand-written bodies. Each file starts with the control
bytes its target reads (see the comment at the top of each *_fuzz.cc): a
split point in the middle, and for the parser a second split a few bytes
later and the limits to use.

Rewrites only files named gunicorn-* and hand-*; others (regressions found by
fuzzing) are left alone.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS_TEXT = ROOT / "tests" / "conformance" / "corpus.txt"
OUT = ROOT / "tests" / "fuzz" / "corpus"

# A spread of accepted and rejected shapes; the long cases (limits) are left
# out, since the small-limits bit reaches those statuses with short inputs.
GUNICORN_HEADS = [
    "valid/001", "valid/002", "valid/003", "valid/004", "valid/005", "valid/006", "valid/008", "valid/010",
    "valid/011", "valid/013", "valid/014", "valid/015", "valid/020", "valid/023", "valid/025", "valid/028",
    "valid/031", "valid/040", "valid/100", "valid/padding_01", "valid/rfc9110_body_framing_http10_cl_01",
    "valid/rfc9110_field_value_htab_trim_01", "valid/rfc9110_field_value_obs_text_01",
    "valid/rfc9112_chunked_ext_quoted_01", "valid/rfc9112_target_absolute_01",
    "valid/rfc9112_target_absolute_ipv6_01", "valid/rfc9112_target_absolute_userinfo_01",
    "valid/rfc9112_target_asterisk_options_01", "valid/rfc9112_target_authority_connect_01",
    "invalid/001", "invalid/003", "invalid/005", "invalid/010", "invalid/013", "invalid/016", "invalid/019",
    "invalid/022", "invalid/chunked_01", "invalid/chunked_05", "invalid/nonascii_01", "invalid/obs_fold_01",
    "invalid/prefix_01", "invalid/prefix_06", "invalid/rfc9110_field_value_ctl_bel_01",
    "invalid/rfc9112_smuggle_cl_te_chunked_01", "invalid/rfc9112_smuggle_cl_list_form_01", "invalid/version_01",
]

# (name, bytes, small limits)
HAND_HEADS = [
    ("absolute-form-overrides-host", b"GET http://evil.example/abs HTTP/1.1\r\nHost: good.example\r\n\r\n", False),
    ("absolute-form-ipv6-port", b"GET https://[2001:db8::7]:8443/p?q HTTP/1.1\r\nHost: [::1]:80\r\n\r\n", False),
    ("absolute-form-userinfo", b"GET http://user:pw@example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", False),
    ("absolute-form-http10-no-host", b"GET http://example.com HTTP/1.0\r\n\r\n", False),
    ("host-ipv4-mapped", b"GET / HTTP/1.1\r\nHost: [::ffff:192.0.2.1]:443\r\n\r\n", False),
    ("host-ipvfuture", b"GET / HTTP/1.1\r\nHost: [v1.fe80::a+en1]\r\n\r\n", False),
    ("host-pct-encoded", b"GET / HTTP/1.1\r\nHost: ex%41mple.com:80\r\n\r\n", False),
    ("host-empty", b"GET / HTTP/1.1\r\nHost:\r\n\r\n", False),
    ("host-invalid", b"GET / HTTP/1.1\r\nHost: a b/c@d\r\n\r\n", False),
    ("host-two-colons", b"GET / HTTP/1.1\r\nHost: a:b:c\r\n\r\n", False),
    ("te-chunked-parameters", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;foo=bar\r\n\r\n", False),
    ("te-gzip-chunked", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip;q=1, chunked\r\n\r\n", False),
    ("fragment-origin-form", b"GET /a?b#frag HTTP/1.1\r\nHost: a\r\n\r\n", False),
    ("pipelined", b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n", False),
    ("keep-alive-expect", b"\r\nPOST /u HTTP/1.0\r\nConnection: keep-alive, Upgrade\r\nExpect: 100-continue\r\n"
                          b"Content-Length: 5\r\n\r\nhello", False),
    ("small-limits-long-line", b"GET /" + b"a" * 70 + b" HTTP/1.1\r\nHost: a\r\n\r\n", True),
    ("small-limits-many-fields", b"GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", True),
    ("small-limits-body", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", True),
]

HAND_BODIES = [
    ("empty-body", b"0\r\n\r\n"),
    ("one-chunk", b"5\r\nhello\r\n0\r\n\r\n"),
    ("two-chunks-uppercase-hex", b"A\r\n0123456789\r\n1F\r\n" + b"x" * 31 + b"\r\n0\r\n\r\n"),
    ("leading-zeros", b"0005\r\nhello\r\n000\r\n\r\n"),
    ("extensions", b"5;name=value;flag\r\nhello\r\n0;last\r\n\r\n"),
    ("quoted-extension", b"5 ; q=\"a \\\"b\\\" c\"\r\nhello\r\n0\r\n\r\n"),
    ("trailers", b"3\r\nabc\r\n0\r\nX-Checksum: 1234\r\nX-Other:\tv\r\n\r\n"),
    ("forbidden-trailer", b"3\r\nabc\r\n0\r\nContent-Length: 3\r\n\r\n"),
    ("bare-lf-size", b"3\nabc\r\n0\r\n\r\n"),
    ("missing-crlf-after-data", b"3\r\nabcd\r\n0\r\n\r\n"),
    ("size-too-large", b"fffffffffffffffff\r\n"),
    ("negative-size", b"-1\r\nx\r\n0\r\n\r\n"),
    ("obs-fold-trailer", b"0\r\nX: a\r\n b\r\n\r\n"),
    ("incomplete", b"10\r\nonly part"),
    ("bytes-after-end", b"1\r\nz\r\n0\r\n\r\nGET / HTTP/1.1\r\n"),
    # At the decoder's limits exactly (a 4096-byte size line before its LF, a
    # 16384-byte trailer section), so one mutation crosses either: libFuzzer
    # rarely grows an input this far on its own.
    ("size-line-at-limit", b"1;e=" + b"v" * 4091 + b"\r\nx\r\n0\r\n\r\n"),
    ("trailer-at-limit", b"0\r\nX: " + b"v" * 16377 + b"\r\n\r\n"),
]


def read_corpus():
    if not CORPUS_TEXT.exists():
        sys.exit(f"{CORPUS_TEXT} is missing: run `make {CORPUS_TEXT.relative_to(ROOT)}` first")
    cases = {}
    for line in CORPUS_TEXT.read_text().splitlines():
        fields = line.split(" ")
        if len(fields) >= 2:
            cases[fields[0]] = bytes.fromhex(fields[2]) if len(fields) > 2 else b""
    return cases


def split_point(data: bytes) -> bytes:
    return (len(data) // 2).to_bytes(2, "big")


def parser_seed(data: bytes, small: bool) -> bytes:
    return split_point(data) + bytes([(5 << 1) | int(small)]) + data


def chunked_seed(data: bytes) -> bytes:
    return split_point(data) + data


def chunked_body(raw: bytes):
    head, sep, body = raw.partition(b"\r\n\r\n")
    if sep and re.search(rb"(?im)^transfer-encoding:[^\r\n]*chunked", head):
        return body
    return None


def write(directory: pathlib.Path, seeds: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for old in list(directory.glob("gunicorn-*")) + list(directory.glob("hand-*")):
        old.unlink()
    for name, data in seeds.items():
        (directory / name).write_bytes(data)


def main():
    cases = read_corpus()
    heads = {}
    for name in GUNICORN_HEADS:
        heads["gunicorn-" + name.replace("/", "-")] = parser_seed(cases[name], False)
    for name, data, small in HAND_HEADS:
        heads["hand-" + name] = parser_seed(data, small)
    bodies = {}
    for name, raw in sorted(cases.items()):
        body = chunked_body(raw)
        if body is not None:
            bodies["gunicorn-" + name.replace("/", "-")] = chunked_seed(body)
    for name, data in HAND_BODIES:
        bodies["hand-" + name] = chunked_seed(data)
    write(OUT / "parser", heads)
    write(OUT / "chunked", bodies)
    print(f"{len(heads)} parser seeds, {len(bodies)} chunked seeds in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
