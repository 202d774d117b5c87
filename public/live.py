"""Live public pages: a tournament's change marker, answered to conditional requests.

The public bracket, standings, rounds and the projector view update by themselves (docs/live.md):
a few lines of JavaScript (``templates/tournaments/_live.html``) poll :func:`version_response`
every few seconds with ``If-None-Match``; the answer is ``304 Not Modified`` (no body) while
nothing changed, and when the marker moves the script fetches only the page's fragment
(``?parte=1``, :func:`render_live`) and swaps it in. Why polling and not server-sent events:
under gunicorn's sync workers a held-open event stream occupies a whole worker per watching
phone or projector, so a room of spectators would starve the site; a conditional poll is one
short request that costs one query (docs/live.md).

Nothing is kept in process memory (several web processes serve the site): the marker is the
tournament's one change marker (``public.freshness``), computed from the database in ONE
query from what every public page shows.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import quote_etag
from django.utils.translation import gettext as _

from config.api import error_body

from . import freshness

#: seconds between two polls of the live pages (an official result shows within 10 s)
POLL_SECONDS = 4
#: the query parameter asking a live page for its fragment only
FRAGMENT_PARAM = "parte"


@dataclass(frozen=True)
class Version:
    """A tournament's change marker: ``tag`` changes whenever anything a public page shows changes."""

    tag: str
    changed_at: datetime | None

    def as_dict(self) -> dict:
        return {"version": self.tag, "changed_at": self.changed_at.isoformat() if self.changed_at else None}


def tournament_version(slug: str) -> Version | None:
    """The change marker of the tournament ``slug`` (None when there is none): ``public.freshness``'s,
    the same the public pages' ETags and the room monitor use. One query."""
    current = freshness.state(slug)
    if current is None:
        return None
    return Version(current.tag, current.last_modified)


def version_response(request, slug: str) -> HttpResponse:
    """``{"version": ..., "changed_at": ...}`` with the version as a strong ETag; ``304 Not Modified``
    when the request's ``If-None-Match`` already names it. ``Cache-Control: no-cache``: browsers and
    proxies may keep it but must ask again each time (that ask is what tells a page to refresh)."""
    version = tournament_version(slug)
    if version is None:
        return JsonResponse(error_body("slug", _("No tournament with this slug.")), status=404)
    etag = quote_etag(version.tag)
    wanted = [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in wanted or f"W/{etag}" in wanted:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(version.as_dict())
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def wants_fragment(request) -> bool:
    return request.GET.get(FRAGMENT_PARAM) == "1"


def render_live(request, template: str, fragment: str, context: dict) -> HttpResponse:
    """A live page: the whole page, or only its fragment when the page's script asks for it."""
    if wants_fragment(request):
        response = render(request, fragment, context)
        response["Cache-Control"] = "no-cache"
        return response
    return render(request, template, {**context, "live_fragment": fragment, "poll_seconds": POLL_SECONDS})
