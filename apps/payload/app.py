"""Payload workloads, WSGI: a 64 KiB response (GET /64k) and an echo of the
request body (POST /echo, used with 1 MiB)."""

BLOB = bytes(range(256)) * 256  # 64 KiB
BLOB_HEADERS = [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(BLOB)))]


def application(environ, start_response):
    if environ["PATH_INFO"] == "/echo":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length)
        start_response("200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(body)))])
        return [body]
    start_response("200 OK", BLOB_HEADERS)
    return [BLOB]
