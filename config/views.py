"""Site-level views: ``/healthz`` (the proxy's and compose's health check; the cheapest page)."""
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@never_cache
@require_GET
def healthz(request):
    return HttpResponse("ok", content_type="text/plain")
