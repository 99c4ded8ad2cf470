"""Starlette, FastAPI (Debian's packages) and Django's ASGI handler, for the
ASGI framework tests."""

import asyncio

from fastapi import FastAPI, Request, WebSocket
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect

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


async def echo_socket(websocket):
    await websocket.accept()
    try:
        while True:
            await websocket.send_text("echo: " + await websocket.receive_text())
    except WebSocketDisconnect:
        pass


starlette_app = Starlette(routes=[Route("/hello", hello), Route("/upload", upload, methods=["POST"]),
                                  Route("/stream", stream), WebSocketRoute("/ws", echo_socket)])

fastapi_app = FastAPI()


@fastapi_app.get("/items/{item_id}")
async def read_item(item_id: int, q: str | None = None):
    return {"item_id": item_id, "q": q}


@fastapi_app.post("/upload")
async def fastapi_upload(request: Request):
    body = await request.body()
    return {"length": len(body), "sum": sum(body) % 65521}


@fastapi_app.get("/stream")
async def fastapi_stream():
    async def numbers():
        for i in range(5):
            yield f"{i}\n"
            await asyncio.sleep(0.01)
    return StreamingResponse(numbers(), media_type="text/plain")


@fastapi_app.websocket("/ws")
async def fastapi_socket(websocket: WebSocket):
    await echo_socket(websocket)
