"""The corpus replay's echo app: answers with what it received, and records
every call, at entry (before it reads the body, whose read may fail), so the
replay can prove a rejected request reached no app."""

import base64
import json
import os

RECORD = os.environ["BATON_TEST_RECORD"]


def application(environ, start_response):
    with open(RECORD, "a") as f:
        f.write(f"{environ['REQUEST_METHOD']} {environ['RAW_URI']}\n")
    stream = environ["wsgi.input"]
    body = b""
    while True:
        part = stream.read(65536)
        if not part:
            break
        body += part
    fields = {k: v for k, v in environ.items() if k.startswith("HTTP_") or k in ("CONTENT_TYPE", "CONTENT_LENGTH")}
    answer = json.dumps({
        "method": environ["REQUEST_METHOD"],
        "uri": environ["RAW_URI"],
        "protocol": environ["SERVER_PROTOCOL"],
        "fields": fields,
        "body_b64": base64.b64encode(body).decode(),
    }).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))])
    return [answer]
