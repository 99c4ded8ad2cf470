"""The corpus replay's ASGI echo app: answers with what it received in the
shape the WSGI echo app uses (environ-style field names), and records every
call, at entry (before it receives the body, which may fail), so the replay
can prove a rejected request reached no app."""

import base64
import json
import os

RECORD = os.environ["BATON_TEST_RECORD"]


def fields_of(headers) -> dict:
    fields: dict[str, str] = {}
    for raw_name, raw_value in headers:
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        if "_" in name:
            continue  # as the WSGI side drops them
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        sep = "; " if key == "HTTP_COOKIE" else ", "
        fields[key] = f"{fields[key]}{sep}{value}" if key in fields else value
    return fields


async def application(scope, receive, send):
    if scope["type"] != "http":
        return
    uri = scope["raw_path"].decode("latin-1")
    if scope["query_string"]:
        uri += "?" + scope["query_string"].decode("latin-1")
    with open(RECORD, "a") as f:
        f.write(f"{scope['method']} {uri}\n")
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    answer = json.dumps({
        "method": scope["method"], "uri": uri, "protocol": "HTTP/" + scope["http_version"],
        "fields": fields_of(scope["headers"]), "body_b64": base64.b64encode(body).decode(),
    }).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]})
    await send({"type": "http.response.body", "body": answer})
