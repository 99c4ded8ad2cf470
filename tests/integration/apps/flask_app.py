"""A Flask app (Debian's python3-flask) exercising what a real app does."""

import hashlib
import os
import tempfile

from flask import Flask, Response, jsonify, make_response, redirect, request, send_file, stream_with_context

app = Flask(__name__)
FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-flask-{os.getpid()}.txt")
with open(FILE_PATH, "wb") as f:
    f.write(b"flask file body\n" * 1000)


@app.get("/")
def index():
    return "<h1>flask on baton</h1>"


@app.post("/form")
def form():
    return jsonify(name=request.form["name"], tags=request.form.getlist("tag"))


@app.post("/json")
def json_echo():
    data = request.get_json()
    return jsonify(received=data, doubled=data["n"] * 2)


@app.post("/upload")
def upload():
    f = request.files["file"]
    content = f.read()
    return jsonify(filename=f.filename, size=len(content), sha256=hashlib.sha256(content).hexdigest())


@app.post("/raw")
def raw():
    body = request.get_data()
    return jsonify(size=len(body), sha256=hashlib.sha256(body).hexdigest())


@app.get("/stream")
def stream():
    def generate():
        for i in range(100):
            yield f"row {i}\n"
    return Response(stream_with_context(generate()), mimetype="text/plain")


@app.get("/file")
def file():
    return send_file(FILE_PATH, mimetype="text/plain")


@app.get("/set-cookie")
def set_cookie():
    response = make_response("cookie set")
    response.set_cookie("session", "abc123", httponly=True)
    response.set_cookie("theme", "dark")
    return response


@app.get("/read-cookie")
def read_cookie():
    return jsonify(dict(request.cookies))


@app.get("/redirect")
def go():
    return redirect("/", code=302)


@app.get("/boom")
def boom():
    raise RuntimeError("flask view failed")
