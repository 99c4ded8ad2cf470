"""A Flask JSON route (Debian's python3-flask): GET /json."""

from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/json")
def json_route():
    return jsonify(message="Hello, World!")
