"""A minimal Django project (Debian's python3-django) for benchmarks: a fast
view (/hello), a slow one (/slow?ms=N) for mixed workloads, and a JSON view.
WSGI: `application`; ASGI: `asgi_application`."""

import json
import time

import django
from django.conf import settings

if not settings.configured:
    settings.configure(
        DEBUG=False,
        SECRET_KEY="baton-bench-only",
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF=__name__,
        MIDDLEWARE=["django.middleware.common.CommonMiddleware"],
        INSTALLED_APPS=[],
        DATABASES={},
        USE_TZ=True,
    )
    django.setup()

from django.http import HttpResponse  # noqa: E402
from django.urls import path  # noqa: E402


def hello(request):
    return HttpResponse(b"Hello, World!", content_type="text/plain")


def slow(request):
    time.sleep(float(request.GET.get("ms", "200")) / 1000)
    return HttpResponse(b"slow", content_type="text/plain")


def json_view(request):
    return HttpResponse(json.dumps({"message": "Hello, World!"}), content_type="application/json")


urlpatterns = [path("hello", hello), path("slow", slow), path("json", json_view)]

from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
asgi_application = get_asgi_application()
