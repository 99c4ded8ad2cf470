"""A Starlette app whose /broadcast WebSocket sends every message it
receives to every connected client (the sender included): the fan-out
row of the benchmarks."""

import asyncio

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

clients: set[WebSocket] = set()


async def broadcast(websocket: WebSocket) -> None:
    await websocket.accept()
    clients.add(websocket)
    try:
        while True:
            text = await websocket.receive_text()
            await asyncio.gather(*(c.send_text(text) for c in list(clients)), return_exceptions=True)
    except WebSocketDisconnect:
        pass
    finally:
        clients.discard(websocket)


async def up(request):
    return PlainTextResponse("ws")


app = Starlette(routes=[Route("/", up), WebSocketRoute("/broadcast", broadcast)])
