"""Site middleware: the visitor's language, and debug pages for this machine only.

Language selection (``ChosenLanguageMiddleware``): Brazilian Portuguese unless the visitor
chose another language. Django's own ``LocaleMiddleware`` also follows the browser's
``Accept-Language``; this project's UI speaks the regulation's Portuguese by default (an English browser or a
headless test browser still gets Portuguese), and English only after the visitor picks
it with the language switcher, which posts to ``/i18n/setlang/`` and sets the cookie.

``LocalDebugOnlyMiddleware``: with ``DEBUG`` on, clients of other machines get a plain 403.
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
