"""How fresh a tournament's public pages are: one cheap query gives a fingerprint of
everything they show, so conditional requests are answered before any page is built.

``state(slug)`` reads, in one query of scalar subqueries, the tournament's row and the
count and latest change of each table its public pages read (rounds, pairs, the format,
check-ins, tables, matches with their events — every hand, signature and receipt writes
one — results and the audit trail). ``etag(...)`` hashes it with what else the page
depends on (the path, the user, the language); ``last_modified`` is the latest timestamp.
Used by ``tournaments.conditional.PublicConditionalGetMiddleware``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import DateTimeField, IntegerField
from django.db.models.expressions import RawSQL

from scoring.models import Match, MatchEvent

from .models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament


@dataclass(frozen=True)
class State:
    tournament: Tournament  # with its organizer: the page's views reuse it
    values: tuple
    last_modified: datetime | None


def _tables() -> dict[str, tuple[str, str, str | None]]:
    """name -> (FROM ... WHERE clause reaching the outer tournament, id column, timestamp column)."""
    def t(model) -> str:
        return model._meta.db_table

    outer = f"{t(Tournament)}.id"
    return {
        "round": (f"{t(Round)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "pair": (f"{t(Pair)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "checkin": (f"{t(CheckIn)} x JOIN {t(Round)} r ON x.round_id = r.id WHERE r.tournament_id = {outer}",
                    "x.id", "x.checked_in_at"),
        "table": (f"{t(TableAssignment)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "match": (f"{t(Match)} x WHERE x.tournament_id = {outer}", "x.id", "x.updated_at"),
        "event": (f"{t(MatchEvent)} x JOIN {t(Match)} m ON x.match_id = m.id WHERE m.tournament_id = {outer}",
                  "x.id", "x.at"),
        "result": (f"{t(Result)} x WHERE x.tournament_id = {outer}", "x.id", "x.recorded_at"),
        "audit": (f"{t(AuditEntry)} x WHERE x.tournament_id = {outer}", "x.id", "x.at"),
        "stage": (f"{t(Stage)} x WHERE x.tournament_id = {outer}", "x.id", "x.updated_at"),
    }


_ANNOTATIONS: dict | None = None


def _annotations() -> dict:
    """Scalar subqueries in plain SQL (built once): the ORM's Subquery costs more to compile
    than the query costs to run."""
    global _ANNOTATIONS
    if _ANNOTATIONS is None:
        out = {}
        for name, (source, ident, stamp) in _tables().items():
            out[f"{name}_n"] = RawSQL(f"SELECT COUNT(*) FROM {source}", (), output_field=IntegerField())
            out[f"{name}_max"] = RawSQL(f"SELECT MAX({ident}) FROM {source}", (), output_field=IntegerField())
            if stamp:
                out[f"{name}_at"] = RawSQL(f"SELECT MAX({stamp}) FROM {source}", (), output_field=DateTimeField())
        _ANNOTATIONS = out
    return _ANNOTATIONS


def state(slug: str) -> State | None:
    annotations = _annotations()
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
