"""A Starlette JSON route (Debian's python3-starlette): GET /json."""

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route


async def json_route(request):
    return JSONResponse({"message": "Hello, World!"})


app = Starlette(routes=[Route("/json", json_route)])
