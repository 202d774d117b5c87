"""Site middleware: the visitor's language, and debug pages for this machine only.

Language selection (``ChosenLanguageMiddleware``): Brazilian Portuguese unless the visitor
chose another language. Django's own ``LocaleMiddleware`` also follows the browser's
``Accept-Language``; this project's UI speaks the regulation's Portuguese by default (an English browser or a
headless test browser still gets Portuguese), and English only after the visitor picks
it with the language switcher, which posts to ``/i18n/setlang/`` and sets the cookie.

``LocalDebugOnlyMiddleware``: with ``DEBUG`` on, clients of other machines get a plain 403.

``HealthProbeMiddleware``: ``/healthz`` and ``/readyz`` answered whatever the ``Host`` header.
"""
from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin


class ChosenLanguageMiddleware(MiddlewareMixin):
    def process_request(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        try:
            language = translation.get_supported_language_variant(chosen) if chosen else settings.LANGUAGE_CODE
        except LookupError:
            language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class LocalDebugOnlyMiddleware:
    """With ``DEBUG`` on, only clients on this machine are served: Django's debug pages print
    the settings and the environment (database passwords included). Others get a plain 403.
    With ``DEBUG`` off it does nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.DEBUG:
            from django.http import HttpResponseForbidden

            address = request.META.get("REMOTE_ADDR", "")
            if not (address.startswith("127.") or address in {"::1", ""}):
                return HttpResponseForbidden(
                    "This server runs in debug mode and serves only its own machine.", content_type="text/plain"
                )
        return self.get_response(request)


#: the probes' paths, answered by :class:`HealthProbeMiddleware` before any host check
PROBE_PATHS = ("/healthz", "/readyz")


class HealthProbeMiddleware:
    """``/healthz`` and ``/readyz`` for a load balancer or an orchestrator, whatever the ``Host``.

    They ask by address (``Host: 10.0.0.5:8000``), a name that is not in ``ALLOWED_HOSTS``: Django's host
    check (``request.get_host()``, first called by ``SecurityMiddleware``'s redirect and by
    ``CommonMiddleware``) would answer 400, log a ``django.security.DisallowedHost`` ERROR and mail the
    admins at every probe. Placed just under ``config.logs.RequestLogMiddleware`` (the probe keeps its
    access line and request id), this answers the two paths itself and nothing below it runs: no
    ``get_host()``, no session, no redirect to HTTPS (already exempt: ``SECURE_REDIRECT_EXEMPT``).

    Safe: the two answers reveal nothing ("ok"; the database and the broker "ok" or "unreachable
    (ExceptionName)") and build no link from the ``Host`` header, which is what the host check protects
    (absolute URLs, password mails). Only these exact paths (the views answer other methods 405); every other address
    still meets the host check."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info not in PROBE_PATHS:
            return self.get_response(request)
        from .views import healthz, readyz

        return (healthz if request.path_info == "/healthz" else readyz)(request)
