"""The app every host of the fleet serves: it answers with its host's name
and the version of its code, read from a file when the app is imported, so
a reload (HUP) that brings new code is seen in the answers.

/slow?ms=N holds the request N milliseconds (a request in flight when a
host dies); /work?ms=N is the same, named for the overload scenario."""

import os
import time
from urllib.parse import parse_qs

HOST = os.environ.get("FLEET_HOST", "?")
VERSION_FILE = os.environ.get("FLEET_VERSION_FILE")
VERSION = open(VERSION_FILE).read().strip() if VERSION_FILE else "v0"


def app(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/healthz":  # baton answers it from the core; a peer without a health path reaches this
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "3")])
        return [b"ok\n"]
    if path in ("/slow", "/work"):
        ms = int(parse_qs(environ.get("QUERY_STRING", "")).get("ms", ["0"])[0])
        time.sleep(ms / 1000)
    body = f"{HOST} {VERSION} {environ.get('REMOTE_ADDR')}\n".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
