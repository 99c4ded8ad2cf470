"""A minimal Django project in one module (Debian's python3-django): settings,
URLs and views, served through django.core.wsgi like any Django deployment."""

import hashlib
import json
import os
import tempfile

import django
from django.conf import settings

FILE_PATH = os.path.join(tempfile.gettempdir(), f"baton-django-{os.getpid()}.bin")

if not settings.configured:
    settings.configure(
        DEBUG=False,
        SECRET_KEY="baton-test-only",
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF=__name__,
        MIDDLEWARE=[
            "django.middleware.common.CommonMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
        ],
        INSTALLED_APPS=[],
        DATABASES={},
        USE_TZ=True,
        DATA_UPLOAD_MAX_MEMORY_SIZE=20 * 1024 * 1024,
        FILE_UPLOAD_MAX_MEMORY_SIZE=1024 * 1024,
        FILE_UPLOAD_TEMP_DIR=tempfile.gettempdir(),
    )
    django.setup()

from django.http import FileResponse, HttpResponse, HttpResponseRedirect, JsonResponse, StreamingHttpResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402

with open(FILE_PATH, "wb") as f:
    f.write(os.urandom(300 * 1024))


def index(request):
    return HttpResponse("<h1>django on baton</h1>")


@csrf_exempt
def form(request):
    return JsonResponse({"name": request.POST["name"], "tags": request.POST.getlist("tag"),
                         "method": request.method})


@csrf_exempt
def json_view(request):
    data = json.loads(request.body)
    return JsonResponse({"received": data})


@csrf_exempt
def upload(request):
    f = request.FILES["file"]
    content = f.read()
    return JsonResponse({"name": f.name, "size": len(content), "sha256": hashlib.sha256(content).hexdigest()})


@csrf_exempt
def raw(request):
    # Django reads request.body by CONTENT_LENGTH and sees a chunked body
    # (which has none) as empty, on every server. A view that accepts
    # chunked uploads reads the WSGI stream, which baton ends at the body's end.
    if "CONTENT_LENGTH" in request.META:
        body = request.body
    else:
        body = request.META["wsgi.input"].read()
    return JsonResponse({"size": len(body), "sha256": hashlib.sha256(body).hexdigest()})


def stream(request):
    return StreamingHttpResponse((f"part {i}\n" for i in range(50)), content_type="text/plain")


def file(request):
    return FileResponse(open(FILE_PATH, "rb"), content_type="application/octet-stream")


def cookies(request):
    response = JsonResponse({"seen": request.COOKIES})
    response.set_cookie("visited", "yes")
    return response


def go(request):
    return HttpResponseRedirect("/")


def csrf_protected(request):
    return HttpResponse("should not get here without a token")


urlpatterns = [
    path("", index),
    path("form", form),
    path("json", json_view),
    path("upload", upload),
    path("raw", raw),
    path("stream", stream),
    path("file", file),
    path("cookies", cookies),
    path("redirect", go),
    path("protected", csrf_protected),
]

from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
asgi_application = get_asgi_application()
