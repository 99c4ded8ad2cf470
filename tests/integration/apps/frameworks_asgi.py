"""Starlette, FastAPI (Debian's packages) and Django's ASGI handler, for the
ASGI framework tests."""

import asyncio

from fastapi import FastAPI, Request
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route

from tests.integration.apps import django_app  # noqa: F401  (configures Django)


async def hello(request):
    return PlainTextResponse(f"starlette says hello to {request.query_params.get('name', 'you')}")


async def upload(request):
    body = await request.body()
    return JSONResponse({"length": len(body), "sum": sum(body) % 65521})


async def stream(request):
    async def numbers():
        for i in range(5):
            yield f"{i}\n"
            await asyncio.sleep(0.01)
    return StreamingResponse(numbers(), media_type="text/plain")


starlette_app = Starlette(routes=[Route("/hello", hello), Route("/upload", upload, methods=["POST"]),
                                  Route("/stream", stream)])

fastapi_app = FastAPI()


@fastapi_app.get("/items/{item_id}")
async def read_item(item_id: int, q: str | None = None):
    return {"item_id": item_id, "q": q}


@fastapi_app.post("/upload")
async def fastapi_upload(request: Request):
    body = await request.body()
    return {"length": len(body), "sum": sum(body) % 65521}
