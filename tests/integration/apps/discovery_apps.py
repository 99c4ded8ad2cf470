"""Apps for the HTTP/3 discovery tests (test_http3_discovery.py)."""


def wsgi(environ, start_response):
    """/own answers with an Alt-Svc of its own; /page is a page that loads
    itself again (?n=1, 2, ...) until n reaches 20, so a browser that learnt
    of HTTP/3 from the first load's Alt-Svc shows it on a later one; anything
    else says which protocol carried it."""
    path = environ["PATH_INFO"]
    protocol = environ["SERVER_PROTOCOL"]
    if path == "/own":
        start_response("200 OK", [("Content-Type", "text/plain"), ("Alt-Svc", "clear")])
        return [b"own\n"]
    if path == "/page":
        n = int(environ.get("QUERY_STRING", "n=0").partition("=")[2] or 0)
        again = f"<script>setTimeout(() => location.replace('/page?n={n + 1}'), 300)</script>" if n < 20 else ""
        body = f"<!doctype html><title>{protocol}</title><p>{protocol} {n}</p>{again}".encode()
        start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))])
        return [body]
    body = protocol.encode() + b"\n"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
