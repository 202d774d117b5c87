"""How fresh a tournament's public pages are: one cheap query gives a fingerprint of
everything they show, so conditional requests are answered before any page is built.

``state(slug)`` reads, in one query of scalar subqueries, the tournament's row and the
count and latest change of each table its public pages read (rounds, pairs, the format,
check-ins, tables, matches with their events — every hand, signature and receipt writes
one — results and the audit trail). ``etag(...)`` hashes it with what else the page
depends on (the path, the user, the language); ``last_modified`` is the latest timestamp.
Used by ``config.conditional.PublicConditionalGetMiddleware``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce

from scoring.models import Match, MatchEvent

from .models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament


@dataclass(frozen=True)
class State:
    tournament: Tournament  # with its organizer: the page's views reuse it
    values: tuple
    last_modified: datetime | None


def _agg(queryset, field: str, function) -> Subquery:
    return Subquery(
        queryset.order_by().values("__group").annotate(value=function(field)).values("value")[:1]
    )


def _per_tournament(model, path: str):
    """``model`` rows of the outer tournament, grouped into one."""
    return model.objects.filter(**{path: OuterRef("pk")}).annotate(__group=Coalesce(path, 0, output_field=IntegerField()))


def state(slug: str) -> State | None:
    tables = {
        "round": (Round, "tournament", "id", None),
        "pair": (Pair, "tournament", "id", None),
        "checkin": (CheckIn, "round__tournament", "id", "checked_in_at"),
        "table": (TableAssignment, "tournament", "id", None),
        "match": (Match, "tournament", "id", "updated_at"),
        "event": (MatchEvent, "match__tournament", "id", "at"),
        "result": (Result, "tournament", "id", "recorded_at"),
        "audit": (AuditEntry, "tournament", "id", "at"),
    }
    annotations = {}
    for name, (model, path, ident, stamp) in tables.items():
        rows = _per_tournament(model, path)
        annotations[f"{name}_n"] = _agg(rows, ident, Count)
        annotations[f"{name}_max"] = _agg(rows, ident, Max)
        if stamp:
            annotations[f"{name}_at"] = _agg(rows, stamp, Max)
    annotations["stage_at"] = Subquery(Stage.objects.filter(tournament=OuterRef("pk")).values("updated_at")[:1])
    tournament = Tournament.objects.select_related("organizer").filter(slug=slug).annotate(**annotations).first()
    if tournament is None:
        return None
    row = {field.attname: getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields}
    row.update({key: getattr(tournament, key) for key in annotations})
    row["organizer_name"] = tournament.organizer.get_full_name() if tournament.organizer_id else ""
    stamps = [value for key, value in row.items() if key.endswith("_at") and isinstance(value, datetime)]
    return State(tournament, tuple(sorted((key, str(value)) for key, value in row.items())), max(stamps, default=None))


def etag(current: State, *parts: object) -> str:
    digest = hashlib.sha256(repr((current.values, parts)).encode()).hexdigest()[:32]
    return f'W/"{digest}"'
