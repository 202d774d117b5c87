"""Site-level views: ``/healthz`` (the process is alive: the cheapest page, no database) and
``/readyz`` (the database and the broker reachable: 200, else 503 with ``Retry-After``), for the
proxy, compose and systemd."""
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .logs import note
from .outage import readiness, retry_after


@never_cache
@require_GET
def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@require_GET
def readyz(request):
    ready, body = readiness()
    response = JsonResponse(body, status=200 if ready else 503)
    if not ready:
        note("not ready: " + ", ".join(f"{k} {v}" for k, v in body.items() if k != "status"))
        response["Retry-After"] = str(retry_after())
    return response
