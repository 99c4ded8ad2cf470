"""An app made by a factory (--factory)."""


def create():
    def application(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"made by a factory"]
    return application
