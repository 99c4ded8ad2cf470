"""Django Channels (PyPI's, pinned in tools/locks/test.txt) on Debian's
Django: its ProtocolTypeRouter with Django's own ASGI handler for HTTP and
two WebSocket consumers, one async and one sync (which Channels runs in a
thread through asgiref), as a Channels project routes them."""

from tests.integration.apps.django_app import asgi_application  # configures Django too

from channels.generic.websocket import AsyncWebsocketConsumer, WebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class AsyncEcho(AsyncWebsocketConsumer):
    async def connect(self):
        offered = self.scope["subprotocols"]
        await self.accept(offered[0] if offered else None)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data == "close":
            await self.close(code=4001)
        elif text_data is not None:
            await self.send(text_data=f"async {self.scope['path']}: {text_data}")
        else:
            await self.send(bytes_data=bytes_data[::-1])


class SyncEcho(WebsocketConsumer):
    def connect(self):
        if self.scope["query_string"] == b"refuse":
            self.close()
            return
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        self.send(text_data=f"sync: {text_data}")


application = ProtocolTypeRouter({
    "http": asgi_application,
    "websocket": URLRouter([
        path("ws/async/", AsyncEcho.as_asgi()),
        path("ws/sync/", SyncEcho.as_asgi()),
    ]),
})
