"""Conditional GETs on the public tournament pages and their JSON: ``ETag`` and
``Last-Modified`` on every answer, and ``304 Not Modified`` — before the page is built —
when nothing changed since the client's copy (``tournaments.freshness``). A projector or a
hundred phones refreshing the bracket cost one small query each.

The ETag also depends on the path and query, the user and the language; answers carrying
a one-time message (the messages framework) are never short-circuited.
"""
from __future__ import annotations

from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import get_language

PUBLIC_PAGES = {
    ("tournaments", "detail"), ("tournaments", "bracket"), ("tournaments", "bracket-svg"),
    ("tournaments", "grid"), ("tournaments", "standings"), ("tournaments", "rounds"), ("tournaments", "round"),
    ("tournaments-api", "detail"), ("tournaments-api", "pairs"), ("tournaments-api", "rounds"),
    ("tournaments-api", "round"), ("tournaments-api", "matches"), ("tournaments-api", "match"),
    ("tournaments-api", "standings"), ("tournaments-api", "bracket"), ("tournaments-api", "tables"),
}


class PublicConditionalGetMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        if (match.namespace, match.url_name) not in PUBLIC_PAGES or "slug" not in match.kwargs:
            return self.get_response(request)
        from tournaments.freshness import etag, state

        current = state(match.kwargs["slug"])
        if current is None:
            return self.get_response(request)
        request.public_tournament = current.tournament  # the views reuse it: no second query
        user = request.user.pk if getattr(request, "user", None) is not None and request.user.is_authenticated else 0
        tag = etag(current, request.get_full_path(), user, get_language(), request.headers.get("Accept", ""))
        modified = int(current.last_modified.timestamp()) if current.last_modified else None
        pending_messages = "messages" in request.COOKIES or "_messages" in getattr(request, "session", {})
        if not pending_messages:
            early = get_conditional_response(request, etag=tag, last_modified=modified)
            if early is not None:
                return self._validators(early, tag, modified, user)
        response = self.get_response(request)
        if response.status_code == 200 and not pending_messages and not response.has_header("ETag"):
            self._validators(response, tag, modified, user)
        return response

    @staticmethod
    def _validators(response, tag: str, modified: int | None, user: int):
        response["ETag"] = tag
        if modified is not None:
            response["Last-Modified"] = http_date(modified)
        # browsers keep the page but ask again each time (a 304 when nothing changed)
        patch_cache_control(response, no_cache=True, private=bool(user))
        return response
