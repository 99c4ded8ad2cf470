"""A FastAPI JSON route (Debian's python3-fastapi): GET /json, the same bytes as the Starlette one."""

from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()


@app.get("/json")
async def json_route():
    return JSONResponse({"message": "Hello, World!"})
