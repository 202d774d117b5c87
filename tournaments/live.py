"""Live public pages: a tournament's change marker, answered to conditional requests.

The public bracket, standings, rounds and the projector view update by themselves (issue 13 §3):
a few lines of JavaScript (``templates/tournaments/_live.html``) poll :func:`version_response`
every few seconds with ``If-None-Match``; the answer is ``304 Not Modified`` (no body) while
nothing changed, and when the marker moves the script fetches only the page's fragment
(``?parte=1``, :func:`render_live`) and swaps it in. Why polling and not server-sent events:
under gunicorn's sync workers a held-open event stream occupies a whole worker per watching
phone or projector, so a room of spectators would starve the site; a conditional poll is one
short request that costs one query (docs/live.md).

Nothing is kept in process memory (several web processes serve the site): the marker is
computed from the database in ONE query (:func:`tournament_version`) from what every public
page shows — the tournament's status, its official results (count and latest recording),
its audit log (every organizer action writes one entry), its matches (status changes bump
``updated_at``), its generated rounds, registrations and format.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone

from django.db import connection
from django.db.models import Count, Max, OuterRef, Subquery
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import quote_etag
from django.utils.translation import gettext as _

from config.api import error_body
from scoring.models import Match

from .models import AuditEntry, Pair, Result, Round, Stage, Tournament

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


def _scalar(queryset, value):
    """A correlated one-value subquery over the tournament's rows (aggregate of ``value``)."""
    return Subquery(queryset.filter(tournament=OuterRef("pk")).order_by().values("tournament")
                    .annotate(v=value).values("v")[:1])


_COLUMNS = ("pk", "status", "v_results", "v_result_at", "v_audit", "v_matches", "v_match_at", "v_rounds",
            "v_round_at", "v_pairs", "v_pair_at", "v_withdrawn_at", "v_stage_at")
#: the marker's SQL per database vendor, compiled once per process (compiling the ORM expression
#: costs ~100 times running it: benchmarks/live_poll.py)
_SQL: dict[str, str] = {}
_SLUG_MARK = "\x00slug\x00"


def _marker_queryset(slug: str):
    return (
        Tournament.objects.filter(slug=slug).order_by()
        .annotate(
            v_results=_scalar(Result.objects, Count("pk")),
            v_result_at=_scalar(Result.objects, Max("recorded_at")),
            v_audit=_scalar(AuditEntry.objects, Max("pk")),
            v_matches=_scalar(Match.objects, Count("pk")),
            v_match_at=_scalar(Match.objects, Max("updated_at")),
            v_rounds=_scalar(Round.objects.filter(generated_at__isnull=False), Count("pk")),
            v_round_at=_scalar(Round.objects, Max("generated_at")),
            v_pairs=_scalar(Pair.objects, Count("pk")),
            v_pair_at=_scalar(Pair.objects, Max("registered_at")),
            v_withdrawn_at=_scalar(Pair.objects, Max("withdrawn_at")),
            v_stage_at=_scalar(Stage.objects, Max("updated_at")),  # one stage today, several tomorrow
        )
        .values_list(*_COLUMNS)
    )


def _sql() -> str:
    """The marker's SQL with one placeholder, the slug (built from the ORM once per vendor)."""
    vendor = connection.vendor
    if vendor not in _SQL:
        sql, params = _marker_queryset(_SLUG_MARK).query.sql_with_params()
        if list(params) != [_SLUG_MARK]:  # never expected: the slug is the only parameter
            raise RuntimeError(f"unexpected marker parameters: {params!r}")
        _SQL[vendor] = sql
    return _SQL[vendor]


def _moment(value) -> datetime | None:
    """A timestamp as the database gave it (a datetime, or SQLite's text) as an aware datetime."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(str(value))
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, dt_timezone.utc)
    return parsed


def tournament_version(slug: str) -> Version | None:
    """The change marker of the tournament ``slug`` (None when there is none). One query."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    tag = hashlib.sha256(repr(tuple(str(v) for v in row)).encode()).hexdigest()[:20]
    moments = [m for m in (_moment(row[i]) for i, name in enumerate(_COLUMNS) if name.endswith("_at")) if m]
    return Version(tag, max(moments) if moments else None)


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
