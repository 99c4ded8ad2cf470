import pytest

from tests.integration.server import Server


@pytest.fixture
def start_server(request, shape):
    """start_server(*args, env=None) starts baton in the module's shape with those arguments; stopped after
    the test."""
    servers: list[Server] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Server:
        server = Server(["--port", "0", *shape, *args], env=env).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


APP = "tests.integration.apps.wsgi_apps:app"
VALIDATED = "tests.integration.apps.wsgi_apps:validated"


@pytest.fixture(scope="module", params=[APP, VALIDATED], ids=["plain", "wsgiref-validator"])
def wsgi_server(request, tmp_path_factory, shape):
    """The test app, plain and wrapped in wsgiref.validate.validator (warnings are errors there)."""
    record = tmp_path_factory.mktemp("record") / "calls.log"
    env = {"BATON_TEST_RECORD": str(record)}
    if request.param == VALIDATED:
        env["PYTHONWARNINGS"] = "error"
    server = Server(["--port", "0", *shape, request.param], env=env).start()
    server.record = record
    yield server
    server.stop()
    if request.param == VALIDATED:
        # The validator raised nothing and warned nothing over the whole module.
        assert "Warning" not in server.log and "Traceback" not in server.log, server.log


@pytest.fixture(scope="module")
def server(tmp_path_factory, shape):
    """The plain test app, one server for the module."""
    record = tmp_path_factory.mktemp("record") / "calls.log"
    server = Server(["--port", "0", *shape, "--header-read-timeout", "3", "--max-body-size", "20000000", APP],
                    env={"BATON_TEST_RECORD": str(record)}).start()
    server.record = record
    yield server
    server.stop()
