"""Conditional GETs on the public tournament pages and their JSON: ``ETag`` and
``Last-Modified`` on every answer, and ``304 Not Modified`` — before the page is built —
when nothing changed since the client's copy (``public.freshness``). A projector or a
hundred phones refreshing the bracket cost one small query each.

The ETag also depends on the path and query, the user and the language; answers carrying
a one-time message (the messages framework) are never short-circuited.

The page built for an ETag is kept in the cache (``CACHES``: Redis with ``DJANGO_CACHE_URL``,
else each process's memory: an optimisation only, never state another process needs), so a
hundred readers of an unchanged bracket cost one build; the forms' CSRF tokens and the
Content-Security-Policy nonce of the inline scripts are filled in for each reader (the
``CSPMiddleware`` sits above this one in ``MIDDLEWARE``, so a page served from the cache, a
304 too, gets the policy header naming that reader's nonce). When a change makes a page
stale, one process builds the new one while the others keep serving the last one (with its
own ETag) for those few moments, instead of every process building the same page at once; a
page with no last state (a live page's fragment, whose URL names the version) is awaited
from its builder rather than built again by every reader that asks meanwhile.

The cache down (Redis stopped) is no outage of the pages: a request whose cache call fails
builds its page itself and calls the cache no more; its access line says so and the admins get one mail
per ``DJANGO_ERROR_MAIL_MINUTES`` (``config.outage.report``).
"""
from __future__ import annotations

import hashlib
import re
import time

from django.core.cache import cache as shared_cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import get_language

from .freshness import etag, state

PUBLIC_PAGES = {
    ("tournaments", "detail"), ("tournaments", "bracket"), ("tournaments", "bracket-svg"),
    ("tournaments", "grid"), ("tournaments", "standings"), ("tournaments", "rounds"), ("tournaments", "round"),
    ("tournaments", "projector"), ("tournaments", "pair"),
    ("tournaments-api", "detail"), ("tournaments-api", "pairs"), ("tournaments-api", "rounds"),
    ("tournaments-api", "round"), ("tournaments-api", "matches"), ("tournaments-api", "match"),
    ("tournaments-api", "standings"), ("tournaments-api", "bracket"), ("tournaments-api", "tables"),
    ("tournaments", "stages"), ("tournaments-api", "stages"), ("tournaments-api", "stage-standings"),
}


def _credentials_besides_the_session(request) -> bool:
    return bool(
        request.headers.get("Authorization")
        or getattr(request, "_force_auth_user", None) is not None  # DRF's test client
        or getattr(request, "_force_auth_token", None) is not None
    )


CACHE_SECONDS = 600
#: a page's new state is built by one process at a time; the others serve the last one
BUILD_SECONDS = 30
CSRF_PLACEHOLDER = "\x00csrf-token\x00"
CSRF_INPUT = re.compile(r'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{32,64}(")')
CSRF_PLACEHOLDER_INPUT = r"\g<1>" + CSRF_PLACEHOLDER + r"\g<2>"
NONCE_PLACEHOLDER = "\x00csp-nonce\x00"
#: how long a reader waits for another process's build of a page that has no last state
AWAIT_SECONDS = 10
AWAIT_STEP = 0.02


def _nonce_placeholders(request, body: str) -> str:
    """The body with the build request's CSP nonce (``nonce="..."`` of its inline scripts)
    replaced by a placeholder, filled in with each reader's own nonce (:meth:`_serve`)."""
    nonce = getattr(request, "_csp_nonce", None)  # set by django-csp once a template used it
    if not isinstance(nonce, str) or not nonce:
        return body
    return body.replace(f'nonce="{nonce}"', f'nonce="{NONCE_PLACEHOLDER}"')


class _PageCache:
    """The shared cache for one request, or nothing once a call failed: each call answers as an empty
    cache would (``get`` None, ``add`` True: this request builds the page) and the next ones are skipped,
    so a Redis that does not answer costs a request one failed call, not one per use."""

    def __init__(self):
        self.down = False

    def _call(self, method: str, *args, empty=None):
        if self.down:
            return empty
        try:
            return getattr(shared_cache, method)(*args)
        except Exception as error:  # noqa: BLE001 - any failure of the cache: build the page without it
            from config.outage import report

            self.down = True
            first_line = (str(error).strip().splitlines() or [""])[0]
            report("page cache unreachable", f"{type(error).__name__}: {first_line}"[:200])
            return empty

    def get(self, key: str):
        return self._call("get", key)

    def get_many(self, keys: list[str]) -> dict:
        return self._call("get_many", keys, empty={})

    def add(self, key: str, value, timeout: int) -> bool:
        return self._call("add", key, value, timeout, empty=True)

    def set_many(self, values: dict, timeout: int) -> None:
        self._call("set_many", values, timeout)

    def delete(self, key: str) -> None:
        self._call("delete", key)


def _await_build(cache: _PageCache, page: str, tag: str):
    """The page another process is building, once it is in the cache (``None`` after
    ``AWAIT_SECONDS``, or when the build ended without storing it: the caller builds it then)."""
    deadline = time.monotonic() + AWAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(AWAIT_STEP)
        found = cache.get_many([f"{page}:{tag}", f"{page}:building"])
        if f"{page}:{tag}" in found:
            return tag, found[f"{page}:{tag}"]
        if f"{page}:building" not in found:  # built for another state (a later change), or failed
            latest = cache.get(f"{page}:latest")
            return latest
    return None


def page_key(full_path: str, user: int, language: str, accept: str) -> str:
    """The cache key prefix of one variant of a public page (``:<etag>``, ``:latest``, ``:building``)."""
    variant = f"{full_path}:{user}:{language}:{accept}"
    return "public-page:" + hashlib.sha256(variant.encode("utf-8", "surrogatepass")).hexdigest()


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
        if _credentials_besides_the_session(request):
            # the API may know a user this middleware does not see (HTTP Basic, a token)
            return self.get_response(request)
        current = state(match.kwargs["slug"])
        if current is None:
            return self.get_response(request)
        request.public_tournament = current.tournament  # the views reuse it: no second query
        user = request.user.pk if getattr(request, "user", None) is not None and request.user.is_authenticated else 0
        tag = etag(current, request.get_full_path(), user, get_language(), request.headers.get("Accept", ""))
        modified = int(current.last_modified.timestamp()) if current.last_modified else None
        pending_messages = "messages" in request.COOKIES or "_messages" in getattr(request, "session", {})
        if pending_messages:
            return self.get_response(request)
        early = get_conditional_response(request, etag=tag, last_modified=modified)
        if early is not None:
            return self._validators(early, tag, modified, user)
        page = page_key(request.get_full_path(), user, get_language(), request.headers.get("Accept", ""))
        cache = _PageCache()
        stored = cache.get(f"{page}:{tag}")
        building = False
        if stored is None and not (building := cache.add(f"{page}:building", 1, BUILD_SECONDS)):
            # another process is building this page's new state: serve its last state meanwhile
            # (a few seconds old, with its own tag: the next refresh gets the new one)
            latest = cache.get(f"{page}:latest") or _await_build(cache, page, tag)
            if latest is not None:
                old_tag, stored = latest
                return self._serve(request, stored, old_tag, modified if old_tag == tag else None, user)
        if stored is not None:
            return self._serve(request, stored, tag, modified, user)
        try:
            response = self.get_response(request)
            if response.status_code == 200 and not response.has_header("ETag"):
                self._validators(response, tag, modified, user)
                if not response.streaming and not response.cookies.get("messages"):
                    charset = response.charset or "utf-8"
                    body = CSRF_INPUT.sub(CSRF_PLACEHOLDER_INPUT, response.content.decode(charset, "replace"))
                    body = _nonce_placeholders(request, body)
                    built = (body, response["Content-Type"])
                    cache.set_many({f"{page}:{tag}": built, f"{page}:latest": (tag, built)}, CACHE_SECONDS)
        finally:
            if building:
                cache.delete(f"{page}:building")
        return response

    def _serve(self, request, stored, tag: str, modified: int | None, user: int):
        body, content_type = stored
        if CSRF_PLACEHOLDER in body:
            body = body.replace(CSRF_PLACEHOLDER, get_token(request))
        if NONCE_PLACEHOLDER in body:
            # this reader's nonce: reading it makes the CSP middleware (above) name it in the header
            body = body.replace(NONCE_PLACEHOLDER, str(getattr(request, "csp_nonce", "")))
        return self._validators(HttpResponse(body, content_type=content_type), tag, modified, user)

    @staticmethod
    def _validators(response, tag: str, modified: int | None, user: int):
        response["ETag"] = tag
        if modified is not None:
            response["Last-Modified"] = http_date(modified)
        # browsers keep the page but ask again each time (a 304 when nothing changed)
        # ``private`` only when true: ``private=False`` would be written as is, a malformed directive
        patch_cache_control(response, no_cache=True, **({"private": True} if user else {}))
        return response
